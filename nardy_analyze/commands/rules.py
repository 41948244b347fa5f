"""``nardy-analyze rules``: the rule ids that findings name, with what each means."""
from __future__ import annotations

from ..engine import rules_classes, variant_display
from ..i18n import _, language
from ..rules import CHECKED, RULES, WHERE
from .common import Echo, echo


def _variant_names(ids: list[str]) -> str:
    """The variants a rule applies to ("long, gulbara"): the ids in English (what --variant takes), the
    variants' names in another language ("длинные нарды, гюльбара")."""
    if language() == "en":
        return ", ".join(ids)
    return ", ".join(variant_display(v) for v in ids)


def _where(rid: str) -> str:
    """`` [...]`` after a rule that applies only somewhere: the variants that declare it their own
    (``Rules.OWN_RULES``, in the registry's order), or the words of ``WHERE``; else nothing."""
    if rid in WHERE:
        return f" [{_(WHERE[rid])}]"
    own = [cls.name for cls in rules_classes() if rid in cls.OWN_RULES]
    return f" [{_variant_names(own)}]" if own else ""


def rules(*, echo: Echo = echo) -> None:
    """One line per rule id; a rule not checked yet is marked ``*``."""
    width = max(map(len, RULES))
    for rid, text in RULES.items():
        mark = " " if rid in CHECKED else "*"
        echo(f"{rid:<{width}} {mark} {_(text)}{_where(rid)}")
    if any(r not in CHECKED for r in RULES):
        echo("\n" + _("* planned: not checked yet"))

"""``nardy-analyze rules``: the rule ids that findings name, with what each means."""
from __future__ import annotations

from ..engine import variant_display
from ..i18n import _, language
from ..rules import CHECKED, RULES, VARIANTS
from .common import Echo, echo

# the rule whose variants column is a sentence (translated), not variant ids
_WORDS = frozenset({"time-limit"})


def _variant_names(ids: str) -> str:
    """The variants a rule applies to ("long, gulbara"): the ids in English (what --variant takes), the
    variants' names in another language ("длинные нарды, гюльбара")."""
    if language() == "en":
        return ids
    return ", ".join(variant_display(v.strip()) for v in ids.split(","))


def rules(*, echo: Echo = echo) -> None:
    """One line per rule id; a rule not checked yet is marked ``*``."""
    width = max(map(len, RULES))
    for rid, text in RULES.items():
        mark = " " if rid in CHECKED else "*"
        variants = VARIANTS.get(rid)
        where = "" if variants is None else f" [{_(variants) if rid in _WORDS else _variant_names(variants)}]"
        echo(f"{rid:<{width}} {mark} {_(text)}{where}")
    if any(r not in CHECKED for r in RULES):
        echo("\n" + _("* planned: not checked yet"))

"""``nardy-analyze rules``: the rule ids that findings name, with what each means."""
from __future__ import annotations

from ..i18n import _
from ..rules import CHECKED, RULES, VARIANTS
from .common import Echo, echo

# the rule whose variants column is a sentence (translated), not variant ids
_WORDS = frozenset({"time-limit"})


def rules(*, echo: Echo = echo) -> None:
    """One line per rule id; a rule not checked yet is marked ``*``."""
    width = max(map(len, RULES))
    for rid, text in RULES.items():
        mark = " " if rid in CHECKED else "*"
        variants = VARIANTS.get(rid)
        where = "" if variants is None else f" [{_(variants) if rid in _WORDS else variants}]"
        echo(f"{rid:<{width}} {mark} {_(text)}{where}")
    if any(r not in CHECKED for r in RULES):
        echo("\n" + _("* planned: not checked yet"))

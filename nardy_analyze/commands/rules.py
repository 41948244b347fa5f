"""``nardy-analyze rules``: the rule ids that findings name, with what each means."""
from __future__ import annotations

from ..rules import CHECKED, RULES, VARIANTS
from .common import Echo, echo


def rules(*, echo: Echo = echo) -> None:
    """One line per rule id; a rule not checked yet is marked ``*``."""
    width = max(map(len, RULES))
    for rid, text in RULES.items():
        mark = " " if rid in CHECKED else "*"
        where = f" [{VARIANTS[rid]}]" if rid in VARIANTS else ""
        echo(f"{rid:<{width}} {mark} {text}{where}")
    if any(r not in CHECKED for r in RULES):
        echo("\n* planned: not checked yet")

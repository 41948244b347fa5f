"""``nardy-analyze generate``: random legal games in the project's own notation (.ngn)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

from ..engine import RuleSet, UnknownVariant, get_variant
from ..fsio import OutputError, write_atomically
from ..generate import generate_stream
from ..i18n import _
from ..notation.ngn import iter_write
from .common import Echo, echo, fail


def generate(*, variant: str, games: int, seed: int, players: str, rule: list[str], output: Optional[Path],
             rules: Optional[str] = None,
             echo: Echo = echo) -> None:
    """``nardy-analyze generate`` (see the command's --help)."""
    names = [x.strip() for x in players.split(",")]
    if len(names) != 2 or not all(names):
        fail(_("--players takes two names separated by a comma, not {players!r}").format(players=players), echo=echo)
    try:
        name = get_variant(variant).name
        options = RuleSet.from_command_line(rule, rules, name)
        match, made = generate_stream(name, games, seed, (names[0], names[1]), options)
    except (UnknownVariant, ValueError) as e:
        fail(str(e), echo=echo)
    tags = {k: v for k, v in match.tags.items() if k in ("Event", "Site")}
    tags.update(White=names[0], Black=names[1])
    tags.update(match.tags)
    match.tags = tags
    # written as the games are made, each dropped once written: memory stays flat however many games
    pieces = iter_write(match, made)
    if output is None:
        for piece in pieces:
            sys.stdout.write(piece)
        return
    try:
        write_atomically(output, lambda fh: fh.writelines(pieces))
    except OutputError as e:
        fail(str(e), echo=echo)

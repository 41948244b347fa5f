"""Skill analysis of long nardy and Gul bara records with the shipped evaluator (nardy_analyze.evaluator):
the decision rows of :mod:`.skill` (the same columns and units) for every roll played.

Each roll's legal plays are ranked by the net at 0-ply (the position after the play, the opponent on roll);
the error is the best play's equity minus the played one's, in points of the variant's scoring (oin 1, mars 2,
koks 3 where the rules count koks), cubeless (the long games are played without the cube by default; with
option ``cube`` the cube is not analysed).  Luck is the best play's equity of the roll rolled minus the
average over the 21 rolls.  In Gul bara the decision is the roller's play of the roll itself; the chain
doubles and handovers that follow are played by the turn logic and are not graded (docs/evaluator.md).
"""
from __future__ import annotations

import math
from typing import Callable

from ..evaluator.analysis import ROLL_WEIGHT, ROLLS, has_net, hint, load_net
from ..evaluator.posid import NardyPosition, encode
from ..events import TurnRow

TRIVIAL = 0.001


def available(rules) -> bool:
    """Whether an evaluator is shipped for the variant of ``rules``."""
    return has_net(rules)


def _written(action) -> str:
    steps = getattr(action, "steps", None)
    if not steps:
        return "(no move)"
    return " ".join(f"{st.src}/{'off' if st.dst == 0 else st.dst}" for st in steps)


def played_position(rules, before, action):
    """The position after the roller's own play of the roll (the record's steps applied to ``before``)."""
    m, o = before
    for st in getattr(action, "steps", None) or ():
        m, o, _hit = rules.apply(m, o, st.src, st.dst)
    return m, o


def checker_rows(rules, path: str, mid: str, turns: list[TurnRow], names_of: Callable[[int], tuple],
                 grade: Callable[[float], str]) -> list[tuple]:
    """The decision rows (skill.DECISION_COLUMNS order) of every roll of ``turns``."""
    net = load_net(rules)
    rows: list[tuple] = []
    rolls_in_game: dict[int, int] = {}
    for t in turns:
        n = rolls_in_game.get(t.game, 0)
        if t.dice is None:
            continue
        rolls_in_game[t.game] = n + 1
        if t.after is None or t.spec is None:
            continue
        me, opp = t.before
        pos = NardyPosition(rules.name, me, opp, t.side, min(n, 255))
        roll = (max(t.dice), min(t.dice))
        by_roll = {}
        for r in ROLLS:
            by_roll[r] = hint(rules, pos, r[0], r[1], net)
        average = sum(w * by_roll[r][0].equity for r, w in zip(ROLLS, ROLL_WEIGHT)) / 36.0
        plays = by_roll[roll]
        best = plays[0]
        after = played_position(rules, t.before, t.action)
        played = next((p.equity for p in plays if p.after == after), math.nan)
        forced = len(plays) <= 1
        trivial = not forced and all(best.equity - p.equity <= TRIVIAL for p in plays)
        error = max(best.equity - played, 0.0) if played == played else math.nan
        play_text = _written(t.action)
        best_text = play_text if best.after == after else best.play
        names = names_of(t.game)
        rows.append((path, mid, t.game, t.turn, t.move, t.line, names[t.side], names[1 - t.side], t.side, 0, 0, 0, False, 1,
                     "centered", "checker", encode(pos), "", f"{roll[0]}{roll[1]}", play_text, best_text,
                     float(played), float(best.equity), float(error), grade(error) if error == error else "",
                     forced, trivial, not forced, len(plays), float(best.equity - average), float(average),
                     math.nan, math.nan, math.nan))
    return rows

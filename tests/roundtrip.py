"""Compare a match with its round trip through other notations: the same games, notation spelling aside.

``expected(match)`` is what any faithful conversion must give back, taken from the replay of the original
(:func:`nardy_analyze.replay.normal.normalise`): per game the players and their ratings, score, written number and comments; per
action its kind, player, dice, cube value or points, flags, clock time and comments, and for a roll the
single-die steps of the play; with ``spelling`` whether a resignation was written ``Losses`` (the
own notation .ngn writes every resignation one way, so its round trips compare without it) (the engine's route, so ``13/7(2)`` and ``13/7 13/7`` agree; a play that
breaks the rules: its written steps).  ``actual(match)`` reads the same facts from a converted record
without replaying it: equal steps from equal positions reach equal positions, game after game, and equal
result cells give equal results.
"""
from __future__ import annotations

from nardy_analyze.replay.normal import normalise
from nardy_analyze.record import Action, Kind, Match


def _cell(a: Action, steps, spelling: bool = True) -> tuple:
    item = (a.kind.value, a.player, a.value, a.and_match, a.clock, tuple(a.comments))
    if a.kind is Kind.ROLL:
        item += (a.dice if a.dice is not None else a.dice_text, a.unplayed, tuple(steps))
    if a.kind is Kind.RESIGN and spelling:      # "Losses N point" or "Resigns N points" as written
        item += (a.text[:6].lower() == "losses",)
    return item


def _head(match: Match) -> tuple:
    return (match.match_length, tuple(match.tag_items or match.tags.items()), tuple(match.comments))


def expected(match: Match, spelling: bool = True) -> tuple:
    games = []
    for ng in normalise(match).games:
        g = ng.game
        cells = []
        for na in ng.actions:
            a = na.action
            steps = [(s, d) for s, d, _ in na.route] if na.route is not None else [(s.src, s.dst) for s in a.steps]
            cells.append(_cell(a, steps, spelling))
        games.append(((g.players, g.ratings), g.score, g.written_number, tuple(g.comments), tuple(cells)))
    return _head(match), tuple(games)


def actual(match: Match, spelling: bool = True) -> tuple:
    games = []
    for g in match.games:
        cells = tuple(_cell(a, [(s.src, s.dst) for s in a.steps], spelling) for a in g.actions)
        games.append(((g.players, g.ratings), g.score, g.written_number, tuple(g.comments), cells))
    return _head(match), tuple(games)


def first_difference(a: tuple, b: tuple) -> str:
    if a[0] != b[0]:
        return f"header {a[0]} != {b[0]}"
    if len(a[1]) != len(b[1]):
        return f"{len(a[1])} games != {len(b[1])}"
    for n, (ga, gb) in enumerate(zip(a[1], b[1]), start=1):
        if ga[:4] != gb[:4]:
            return f"game {n}: {ga[:4]} != {gb[:4]}"
        for i, (x, y) in enumerate(zip(ga[4], gb[4])):
            if x != y:
                return f"game {n} action {i}: {x} != {y}"
        if len(ga[4]) != len(gb[4]):
            return f"game {n}: {len(ga[4])} actions != {len(gb[4])}"
    return "no difference"

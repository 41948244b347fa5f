"""A test-only notation built on ``notation.Notation`` itself: the plain record (``.plain``).

    plain record
    Variant: race
    Length: 0
    Game 1: White | Black | 0-0
    1. 1 35 9/4 4/1
    1. 0 63 10/4 9/6
    - 0 wins 1

A line per tag (``Name: value``), the match length, a line per game (its number, players and score), a line
per roll (the move number or ``-``, the player 0/1, the dice as written, the steps ``src/dst``, ``0`` for
off, or ``-`` when nothing was played, ``cannot`` when "cannot move" was written) and a line per win
(``wins N``, ``wins N match``).  Every other action and what the record may hold beside (clock times,
comments, ratings, set-ups...) it cannot write: ``cannot_hold`` and ``own_losses`` say so, and ``convert``
refuses or drops it as for any notation.

Everything it is, it declares here, on the Notation it registers; it touches no file of the package
(tests/test_extensions.py, tests/test_layers.py).
"""
from __future__ import annotations

import re

from nardy_analyze.notation import LOSS_KINDS, Notation, ReadError, guarded_read, register
from nardy_analyze.record import Action, Game, Kind, Loc, Match, Problem, Step

NAME = "plain"
HEAD = "plain record"
_GAME = re.compile(r"Game (\d+): (.*) \| (.*) \| (\d+)-(\d+)")
_ROLL = re.compile(r"(\d+\.|-) ([01]) ([1-6][1-6]) (.*)")
_WIN = re.compile(r"- ([01]) wins (\d+)( match)?")
_STEP = re.compile(r"(\d+)/(\d+)")


def looks_like_plain(text: str) -> bool:
    return text.lstrip("\ufeff").startswith(HEAD)


def _roll(m: re.Match, loc: Loc) -> Action:
    move, player, dice, rest = m.groups()
    a = Action(Kind.ROLL, int(player), loc, None if move == "-" else int(move[:-1]), dice=(int(dice[0]), int(dice[1])),
               dice_text=dice, dice_loc=loc)
    if rest == "cannot":
        a.cannot_move = True
    elif rest != "-":
        for word in rest.split(" "):
            s = _STEP.fullmatch(word)
            if s is None:
                raise ReadError(loc, f"not a step: {word!r}")
            a.steps.append(Step(int(s.group(1)), int(s.group(2))))
    return a


def _line(match: Match, game: Game | None, line: str, loc: Loc) -> Game | None:
    if (m := _GAME.fullmatch(line)) is not None:
        game = Game(len(match.games) + 1, loc, int(m.group(1)), (m.group(2), m.group(3)),
                    (int(m.group(4)), int(m.group(5))), loc)
        match.games.append(game)
    elif game is not None and (m := _ROLL.fullmatch(line)) is not None:
        game.actions.append(_roll(m, loc))
    elif game is not None and (m := _WIN.fullmatch(line)) is not None:
        game.actions.append(Action(Kind.WIN, int(m.group(1)), loc, text=f"Wins {m.group(2)} point",
                                   value=int(m.group(2)), and_match=bool(m.group(3))))
    elif game is None and line.startswith("Length: "):
        match.match_length = int(line[8:])
    elif game is None and ": " in line:
        key, value = line.split(": ", 1)
        match.tags.setdefault(key, value)
        match.tag_items.append((key, value))
        match.tag_locs.setdefault(key, loc)
    elif line:
        problem = Problem(loc, f"not a plain record line: {line!r}")
        (game.problems if game is not None else match.problems).append(problem)
    return game


def _read(text: str, path: str) -> Match:
    match = Match(path, NAME)
    lines = text.lstrip("\ufeff").split("\n")
    if lines[0].rstrip() != HEAD:
        raise ReadError(Loc(1, 1), f"a plain record starts with {HEAD!r}")
    game = None
    for n, line in enumerate(lines[1:], 2):
        game = _line(match, game, line.rstrip(), Loc(n, 1))
    return match


def read(text: str, path: str = "") -> Match:
    return guarded_read(NAME, path, lambda: _read(text, path))


def _action(a: Action) -> str:
    if a.kind is Kind.WIN:
        return f"- {a.player} wins {a.value}" + (" match" if a.and_match else "")
    steps = " ".join(f"{s.src}/{s.dst}" for s in a.steps) or ("cannot" if a.cannot_move else "-")
    move = "-" if a.move is None else f"{a.move}."
    return f"{move} {a.player} {a.dice_text or ''.join(map(str, a.dice))} {steps}"


def write(match: Match) -> str:
    out = [HEAD] + [f"{k}: {v}" for k, v in match.tags.items()]
    if match.match_length is not None:
        out.append(f"Length: {match.match_length}")
    for g in match.games:
        score = g.score or (0, 0)
        out.append(f"Game {g.written_number or g.number}: {g.players[0]} | {g.players[1]} | {score[0]}-{score[1]}")
        out += [_action(a) for a in g.actions if a.kind in (Kind.ROLL, Kind.WIN)]
    return "\n".join(out) + "\n"


def own_losses(match: Match) -> list[str]:
    """What the plain form cannot write beyond ``cannot_hold``: actions other than rolls and wins."""
    kinds = sorted({a.kind.value for g in match.games for a in g.actions} - {"roll", "win"})
    return [f"a {kind} cannot be written in {NAME}" for kind in kinds]


NOTATION = Notation(NAME, (".plain",), looks_like_plain, read, write, own_losses=own_losses,
                    cannot_hold=frozenset(LOSS_KINDS) - {"other_variants"})


def install() -> None:
    register(NOTATION)

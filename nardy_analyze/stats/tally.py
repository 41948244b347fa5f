"""The tally: what one record contributes to the statistics, as plain rows (one per player per game, in
:data:`~.columns.GAME_COLUMNS` order) summed from the turn rows of its replay.

:func:`match_rows` replays a parsed record with :class:`_Tally` as the visitor of its turn rows
(:class:`~nardy_analyze.events.TurnRow`) and game ends; the tally keeps per (game, side) counters
and is small enough to ship between processes.  Nothing here knows of pandas: the frames are built by
:mod:`.frames`.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import field
from operator import mul
from typing import Any, Callable

from ..engine.core import Side, walk_forced
from ..shapes import dataclass
from ..judged import choose_variant
from ..record import Match
from ..replay import ERROR, Events, ReportBuilder, replay
from ..events import GameEnd, TurnRow
from ..i18n import pgettext
from .columns import COUNTERS

_WEIGHTS = tuple(range(1, 26))          # a checker on point p is p pips from off; on the bar 25


def _pips(side: Side) -> int:
    return sum(map(mul, _WEIGHTS, side))


def _off(side: Side) -> int:
    return 15 - sum(side)


def _counts(side: Side) -> tuple[int, int]:
    """(pips, checkers on the board) of a side (the compiled core's ``counts`` is its twin)."""
    return sum(map(mul, _WEIGHTS, side)), sum(side)


def _closed_flags(rules) -> Callable[[Side], bytes]:
    """``flags(side)``: 24 bytes, b"1" where the opponent's point q = 1..24 is closed by ``side`` (the
    rules' ``closed_flags``)."""
    return rules.closed_flags()


_SIX = b"111111"


def _blocks(rules, me: Side, opp: Side, flags: Callable[[Side], bytes] | None = None) -> tuple[bool, bool]:
    """(prime, shutout) of ``me`` against ``opp``: six adjacent points closed to ``opp`` with an ``opp``
    checker behind them; all six of ``me``'s home points closed while an ``opp`` checker is on the bar."""
    closed = (flags or _closed_flags(rules))(me)   # in the opponent's numbering: it moves 24 -> 1
    i = closed.find(_SIX)
    if i < 0:
        return False, False
    # the first run of six ends on q = i + 6: a checker on q+1..24 or the bar must pass it (a later run
    # has fewer opposing checkers behind it)
    prime = any(opp[i + 6:25])
    shutout = bool(rules.has_bar and opp[24]) and closed.endswith(_SIX)
    return prime, shutout


def _forced(rules, me: Side, opp: Side, numbers: tuple[int, ...], turn) -> bool:
    """At most one legal play of ``numbers`` (what ``len(generate(...).plays) <= 1`` says): the rules'
    ``forced`` (the generic walk, :func:`~nardy_analyze.engine.core.walk_forced`, or the variant's short cuts before it: backgammon's
    decide 95 % of the rolls of the shared corpus)."""
    return rules.forced(me, opp, numbers, turn)


# The per (game, side) counters of a file: a list in COUNTERS order (GAME_COLUMNS order), by index.
(_TURNS, _ROLLS, _DOUBLES, _DIE_1, _DIE_2, _DIE_3, _DIE_4, _DIE_5, _DIE_6, _HITS, _HIT, _PIPS, _BORNE_OFF,
 _CUBE_OFFERED, _CUBE_TAKEN, _CUBE_DROPPED, _PRIMES, _SHUTOUTS, _FORCED, _HANDOVER_STEPS,
 _LONGEST_CHAIN) = range(len(COUNTERS))


_ZEROS = [0] * len(COUNTERS)


class _Tally(ReportBuilder):
    """The replay's visitor for one file: the match report and per (game, side) counters; small enough to
    ship between processes."""

    wants = Events.TURNS | Events.ENDS

    def __init__(self, rules) -> None:
        super().__init__()
        self.rules = rules
        self.rows: dict[tuple[int, int], list[int]] = {}
        self.ends: dict[int, GameEnd] = {}
        self.flags = _closed_flags(rules)
        self.chains = rules.has_chains
        self.forced = rules.forced
        # a side's pips and checkers: the compiled core's where it is in use
        self.counts = rules.core.counts if rules.core is not None else _counts
        self.game = None                         # the game of the last turn and its two rows
        self.pair: tuple[list[int], list[int]] = ([], [])
        # per side: the side after its last move, its pips and checkers (the next move starts there,
        # unless a hit changed it since)
        self.pips: list[tuple[Side | None, int, int]] = [(None, 0, 0), (None, 0, 0)]

    def _row(self, game: int, side: int) -> list[int]:
        r = self.rows.get((game, side))
        if r is None:
            r = self.rows[(game, side)] = [0] * len(COUNTERS)
        return r

    def turn(self, t: TurnRow) -> None:
        game, _, side, _, dice, (m0, o0), (m1, o1), doubled, answer, _, a, spec = t[:12]
        if game != self.game:
            self.game = game
            self.pair = (self._row(game, 0), self._row(game, 1))
        pair = self.pair
        me, other = pair[side], pair[1 - side]
        me[_TURNS] += 1
        if doubled:
            me[_CUBE_OFFERED] += 1
            if answer == "take":
                other[_CUBE_TAKEN] += 1
            elif answer == "drop":
                other[_CUBE_DROPPED] += 1
        rules = self.rules
        if dice is not None:
            d1, d2 = dice
            first = not me[_ROLLS]               # this side's first roll of the game
            me[_ROLLS] += 1
            if d1 == d2:
                me[_DOUBLES] += 1
            me[_DIE_1 - 1 + d1] += 1
            me[_DIE_1 - 1 + d2] += 1
            # the roller's own play of the roll, as the variant's turn driver asks for it (the replay's,
            # when it judged the play); the roll's number in the game counts both sides' rolls
            if spec is None:
                spec = rules.turn_segments(d1, d2, first, me[_ROLLS] + other[_ROLLS]).next(m0, o0)
            if spec is not None:
                numbers = tuple(spec.numbers)
                if self.forced(m0, o0, numbers, spec.turn):
                    me[_FORCED] += 1
        if o1 is not o0 and o1 != o0:
            hits = o1[24] - o0[24]
            if hits > 0:
                me[_HITS] += hits
                other[_HIT] += hits
            else:
                # the opponent moved in this turn: a Gul bara handover
                other[_PIPS] += max(_pips(o0) - _pips(o1), 0)
                other[_BORNE_OFF] += max(_off(o1) - _off(o0), 0)
        if m0 is not m1 and m0 != m1:
            known, p0, n0 = self.pips[side]
            counts = self.counts
            if known is not m0:
                p0, n0 = counts(m0)
            p1, n1 = counts(m1)
            self.pips[side] = (m1, p1, n1)
            if p0 > p1:
                me[_PIPS] += p0 - p1
            if n0 > n1:                          # _off(m1) - _off(m0)
                me[_BORNE_OFF] += n0 - n1
            if self.flags(m1).find(_SIX) >= 0:   # six closed points in a row: maybe a prime, a shutout
                p1, s1 = _blocks(rules, m1, o1, self.flags)
                if p1 or s1:
                    p0, s0 = _blocks(rules, m0, o0, self.flags)
                    me[_PRIMES] += p1 and not p0
                    me[_SHUTOUTS] += s1 and not s0
        if a is not None and a.segments:
            chain = 1
            for seg in a.segments:
                if seg.kind == "chain":
                    chain += 1
                elif seg.kind == "handover":
                    self._row(game, seg.player)[_HANDOVER_STEPS] += len(seg.steps)
            if dice is not None and dice[0] == dice[1]:
                me[_LONGEST_CHAIN] = max(me[_LONGEST_CHAIN], chain)
        elif dice is not None and dice[0] == dice[1] and self.chains:
            me[_LONGEST_CHAIN] = max(me[_LONGEST_CHAIN], 1)

    def game_end(self, end: GameEnd) -> None:
        self.ends[end.game] = end


@dataclass
class FileResult:
    """What one file contributes: its game rows (plain tuples in GAME_COLUMNS order) and problems."""

    path: str
    rows: list[tuple] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)   # "path:line:col: parse-error: ..." lines
    warnings: list[str] = field(default_factory=list)   # "path:line:col: parse-error: warning: ..." lines
    arg_errors: list[str] = field(default_factory=list) # --rule options the record's variant does not have


def problem_line(path: str, line: int, column: int, rule: str, message: str, warning: bool = False) -> str:
    """``path:line:col: rule: [warning: ]message``: a finding of a record's text labelled as ``validate``
    labels it (the label in the language of the messages)."""
    label = pgettext("severity", "warning") + ": " if warning else ""
    return f"{path}:{line}:{column}: {rule}: {label}{message}"


def problem_lines(match: Match) -> tuple[list[str], list[str]]:
    """(errors, warnings): the lines of the reader's problems of ``match`` (:func:`problem_line`)."""
    errors: list[str] = []
    warnings: list[str] = []
    for pr in match.problems + [p for g in match.games for p in g.problems]:
        (warnings if pr.warning else errors).append(
            problem_line(match.path, pr.loc.line, pr.loc.column, pr.rule, pr.message, pr.warning))
    return errors, warnings


def _date(match: Match) -> str | None:
    raw = (match.tag("EventDate") or match.tag("Date") or "").strip()
    m = re.match(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", raw)
    return f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}" if m else None


def match_rows(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> FileResult:
    """Game rows of one parsed match (replayed with a visitor)."""
    res = FileResult(match.path)
    # labelled as validate labels them; a warning never changes the exit code
    res.problems, res.warnings = problem_lines(match)
    if not match.games:
        if not res.problems:
            res.problems.append(f"{match.path}:1:1: parse-error: no game found: expected a Jellyfish match "
                                "(\"N point match\" and \"Game 1\" headers)")
        return res
    # the variant and options exactly as validate chooses them
    choice = choose_variant(match, variant, options)
    res.arg_errors = list(choice.arg_errors)
    if choice.variant is None:
        loc, msg = choice.error
        res.problems.append(f"{match.path}:{loc.line}:{loc.column}: parse-error: {msg}")
        return res
    v = choice.variant
    for loc, msg in choice.tag_problems:
        res.warnings.append(problem_line(match.path, loc.line, loc.column, "parse-error", msg, warning=True))
    tally = _Tally(v.rules)
    rep = replay(match, v, visitor=tally)
    illegal = Counter((f.game, f.side) for f in rep.findings if f.severity == ERROR)
    mid = (match.tag("Match ID") or match.tag("MatchID") or "").strip() or match.path
    date = _date(match)
    length = match.match_length or 0
    for game, gr in zip(match.games, rep.games):
        score = gr.score          # the one count of points (docs/stats.md "Points")
        n = gr.number                        # the game's number as every command gives it
        end = tally.ends.get(n)
        names = [game.players[s] or f"player {s + 1}" for s in (0, 1)]
        kind = None
        if gr.winner is not None:
            if gr.how == "bearoff" and end is not None and end.level:
                kind = v.level_kind(end.level)
            elif gr.how in ("drop", "resign", "timeout"):
                kind = gr.how
            else:
                kind = "resign"
        elif gr.how == "draw":
            kind = "draw"
        cube = end.cube if end is not None else 1
        for s in (0, 1):
            c = tally.rows.get((n, s)) or _ZEROS
            if gr.winner is None:
                result, pts = ("draw" if kind == "draw" else None), 0
            else:
                result = "win" if gr.winner == s else "loss"
                pts = (end.points or 0) if gr.winner == s and end is not None else 0
            res.rows.append((
                match.path, n, mid, v.name, date, length, names[s], names[1 - s], s,
                score[s], score[1 - s], *c[:_PRIMES], cube, result, kind, pts, illegal[(n, s)],
                *c[_PRIMES:]))
    return res

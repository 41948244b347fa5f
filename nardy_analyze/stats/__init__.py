"""Statistics on game records as tidy pandas DataFrames: per player per game, per player, per match.

    from nardy_analyze import stats
    g = stats.games(["matches/"])              # one row per player per game
    p = stats.players(g)                       # one row per player (also accepts paths)
    m = stats.matches(g)                       # one row per match
    p = stats.players(["matches/"])            # from paths: folded as the files come, in flat memory
    for chunk in stats.iter_games(["matches/"], rows=50_000): ...   # the rows of games(), in chunks

Every figure comes from the replay through the rules engine (:func:`nardy_analyze.replay.replay` with an
observer): the turn rows it reports are taken from the position the replay really goes on from, so a
record with an illegal play still gets its rows (with ``illegal`` > 0) and never counts a checker twice.
The columns, their dtypes and the decisions behind them are documented in ``docs/stats.md`` and in
:data:`GAME_COLUMNS`, :data:`PLAYER_COLUMNS` and :data:`MATCH_COLUMNS`.
"""
from __future__ import annotations

import gc
import math
import os
import re
from collections import Counter
from operator import mul
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

import pandas as pd

from ..inputs import SKIPPED, UNREADABLE, Entry, choose_variant, discover
from ..analyze import map_records
from ..engine import generate, level_words
from ..engine.core import Pos, Side, walk_forced
from ..replay.events import GameEnd, TurnRow
from ..record import Match
from ..replay import ERROR, replay
from ..safetext import visible

__all__ = ["games", "players", "matches", "frame", "iter_games", "iter_frames", "scan", "Scan", "match_rows",
           "plot", "write_frame", "write_frames", "display_names",
           "GAME_COLUMNS", "PLAYER_COLUMNS", "MATCH_COLUMNS", "normalise_name", "parse_aliases"]

# ----------------------------------------------------------------------------------------- columns
# name -> (dtype, meaning).  The order is the order of the frame's columns.
GAME_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("category", "the record file"),
    "game": ("int64", "1-based order of the game in the file"),
    "match": ("category", "match id: the header's \"Match ID\" tag, else the path"),
    "variant": ("category", "backgammon, long or gulbara"),
    "date": ("datetime64[ns]", "the header's EventDate (or Date) tag; NaT when absent"),
    "length": ("int64", "match length in points; 0 for money play"),
    "player": ("category", "this player's normalised name (see --alias)"),
    "opponent": ("category", "the opponent's normalised name"),
    "side": ("int64", "0 = first name on the score line (left column), 1 = second"),
    "score": ("int64", "this player's match score at the start of the game"),
    "opp_score": ("int64", "the opponent's match score at the start of the game"),
    "turns": ("int64", "turns played (rolls, plus cube actions that ended the game)"),
    "rolls": ("int64", "rolls played (a roll with unreadable dice is a turn, not a roll)"),
    "doubles": ("int64", "doubles rolled"),
    "die_1": ("int64", "dice showing 1 (each die of each roll counted once)"),
    "die_2": ("int64", "dice showing 2"),
    "die_3": ("int64", "dice showing 3"),
    "die_4": ("int64", "dice showing 4"),
    "die_5": ("int64", "dice showing 5"),
    "die_6": ("int64", "dice showing 6"),
    "hits": ("int64", "opposing blots hit by this player"),
    "hit": ("int64", "own checkers hit by the opponent"),
    "pips": ("int64", "pips moved: the drop of this player's pip count (a bear-off counts the point's pips)"),
    "borne_off": ("int64", "checkers this player bore off"),
    "cube_offered": ("int64", "doubles offered by this player"),
    "cube_taken": ("int64", "doubles of the opponent this player took"),
    "cube_dropped": ("int64", "doubles of the opponent this player dropped"),
    "max_cube": ("int64", "the highest cube value of the game (1 when never turned)"),
    "result": ("category", "win, loss or draw (the last-roll draw); missing (NaN) when the record ends without "
                           "a result"),
    "kind": ("category", "how the game ended: single, gammon, backgammon (mars, koks, home-mars in long nardy and "
                         "Gul bara), resign, drop, timeout, draw; missing when unfinished"),
    "points": ("int64", "points the variant's scoring credits this player for the game (0 for the loser)"),
    "illegal": ("int64", "error findings in this player's turns (rule breaks, as validate reports them)"),
    "primes": ("int64", "turns that made six adjacent blocked points with an opposing checker behind them"),
    "shutouts": ("int64", "turns that closed all six home points while an opposing checker was on the bar"),
    "forced": ("int64", "turns whose roll had at most one legal play (engine)"),
    "handover_steps": ("int64", "Gul bara: steps played with numbers handed over by the opponent"),
    "longest_chain": ("int64", "Gul bara: the longest doubles chain of one turn (1 = a double with no "
                               "chain); 0 when no double was rolled"),
}

PLAYER_COLUMNS: dict[str, tuple[str, str]] = {
    "player": ("category", "normalised name"),
    "games": ("int64", "games played (rows)"),
    "finished": ("int64", "games with a result"),
    "wins": ("int64", "games won"),
    "losses": ("int64", "games lost"),
    "win_rate": ("float64", "wins / finished games"),
    "points_for": ("int64", "points won"),
    "points_against": ("int64", "points the opponents won in these games"),
    "points_per_game": ("float64", "(points_for - points_against) / finished games"),
    "gammons_won": ("int64", "gammons (mars) won"),
    "gammons_lost": ("int64", "gammons (mars) lost"),
    "backgammons_won": ("int64", "backgammons (koks) won"),
    "backgammons_lost": ("int64", "backgammons (koks) lost"),
    "mars_won": ("int64", "mars won (long nardy, Gul bara)"),
    "mars_lost": ("int64", "mars lost"),
    "koks_won": ("int64", "koks won (long nardy, Gul bara)"),
    "koks_lost": ("int64", "koks lost"),
    "resigned": ("int64", "games this player resigned"),
    "dropped": ("int64", "games this player lost by dropping a double"),
    "draws": ("int64", "games drawn (the last-roll draw)"),
    "home_mars_won": ("int64", "home mars won (long nardy, Gul bara with option home_mars)"),
    "home_mars_lost": ("int64", "home mars lost"),
    "timed_out": ("int64", "games this player lost on time (a timeout)"),
    "rolls": ("int64", "rolls"),
    "doubles": ("int64", "doubles rolled"),
    "doubles_rate": ("float64", "doubles / rolls (fair dice: 1/6)"),
    "doubles_low": ("float64", "95% Wilson interval of the doubles rate: lower end"),
    "doubles_high": ("float64", "95% Wilson interval of the doubles rate: upper end"),
    "dice_chi2": ("float64", "chi-square statistic of the die faces against fair dice (5 degrees of freedom)"),
    "dice_p": ("float64", "its p-value (chi-square, 5 degrees of freedom); small values suggest unfair dice or records"),
    "die_1": ("int64", "dice showing 1"), "die_2": ("int64", "dice showing 2"),
    "die_3": ("int64", "dice showing 3"), "die_4": ("int64", "dice showing 4"),
    "die_5": ("int64", "dice showing 5"), "die_6": ("int64", "dice showing 6"),
    "hits": ("int64", "opposing blots hit"),
    "hits_per_game": ("float64", "hits / games"),
    "hit": ("int64", "own checkers hit"),
    "pips": ("int64", "pips moved"),
    "pips_per_roll": ("float64", "pips / rolls"),
    "borne_off": ("int64", "checkers borne off"),
    "cube_offered": ("int64", "doubles offered"),
    "cube_taken": ("int64", "doubles taken"),
    "cube_dropped": ("int64", "doubles dropped"),
    "max_cube": ("int64", "highest cube value in any of the games"),
    "turns": ("int64", "turns"),
    "illegal": ("int64", "error findings in this player's turns"),
    "illegal_per_100": ("float64", "illegal per 100 turns"),
    "primes": ("int64", "primes made"),
    "shutouts": ("int64", "shutouts made"),
    "forced": ("int64", "forced turns"),
    "handover_steps": ("int64", "Gul bara handover steps played"),
    "longest_chain": ("int64", "longest doubles chain in any game"),
}

MATCH_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("category", "the record file"),
    "match": ("category", "match id"),
    "variant": ("category", "variant"),
    "date": ("datetime64[ns]", "EventDate; NaT when absent"),
    "player1": ("category", "first player (left column)"),
    "player2": ("category", "second player"),
    "length": ("int64", "match length; 0 for money play"),
    "games": ("int64", "games in the record"),
    "score1": ("int64", "final score of player1: the last game's starting score plus its result"),
    "score2": ("int64", "final score of player2"),
    "winner": ("category", "who reached the match length (money play: who is ahead); missing when "
                           "the match is unfinished or level"),
    "complete": ("bool", "a player reached the match length (money play: the last game has a result)"),
    "illegal": ("int64", "error findings in the match"),
}

_ENDS = ["resign", "drop", "timeout", "draw"]      # the kinds of a game's end that are not a win level
RESULTS = ["win", "loss", "draw"]                  # the values of the result column


def _kinds() -> list[str]:
    """The values of the ``kind`` column: every variant's words for its win levels (backgammon's single,
    gammon, backgammon; the long games' mars, koks), then the other ends."""
    return list(dict.fromkeys([*level_words(), *_ENDS]))
_COUNTERS = ("turns", "rolls", "doubles", "die_1", "die_2", "die_3", "die_4", "die_5", "die_6", "hits", "hit",
             "pips", "borne_off", "cube_offered", "cube_taken", "cube_dropped", "primes", "shutouts", "forced",
             "handover_steps", "longest_chain")


# ----------------------------------------------------------------------------------------- names
_RATING = re.compile(r"\s*,\s*[0-9]+(?:[.,][0-9]+)?\s*$")


def normalise_name(name: str) -> str:
    """The key a name is grouped by: blanks around and inside collapsed, a trailing ``,1673`` rating
    removed, case folded.  (Displayed names keep the most frequent spelling.)"""
    n = _RATING.sub("", " ".join(str(name).split()))
    return n.casefold()


def parse_aliases(items: Iterable[str]) -> dict[str, str]:
    """``['name=canonical', ...]`` -> {normalised name: canonical}; ValueError on a malformed item."""
    out: dict[str, str] = {}
    for item in items:
        old, sep, new = item.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(f"--alias takes 'name=canonical', not {item!r}")
        out[normalise_name(old)] = " ".join(new.split())
    return out


# ----------------------------------------------------------------------------------------- replay → rows
_WEIGHTS = tuple(range(1, 26))          # a checker on point p is p pips from off; on the bar 25


def _pips(side: Side) -> int:
    return sum(map(mul, _WEIGHTS, side))


def _off(side: Side) -> int:
    return 15 - sum(side)


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
    ``forced`` (the generic walk, :func:`walk_forced`, or the variant's short cuts before it: backgammon's
    decide 95 % of the rolls of the shared corpus)."""
    return rules.forced(me, opp, numbers, turn)


_walk_forced = walk_forced       # the generic walk, without the rules' short cuts


# The per (game, side) counters of a file: a list in _COUNTERS order (GAME_COLUMNS order), by index.
(_TURNS, _ROLLS, _DOUBLES, _DIE_1, _DIE_2, _DIE_3, _DIE_4, _DIE_5, _DIE_6, _HITS, _HIT, _PIPS, _BORNE_OFF,
 _CUBE_OFFERED, _CUBE_TAKEN, _CUBE_DROPPED, _PRIMES, _SHUTOUTS, _FORCED, _HANDOVER_STEPS,
 _LONGEST_CHAIN) = range(len(_COUNTERS))


_ZEROS = [0] * len(_COUNTERS)


class _Tally:
    """The replay's observer for one file: per (game, side) counters; small enough to ship between processes."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.rows: dict[tuple[int, int], list[int]] = {}
        self.ends: dict[int, GameEnd] = {}
        self.flags = _closed_flags(rules)
        self.chains = rules.has_chains
        self.forced = rules.forced
        self.game = None                         # the game of the last turn and its two rows
        self.pair: tuple[list[int], list[int]] = ([], [])
        # per side: the side after its last move, its pips and checkers (the next move starts there,
        # unless a hit changed it since)
        self.pips: list[tuple[Side | None, int, int]] = [(None, 0, 0), (None, 0, 0)]

    def _row(self, game: int, side: int) -> list[int]:
        r = self.rows.get((game, side))
        if r is None:
            r = self.rows[(game, side)] = [0] * len(_COUNTERS)
        return r

    def turn(self, t: TurnRow) -> None:
        game, _, side, _, dice, (m0, o0), (m1, o1), doubled, answer, _, a, spec = t
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
            if known is not m0:
                p0, n0 = _pips(m0), sum(m0)
            p1, n1 = sum(map(mul, _WEIGHTS, m1)), sum(m1)        # _pips(m1), inline
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


def _date(match: Match) -> str | None:
    raw = (match.tag("EventDate") or match.tag("Date") or "").strip()
    m = re.match(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", raw)
    return f"{m[1]}-{int(m[2]):02d}-{int(m[3]):02d}" if m else None


def match_rows(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None) -> FileResult:
    """Game rows of one parsed match (replayed with an observer)."""
    res = FileResult(match.path)
    for pr in match.problems + [p for g in match.games for p in g.problems]:
        if pr.warning:        # labelled as validate labels it; a warning never changes the exit code
            res.warnings.append(f"{match.path}:{pr.loc.line}:{pr.loc.column}: parse-error: warning: {pr.message}")
        else:
            res.problems.append(f"{match.path}:{pr.loc.line}:{pr.loc.column}: parse-error: {pr.message}")
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
        res.warnings.append(f"{match.path}:{loc.line}:{loc.column}: parse-error: warning: {msg}")
    tally = _Tally(v.rules)
    rep = replay(match, v, observer=tally)
    illegal = Counter((f.game, f.side) for f in rep.findings if f.severity == ERROR)
    mid = (match.tag("Match ID") or match.tag("MatchID") or "").strip() or match.path
    date = _date(match)
    length = match.match_length or 0
    score = [0, 0]
    for game, gr in zip(match.games, rep.games):
        if game.score is not None:
            score = list(game.score)
        end = tally.ends.get(game.number)
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
            c = tally.rows.get((game.number, s)) or _ZEROS
            if gr.winner is None:
                result, pts = ("draw" if kind == "draw" else None), 0
            else:
                result = "win" if gr.winner == s else "loss"
                pts = (end.points or 0) if gr.winner == s and end is not None else 0
            res.rows.append((
                match.path, game.number, mid, v.name, date, length, names[s], names[1 - s], s,
                score[s], score[1 - s], *c[:_PRIMES], cube, result, kind, pts, illegal[(game.number, s)],
                *c[_PRIMES:]))
        if gr.winner is not None and end is not None and end.points is not None:
            score[gr.winner] += end.points
    return res


def _rows_of(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None) -> FileResult:
    """The per-file work of :func:`scan` (run by ``analyze.map_records``, in worker processes too)."""
    return match_rows(match, variant, options)


# ----------------------------------------------------------------------------------------- scanning
@dataclass
class Scan:
    """Everything a run read: the game rows and what could not be read."""

    games: pd.DataFrame
    files: int = 0                                        # record files read
    unreadable: list[tuple[str, str]] = field(default_factory=list)   # (path, message)
    problems: list[str] = field(default_factory=list)     # parse problems, "path:line:col: parse-error: ..."
    warnings: list[str] = field(default_factory=list)     # "...: parse-error: warning: ..." (exit code unchanged)
    arg_errors: list[tuple[str, str]] = field(default_factory=list)   # (path, --rule the variant lacks)
    skipped: list[str] = field(default_factory=list)      # files in folders that are not records
    internal_errors: list[tuple[str, str]] = field(default_factory=list)  # (path, message): nardy-analyze failed


def _options(variant: str, rules: dict[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    if rules is None:
        return {}
    if isinstance(rules, dict):
        return dict(rules)
    from ..inputs import parse_rule_options

    return parse_rule_options(None, list(rules))


def scan(paths: Iterable[str] | str, variant: str = "backgammon", rules: dict[str, Any] | Sequence[str] | None = None,
         aliases: dict[str, str] | Sequence[str] | None = None, jobs: int | None = None,
         progress: Callable[[str, int, int], None] | None = None, engine: Any = None) -> Scan:
    """Read and replay ``paths`` (files and folders, as ``validate``); game rows plus what failed.

    ``variant``: the variant of records whose header names none; ``rules``: rule options (dict, or
    ``["crawford=off", ...]``) for records whose header does not set them; ``aliases``: ``{name: canonical}``
    or ``["name=canonical", ...]``; ``jobs``: worker processes (default: one per core from 32 files on);
    ``progress(path, done, total)`` after each file; ``engine``: None / ``"local"``, or a
    :class:`nardy_analyze.cluster.DaskEngine` / ``"dask"``: the files are replayed on the Dask workers,
    with the same result.

    Every row is kept: for archives of any size, :func:`players` and :func:`matches` of paths and
    :func:`iter_games` fold the files as they come (:mod:`nardy_analyze.stats.aggregate`)."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    paths = [os.fspath(p) for p in paths]
    options = _options(variant, rules)
    out = Scan(pd.DataFrame())
    rows: list[tuple] = []
    entries = list(discover(paths))
    results = map_records(entries, _rows_of, (variant, options), jobs=jobs, progress=progress, engine=engine)
    # Everything alive before the scan (pandas and numpy make most of it) goes to the garbage collector's
    # permanent generation while the files are replayed: the collections of this process and of the worker
    # processes it forks do not walk it over and over, nor copy a worker's inherited pages to do so
    # (gc.freeze, as the gc docs advise before a fork); it is handed back at the end.
    gc.freeze()
    try:
        for entry, kind, value in results:
            if kind == "ok":
                out.files += 1
                rows.extend(value.rows)
                out.problems.extend(value.problems)
                out.warnings.extend(value.warnings)
                out.arg_errors.extend((value.path, m) for m in value.arg_errors)
            elif kind == UNREADABLE:
                out.unreadable.append((entry.path, value))
            elif kind == SKIPPED:
                out.skipped.append(entry.path)
            else:                  # internal-error: a bug in nardy-analyze on this file; the others go on
                out.internal_errors.append((entry.shown, value))
    finally:
        getattr(results, "close", lambda: None)()     # (interrupted: the worker processes stop now)
        gc.unfreeze()
    if isinstance(aliases, dict):
        aliases = {normalise_name(k): " ".join(str(v).split()) for k, v in aliases.items()}
    elif aliases is not None:
        aliases = parse_aliases(aliases)
    out.games = _game_frame(rows, aliases)
    return out


def _game_frame(rows: list[tuple], aliases: dict[str, str] | None = None) -> pd.DataFrame:
    cols = list(GAME_COLUMNS)
    df = pd.DataFrame.from_records(rows, columns=cols) if rows else pd.DataFrame({c: [] for c in cols})
    _names(df, aliases or {})
    return _typed(df, GAME_COLUMNS, {"result": RESULTS, "kind": _kinds()})


def _names(df: pd.DataFrame, aliases: dict[str, str]) -> None:
    """Normalise player and opponent in place: one display spelling per normalised key, aliases applied."""
    if df.empty:
        return
    # each distinct name once, in the order names first appear (player column, then opponent column)
    shown = display_names(Counter(pd.concat([df["player"], df["opponent"]]).astype(str)), aliases)
    for col in ("player", "opponent"):
        df[col] = df[col].astype(str).map(shown)


def display_names(raw: dict[str, int], aliases: dict[str, str]) -> dict[str, str]:
    """{name as written: name shown}: ``raw`` counts each name as written (in the player and the opponent
    columns), in the order the names first appear; the name shown for a normalised key is its most
    frequent spelling (the first to appear among equals), or its alias."""
    counts: Counter = Counter()                  # (key, spelling) -> occurrences, in order of appearance
    key_of: dict[str, str] = {}
    for name, n in raw.items():
        spelling = _RATING.sub("", " ".join(name.split()))
        key = key_of[name] = spelling.casefold()
        counts[(key, spelling)] += n
    display: dict[str, str] = {}
    for (key, spelling), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        display.setdefault(key, spelling)
    alias = {k: aliases.get(k, v) for k, v in display.items()}
    # an alias may point at another name's key: use that name's display
    for k, v in list(alias.items()):
        target = normalise_name(v)
        if k in aliases and target in display and target not in aliases:
            alias[k] = display[target]
    return {name: alias[key] for name, key in key_of.items()}


def _typed(df: pd.DataFrame, spec: dict[str, tuple[str, str]], cats: dict[str, list[str]]) -> pd.DataFrame:
    for col, (dtype, _) in spec.items():
        if col in cats:
            df[col] = pd.Categorical(df[col], categories=cats[col])
        elif dtype == "category":
            df[col] = df[col].astype(str).astype("category")
        elif dtype.startswith("datetime"):
            df[col] = pd.to_datetime(df[col], errors="coerce").astype("datetime64[ns]")
        else:
            df[col] = df[col].astype(dtype)
    return df[list(spec)]


# ----------------------------------------------------------------------------------------- public API
def games(paths: Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per player per game (columns: :data:`GAME_COLUMNS`).  Options: those of :func:`scan`.
    Files that cannot be read are left out (use :func:`scan` to see them)."""
    return scan(paths, **options).games


def _source(source: pd.DataFrame | Iterable[str] | str, options: dict[str, Any]) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return source
    return games(source, **options)


def _wilson(k: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    if n <= 0:
        return math.nan, math.nan
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def _chi2_sf_5(x: float) -> float:
    """P(X >= x) for a chi-square variable of 5 degrees of freedom, in closed form (odd degrees of
    freedom): erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3).  Equal to scipy.stats.chi2.sf(x, 5) to
    within rounding (tests/test_stats.py compares them); it spares importing scipy.stats, which cost more
    than a second of every ``stats --by player`` run."""
    if x != x:
        return math.nan
    if x <= 0:
        return 1.0
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3)


def _dice_tests(faces):
    """Chi-square statistics and p-values of many rows of six face counts at once, against fair dice:
    the statistic of scipy.stats.chisquare (sum of (observed - expected)^2 / expected, expected the
    row's mean) and its p-value with 5 degrees of freedom."""
    import numpy as np

    total = faces.sum(axis=1)
    stat = np.full(len(faces), np.nan)
    pval = np.full(len(faces), np.nan)
    ok = total > 0
    if ok.any():
        obs = faces[ok]
        expected = obs.mean(axis=1, keepdims=True)
        st = ((obs - expected) ** 2 / expected).sum(axis=1)
        stat[ok] = st
        pval[ok] = [_chi2_sf_5(float(x)) for x in st]
    return stat, pval


def players(source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per player over all the games (columns: :data:`PLAYER_COLUMNS`), sorted by games played.

    ``source`` is a frame from :func:`games` or paths (then ``options`` are those of :func:`scan`, and the
    files are folded into the table as they come, without keeping their rows: the same table in flat
    memory, :mod:`nardy_analyze.stats.aggregate`)."""
    if not isinstance(source, pd.DataFrame):
        from .aggregate import aggregate

        with aggregate(source, "player", **options) as agg:
            return agg.players()
    g = source
    if g.empty:
        return _typed(pd.DataFrame({c: [] for c in PLAYER_COLUMNS}), PLAYER_COLUMNS, {})
    g = g.assign(
        finished=g["result"].notna(), wins=g["result"] == "win", losses=g["result"] == "loss",
        opp_points=g.groupby(["path", "game"], observed=True)["points"].transform("sum") - g["points"])
    kind = g["kind"].astype(object)
    second, third = level_words(2), level_words(3)     # gammons and mars; backgammons and koks
    won, lost = g["wins"], g["losses"]
    g = g.assign(
        gammons_won=won & kind.isin(second), gammons_lost=lost & kind.isin(second),
        backgammons_won=won & kind.isin(third), backgammons_lost=lost & kind.isin(third),
        mars_won=won & (kind == "mars"), mars_lost=lost & (kind == "mars"),
        koks_won=won & (kind == "koks"), koks_lost=lost & (kind == "koks"),
        resigned=lost & (kind == "resign"), dropped=lost & (kind == "drop"),
        draws=g["result"] == "draw", home_mars_won=won & (kind == "home-mars"),
        home_mars_lost=lost & (kind == "home-mars"), timed_out=lost & (kind == "timeout"))
    grouped = g.groupby("player", observed=True, sort=False)
    p = grouped[PLAYER_SUMS].sum()
    p["games"] = grouped.size()
    p["points_for"] = grouped["points"].sum()
    p["points_against"] = grouped["opp_points"].sum()
    p["max_cube"] = grouped["max_cube"].max()
    p["longest_chain"] = grouped["longest_chain"].max()
    return _player_table(p.reset_index())


# The sums per player of players(), in the order of its group-by (the per-player counts of the aggregate
# of nardy_analyze.stats.aggregate are these, then games, points_for, points_against, max_cube, longest_chain).
PLAYER_SUMS = ["finished", "wins", "losses", "gammons_won", "gammons_lost", "backgammons_won", "backgammons_lost",
               "mars_won", "mars_lost", "koks_won", "koks_lost", "resigned", "dropped", "draws", "home_mars_won",
               "home_mars_lost", "timed_out", "rolls", "doubles",
               "die_1", "die_2", "die_3", "die_4", "die_5", "die_6", "hits", "hit", "pips", "borne_off",
               "cube_offered", "cube_taken", "cube_dropped", "turns", "illegal", "primes", "shutouts", "forced",
               "handover_steps"]


def _player_table(p: pd.DataFrame) -> pd.DataFrame:
    """The players table from its sums (one row per player in the order players first appear: ``player``,
    PLAYER_SUMS, games, points_for, points_against, max_cube, longest_chain, all int64): the rates,
    intervals and tests, typed and sorted."""
    fin = p["finished"].where(p["finished"] > 0)
    p["win_rate"] = p["wins"] / fin
    p["points_per_game"] = (p["points_for"] - p["points_against"]) / fin
    p["doubles_rate"] = p["doubles"] / p["rolls"].where(p["rolls"] > 0)
    bands = [_wilson(k, n) for k, n in zip(p["doubles"], p["rolls"])]
    p["doubles_low"] = [b[0] for b in bands]
    p["doubles_high"] = [b[1] for b in bands]
    p["dice_chi2"], p["dice_p"] = _dice_tests(p[[f"die_{i}" for i in range(1, 7)]].to_numpy(dtype=float))
    p["hits_per_game"] = p["hits"] / p["games"]
    p["pips_per_roll"] = p["pips"] / p["rolls"].where(p["rolls"] > 0)
    p["illegal_per_100"] = 100 * p["illegal"] / p["turns"].where(p["turns"] > 0)
    p = _typed(p, PLAYER_COLUMNS, {})
    return p.sort_values(["games", "player"], ascending=[False, True], key=_sort_key).reset_index(drop=True)


def _sort_key(s: pd.Series) -> pd.Series:
    return s.astype(str).str.casefold() if s.dtype == "category" or s.dtype == object else s


def matches(source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """One row per match (columns: :data:`MATCH_COLUMNS`), in the order read.

    ``source`` is a frame from :func:`games` or paths (then ``options`` are those of :func:`scan`; the
    files are folded as they come, one match row each, :mod:`nardy_analyze.stats.aggregate`)."""
    if not isinstance(source, pd.DataFrame):
        from .aggregate import aggregate

        with aggregate(source, "match", **options) as agg:
            return agg.frame()
    g = source
    if g.empty:
        return _typed(pd.DataFrame({c: [] for c in MATCH_COLUMNS}), MATCH_COLUMNS, {})
    keys = ["path", "match"]

    def side(s: int) -> pd.DataFrame:
        rows = g[g["side"] == s].groupby(keys, observed=True, sort=False)
        return pd.DataFrame({
            "variant": rows["variant"].last(), "date": rows["date"].first(), "player": rows["player"].first(),
            "length": rows["length"].last(), "games": rows.size(),
            "final": rows["score"].last() + rows["points"].last(), "finished": rows["result"].last().notna()})

    first, second = side(0), side(1)
    illegal = g.groupby(keys, observed=True, sort=False)["illegal"].sum()
    m = first.merge(second, left_index=True, right_index=True, how="left", suffixes=("", "_2"))
    s1, s2 = m["final"].to_numpy(), m["final_2"].fillna(0).to_numpy()
    length = m["length"].to_numpy()
    match_play = length > 0
    complete = (match_play & (pd.Series(s1).combine(pd.Series(s2), max).to_numpy() >= length)) | \
        (~match_play & m["finished"].to_numpy(dtype=bool))
    name1, name2 = m["player"].astype(str).to_numpy(), m["player_2"].astype(str).to_numpy()
    winner = [a if x > y else b if y > x else None for a, b, x, y in zip(name1, name2, s1, s2)]
    winner = [w if (c or not mp) else None for w, c, mp in zip(winner, complete, match_play)]
    out = pd.DataFrame({
        "path": m.index.get_level_values(0).astype(str), "match": m.index.get_level_values(1).astype(str),
        "variant": m["variant"].astype(str).to_numpy(), "date": m["date"].to_numpy(), "player1": name1,
        "player2": name2, "length": length, "games": m["games"].to_numpy(), "score1": s1, "score2": s2,
        "winner": winner, "complete": complete, "illegal": illegal.reindex(m.index).to_numpy()})
    return _typed(out, MATCH_COLUMNS, {})


def iter_frames(by: str, paths: Iterable[str] | str, rows: int = 16_384, **options: Any) -> Iterator[pd.DataFrame]:
    """The table of ``--by game`` or ``--by match`` of ``paths`` as an iterator of frames of at most ``rows``
    rows each, in order, each typed as the whole table (same columns, dtypes and categories:
    ``pd.concat(list(iter_frames(...)), ignore_index=True)`` is :func:`games` / :func:`matches`), without
    ever holding every row: the files are folded as they come and the rows wait in a temporary file.
    The first frame comes once the last file is read (a name's displayed spelling is its most frequent
    one over every file).  ``options``: those of :func:`scan`."""
    from .aggregate import aggregate

    if by not in ("game", "match"):
        raise ValueError(f"iter_frames: by must be game or match, not {by!r} (players: players(paths))")
    with aggregate(paths, by, **options) as agg:
        yield from agg.frames(rows)


def iter_games(paths: Iterable[str] | str, rows: int = 16_384, **options: Any) -> Iterator[pd.DataFrame]:
    """:func:`games` as an iterator of frames of at most ``rows`` rows (:func:`iter_frames`)."""
    return iter_frames("game", paths, rows, **options)


def frame(by: str, source: pd.DataFrame | Iterable[str] | str, **options: Any) -> pd.DataFrame:
    """``frame("player" | "game" | "match", ...)``: the table of ``--by``."""
    return {"game": lambda s, **o: _source(s, o), "player": players, "match": matches}[by](source, **options)


# ----------------------------------------------------------------------------------------- rendering
FORMATS = ("table", "csv", "json", "parquet", "markdown")
# The columns a terminal table shows (machine formats and markdown carry every column).
TABLE_COLUMNS: dict[str, list[str]] = {
    "player": ["player", "games", "wins", "win_rate", "points_for", "points_against", "doubles_rate", "dice_p",
               "hits_per_game", "pips_per_roll", "gammons_won", "gammons_lost", "backgammons_won",
               "backgammons_lost", "cube_offered", "cube_taken", "cube_dropped", "illegal_per_100"],
    "game": ["path", "game", "player", "opponent", "rolls", "doubles", "hits", "hit", "pips", "borne_off",
             "max_cube", "result", "kind", "points", "illegal"],
    "match": ["match", "date", "player1", "player2", "length", "games", "score1", "score2", "winner", "illegal"],
}


_LEVEL_COLUMNS = {"gammon": "gammons", "backgammon": "backgammons", "mars": "mars", "koks": "koks"}


def table_columns(by: str, games: pd.DataFrame | Iterable[str] | None = None) -> list[str]:
    """The columns the terminal table of ``--by`` shows.  The per-player table names the columns of the
    win levels as the variants of ``games`` (a frame of :func:`games`, or the names of the variants read)
    name them: ``mars_won``... ``koks_lost`` when every game is of a variant whose levels are mars and koks
    (long nardy, Gul bara), ``gammons_won``... otherwise (where ``gammons_won`` counts gammons and mars
    alike)."""
    cols = TABLE_COLUMNS[by]
    if isinstance(games, pd.DataFrame):
        games = games["variant"].dropna().unique() if "variant" in games else None
    variants = set() if games is None else {str(v) for v in games}
    if by != "player" or not variants:
        return cols
    from ..engine import get_variant

    kinds = {get_variant(v).level_kinds for v in variants}
    if len(kinds) != 1:
        return cols
    second, third = (_LEVEL_COLUMNS.get(k, k) for k in kinds.pop())
    rename = {"gammons_won": f"{second}_won", "gammons_lost": f"{second}_lost",
              "backgammons_won": f"{third}_won", "backgammons_lost": f"{third}_lost"}
    return [rename.get(c, c) for c in cols]


class OptionalDependency(RuntimeError):
    """A feature needs a package installed only with an extra; the message says which."""


def sort_frame(df: pd.DataFrame, column: str) -> pd.DataFrame:
    """Sort by ``column``: numbers and dates largest first, names alphabetically (ValueError if unknown)."""
    if column not in df.columns:
        raise ValueError(f"--sort: no column {column!r}; columns: {', '.join(df.columns)}")
    s = df[column]
    text = s.dtype == "category" or s.dtype == object or s.dtype == bool
    return df.sort_values(column, ascending=text, key=_sort_key, kind="stable", na_position="last") \
        .reset_index(drop=True)


def cell(value: Any) -> str:
    """A value as text tables show it: integers as they are, floats to 6 significant digits, dates as
    YYYY-MM-DD, missing values empty."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def write_markdown(df: pd.DataFrame, fh, header: bool = True) -> None:
    def esc(t: str) -> str:
        return visible(t).replace("|", "\\|")

    cols = list(df.columns)
    if header:
        fh.write("| " + " | ".join(cols) + " |\n")
        fh.write("|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c]) and df[c].dtype != bool else "---"
                                for c in cols) + "|\n")
    for row in df.itertuples(index=False):
        fh.write("| " + " | ".join(esc(cell(v)) for v in row) + " |\n")


def write_table(df: pd.DataFrame, by: str, fh, color: bool = False, width: int | None = None,
                columns: Sequence[str] | None = None, total: int | None = None) -> None:
    """The main columns of ``df`` (``columns``, default TABLE_COLUMNS[by]) aligned by rich; colour only
    when asked.  On a terminal the columns that do not fit its width are left out, with a note saying how
    to see them.  ``total``: the rows of the whole table when ``df`` is only its first rows (a note says
    so)."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    tty = getattr(fh, "isatty", lambda: False)()
    console = Console(file=fh, force_terminal=color, no_color=not color, highlight=False,
                      width=width or (None if tty else 1000))
    cols = [c for c in (columns or TABLE_COLUMNS[by]) if c in df.columns]
    cells = {c: [visible(cell(v)) for v in df[c]] for c in cols}      # names from the files: no raw controls
    shown, used = [], 0
    for c in cols:
        w = max([len(c), *map(len, cells[c])]) + 2
        if shown and used + w > console.width:
            break
        shown.append(c)
        used += w
    t = Table(box=None, show_edge=False, pad_edge=False, header_style="bold")
    for c in shown:
        numeric = pd.api.types.is_numeric_dtype(df[c]) and df[c].dtype != bool
        t.add_column(c, justify="right" if numeric else "left", no_wrap=numeric)
    for row in zip(*(cells[c] for c in shown)):
        t.add_row(*map(Text, row))          # Text: a name is never read as rich markup ("[red]")
    console.print(t)
    if len(shown) < len(cols):
        console.print(f"({len(cols) - len(shown)} more column(s) do not fit this terminal: "
                      f"{', '.join(cols[len(shown):])}; --format csv or markdown shows every column)",
                      style="dim")
    if total is not None and total > len(df):
        console.print(f"(the first {len(df):,} of {total:,} rows; --format csv, json, parquet or markdown "
                      "gives every row)", style="dim")


def write_frame(df: pd.DataFrame, fmt: str, fh, by: str = "player", color: bool = False,
                width: int | None = None, columns: Sequence[str] | None = None) -> None:
    """Write ``df`` as ``fmt`` to ``fh`` (text; binary for parquet); ``columns``: those of the table
    format (default :func:`table_columns` of ``by``)."""
    if fmt == "csv":
        df.to_csv(fh, index=False, date_format="%Y-%m-%d", lineterminator="\n")
    elif fmt == "json":
        fh.write(df.to_json(orient="records", date_format="iso", date_unit="s", force_ascii=False, indent=1))
        fh.write("\n")
    elif fmt == "markdown":
        write_markdown(df, fh)
    elif fmt == "parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise OptionalDependency("--format parquet needs pyarrow: pip install 'nardy-analyze[parquet]'") \
                from None
        df.to_parquet(fh, index=False)
    else:
        write_table(df, by, fh, color, width, columns)


# Rows of a --by game or --by match table on a terminal (the other formats give every row).
TABLE_ROWS = 1000


def write_frames(frames: Iterable[pd.DataFrame], fmt: str, fh, by: str = "game", color: bool = False,
                 width: int | None = None, total: int | None = None,
                 columns: Sequence[str] | None = None) -> None:
    """Write the chunks of one table (:func:`iter_frames`: the same columns and dtypes, at least one
    frame) as :func:`write_frame` writes their concatenation, a chunk at a time: csv, json and markdown
    byte for byte the same; parquet one row group per chunk (one chunk: the same file); the terminal
    table at most :data:`TABLE_ROWS` rows, with a note giving ``total``, the rows of the whole table."""
    it = iter(frames)
    if fmt == "csv":
        for i, df in enumerate(it):
            df.to_csv(fh, index=False, header=i == 0, date_format="%Y-%m-%d", lineterminator="\n")
    elif fmt == "json":
        empty, n = None, 0
        for df in it:
            if df.empty:
                empty = df
                continue
            text = df.to_json(orient="records", date_format="iso", date_unit="s", force_ascii=False, indent=1)
            fh.write("[\n" if n == 0 else ",\n")
            fh.write(text[2:-2])                     # the records, without "[\n" and "\n]"
            n += 1
        if n:
            fh.write("\n]\n")
        else:
            write_frame(empty, fmt, fh, by)
    elif fmt == "markdown":
        for i, df in enumerate(it):
            write_markdown(df, fh, header=i == 0)
    elif fmt == "parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise OptionalDependency("--format parquet needs pyarrow: pip install 'nardy-analyze[parquet]'") \
                from None
        writer = None
        try:
            for df in it:
                table = pa.Table.from_pandas(df, preserve_index=False)
                if writer is None:
                    writer = pq.ParquetWriter(fh, table.schema, compression="snappy")
                writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()
    else:
        head, n = [], 0
        for df in it:                                # read no further than the rows shown
            head.append(df.iloc[:TABLE_ROWS - n])
            n += len(head[-1])
            if n >= TABLE_ROWS:
                break
        shown = head[0] if len(head) == 1 else pd.concat(head, ignore_index=True)
        write_table(shown, by, fh, color, width, columns, total)


# ----------------------------------------------------------------------------------------- plot
def plot(players_frame: pd.DataFrame, path: str, top: int = 8, title: str = "") -> None:
    """Write a PNG or SVG report of the ``top`` players by games: per player the die faces against fair
    dice (95% band), the doubles rate with its 95% Wilson interval against 1/6, and points per game."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionalDependency("--plot needs matplotlib: pip install 'nardy-analyze[plot]'") from None
    fmt = os.path.splitext(str(path))[1].lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise ValueError(f"--plot: {path}: the file name must end in .png or .svg")
    p = players_frame[players_frame["rolls"] > 0].head(top).reset_index(drop=True)
    if p.empty:
        raise ValueError("--plot: no player with any roll to plot")
    n = len(p)
    names = [visible(str(x)) for x in p["player"]]       # (an SVG may hold no control character)
    fig = plt.figure(figsize=(12, max(4.2, 1.45 * n + 1.6)), layout="constrained")
    grid = fig.add_gridspec(n, 3, width_ratios=[1.2, 1, 1])
    fair = 1 / 6
    for i, row in p.iterrows():
        ax = fig.add_subplot(grid[i, 0])
        faces = [int(row[f"die_{k}"]) for k in range(1, 7)]
        total = sum(faces)
        share = [f / total for f in faces]
        half = 1.96 * math.sqrt(fair * (1 - fair) / total)
        ax.axhspan(fair - half, fair + half, color="#c9d7ea", label="fair ±95%")
        ax.axhline(fair, color="#2f5597", lw=1)
        ax.vlines(range(1, 7), fair, share, color="#e07b39", lw=2)
        ax.plot(range(1, 7), share, "o", color="#e07b39", ms=6)
        lo = min(min(share), fair - half)
        hi = max(max(share), fair + half)
        pad = (hi - lo) * 0.25 + 0.005
        ax.set_ylim(max(0, lo - pad), hi + pad)
        ax.set_xticks(range(1, 7))
        ax.tick_params(labelsize=8)
        ax.set_ylabel(names[i][:18], fontsize=9, rotation=0, ha="right", va="center")
        pv = row["dice_p"]
        ax.text(0.99, 0.95, f"{total} dice, χ² p = {pv:.3g}", transform=ax.transAxes, ha="right", va="top",
                fontsize=7.5, color="#333")
        if i == 0:
            ax.set_title("share of each die face vs fair 1/6 (band: 95%)", fontsize=10)
        if i == n - 1:
            ax.set_xlabel("face", fontsize=9)
        else:
            ax.set_xticklabels([])
    y = list(range(n))[::-1]
    ax = fig.add_subplot(grid[:, 1])
    rate, low, high = p["doubles_rate"], p["doubles_low"], p["doubles_high"]
    ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="o", color="#e07b39", ecolor="#555", capsize=3)
    ax.axvline(fair, color="#2f5597", lw=1, ls="--", label="fair 1/6")
    ax.set_yticks(y, [f"{nm[:18]}\n{r} rolls" for nm, r in zip(names, p["rolls"])], fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_title("doubles rate, 95% Wilson interval", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    ax = fig.add_subplot(grid[:, 2])
    ppg = p["points_per_game"].fillna(0)
    ax.barh(y, ppg, color=["#3a8f5c" if v >= 0 else "#c0392b" for v in ppg], height=0.55)
    ax.axvline(0, color="#333", lw=0.8)
    ax.set_yticks(y, [f"{nm[:18]}\n{g} games" for nm, g in zip(names, p["games"])], fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    for yy, v, pf, pa in zip(y, ppg, p["points_for"], p["points_against"]):
        ax.annotate(f"{v:+.2f}  ({pf} for, {pa} against)", (max(v, 0), yy), xytext=(4, 0),
                    textcoords="offset points", ha="left", va="center", fontsize=7.5)
    lim = max(abs(ppg).max(), 0.1) * 2.2
    ax.set_xlim(-lim, lim)
    ax.set_title("net points per game (for - against)", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(title or f"nardy-analyze stats: {n} player(s)", fontsize=12)
    from io import BytesIO

    from ..fsio import write_atomically

    buf = BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):     # SVG text stays text (searchable, small)
        fig.savefig(buf, format=fmt, dpi=110)
    plt.close(fig)
    write_atomically(path, lambda fh: fh.write(buf.getvalue()), binary=True)


def _returns(spec: dict[str, tuple[str, str]], what: str) -> str:
    lines = ["", "", "    Returns", "    -------", f"    pandas.DataFrame, {what}, with these columns:", ""]
    lines += [f"    ``{col}`` ({dtype}): {meaning}" for col, (dtype, meaning) in spec.items()]
    return "\n".join(lines) + "\n"


# Every output column, with its dtype and meaning, in help() of the functions that return it.
games.__doc__ = (games.__doc__ or "") + _returns(GAME_COLUMNS, "one row per player per game")
players.__doc__ = (players.__doc__ or "") + _returns(PLAYER_COLUMNS, "one row per player")
matches.__doc__ = (matches.__doc__ or "") + _returns(MATCH_COLUMNS, "one row per match")

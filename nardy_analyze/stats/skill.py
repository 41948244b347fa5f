"""Skill analysis: how well each checker play and cube decision of a backgammon record was made.

    from nardy_analyze import statsrun
    from nardy_analyze.stats import skill
    run = statsrun.analyse(["matches/"])       # replay + evaluate every decision
    d = run.decisions                          # one row per decision (DECISION_COLUMNS)
    p = skill.summary(d, "player")             # per player: error rates, grades, luck, PR
    g = skill.summary(d, "game"); m = skill.summary(d, "match")

The positions come from the replay through the rules engine (the same turn rows ``stats`` uses); the
equities from the Open Sage neural-network engine (PyPI ``bgsage``, the ``analysis`` extra), evaluated in
batches.  Units, signs, thresholds and how the figures compare with GNU Backgammon: ``docs/analysis.md``.

Only variants whose positions are backgammon's (the rules object's ``position_id``) have an engine; a
record of another variant gets one note saying so and the dice luck that needs no engine (pips rolled
against the average roll), never equities.

:func:`analyse` and :func:`decisions` run the pool over files: they are jobs of layer 5
(:mod:`nardy_analyze.statsrun`), re-exported here (see :func:`__getattr__`); this module analyses one
record (:func:`analyse_match`, :func:`analyse_file`) and builds the tables.
"""
from __future__ import annotations

import math
from functools import lru_cache
from dataclasses import field, replace
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

import pandas as pd

from ..shapes import dataclass
from ..inputs import Entry
from ..judged import choose_variant
from ..engine import Dice, generate, get_variant, variant_display
from ..engine.core import Side, fmt_steps
from ..engine.posid import match_id, position_id
from ..events import GameEnd, TurnRow
from ..notation.sgf_analysis import Candidate, CheckerAnalysis, CubeAnalysis
from ..record import Kind, Match, game_numbers
from ..replay import Events, ReportBuilder, replay
from .tally import problem_lines
from .render import TABLE_ROWS, OptionalDependency, write_frames, write_table
from . import bearoff, cube as cubes, skill_long
from ..i18n import N_, _, ngettext, pgettext

__all__ = ["analyse_match", "write_decisions", "summary", "roll_luck", "board", "plot", "sgf_analysis",
           "position_analysis", "Analysis", "Config", "EngineMissing", "NoRecords", "DECISION_COLUMNS",
           "SUMMARY_COLUMNS", "INSTALL_HINT", "engine_available", "grade"]

INSTALL_HINT = N_("analyze needs the bgsage engine: pip install 'nardy-analyze[analysis]'")

# GNU Backgammon's default skill thresholds (equity lost, normalised): doubtful, bad, very bad
THRESHOLDS = (0.04, 0.08, 0.16)
CLOSE_CUBE = 0.16          # gnubg's isCloseCubedecision: optimal - min(double/take, double/pass) < 0.16
TRIVIAL = 0.001            # a checker decision whose legal plays are all within this of the best is trivial

DECISION_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("category", "the record file"),
    "match": ("category", "match id: the header's \"Match ID\" tag, else the path"),
    "game": ("int64", "the game's number: its own Game N (the order in the file when unnumbered)"),
    "turn": ("int64", "1-based turn of the game (both players counted), as stats counts turns"),
    "move": ("Int64", "the roll's number in the game, as findings and show --move give it (a cube decision: "
                      "the roll after it); empty for a double that was dropped"),
    "line": ("int64", "line of the roll (or of the double) in the record"),
    "player": ("category", "who decided: the roller (checker play, double) or the doubled player (take)"),
    "opponent": ("category", "the other player"),
    "side": ("int64", "0 = first name on the score line, 1 = second"),
    "length": ("int64", "match length; 0 for money play"),
    "away": ("int64", "points this player still needs (0 in money play)"),
    "opp_away": ("int64", "points the opponent still needs (0 in money play)"),
    "crawford": ("bool", "the Crawford game"),
    "cube": ("int64", "cube value when the decision was made"),
    "cube_owner": ("category", "centered, player (this player owns it) or opponent"),
    "kind": ("category", "checker, double (the roller's double / no double) or take (take / pass)"),
    "position_id": ("object", "GNU Backgammon Position ID, this player on roll"),
    "match_id": ("object", "GNU Backgammon Match ID of the decision"),
    "dice": ("object", "the roll, high die first (\"31\"); empty for cube decisions"),
    "play": ("object", "the play made (\"8/5 6/5\"), or the cube action: double, no double, take, pass"),
    "best": ("object", "the engine's best play or cube action"),
    "equity_played": ("float64", "equity of the play / action made (this player's view, cubeful, EMG)"),
    "equity_best": ("float64", "equity of the best play / action"),
    "error": ("float64", "equity lost: equity_best - equity_played, >= 0"),
    "grade": ("category", "\"\", doubtful, bad or very bad (error above 0.04 / 0.08 / 0.16)"),
    "forced": ("bool", "checker: at most one legal play (cube decisions: never)"),
    "trivial": ("bool", "checker: all legal plays within 0.001; cube: neither close nor actual (gnubg)"),
    "counted": ("bool", "counts in the error rates: unforced checker play, close or actual cube decision"),
    "moves": ("int64", "legal plays of the roll (checker); 0 for cube decisions"),
    "luck": ("float64", "checker rows: equity of the roll against the average roll (roller's view); 0 otherwise"),
    "equity_average": ("float64", "checker rows: the weighted average over the 21 rolls of the best play's "
                                  "equity (luck = best of this roll - this)"),
    "nd": ("float64", "cube rows: no double equity (the doubler's view); NaN for checker rows"),
    "dt": ("float64", "cube rows: double / take equity (the doubler's view)"),
    "dp": ("float64", "cube rows: double / pass equity (the doubler's view)"),
    "part": ("object", "checker rows: roll (the roller's play of the roll), chain or handover (a further part of "
                       "a Gul bara turn); empty for cube decisions"),
}

SUMMARY_COLUMNS: dict[str, tuple[str, str]] = {
    "decisions": ("int64", "decisions analysed (checker plays, cube decisions with the cube available, takes)"),
    "unforced": ("int64", "decisions counted in error_rate: unforced checker plays + close or actual cube "
                          "decisions"),
    "checker_decisions": ("int64", "checker plays (rolls; in Gul bara also the parts of a turn after the roll)"),
    "unforced_checker": ("int64", "checker plays with more than one legal play"),
    "cube_decisions": ("int64", "close or actual cube decisions (double / no double, take / pass)"),
    "error": ("float64", "total equity lost (EMG; normalised to a 1-cube)"),
    "checker_error": ("float64", "equity lost in checker plays"),
    "cube_error": ("float64", "equity lost in cube decisions"),
    "error_rate": ("float64", "millipoints of equity lost per unforced decision (gnubg's Error rate mEMG)"),
    "checker_error_rate": ("float64", "mEMG per unforced checker play"),
    "cube_error_rate": ("float64", "mEMG per close or actual cube decision"),
    "pr": ("float64", "performance rating: mean error per unforced decision x 500 (lower is better)"),
    "doubtful": ("int64", "decisions graded doubtful (losing more than 0.04, or the first of --thresholds)"),
    "bad": ("int64", "decisions graded bad (more than 0.08)"),
    "very_bad": ("int64", "decisions graded very bad (more than 0.16)"),
    "luck": ("float64", "total luck of this player's rolls (EMG, normalised)"),
    "luck_rate": ("float64", "millipoints of luck per roll (gnubg's Luck rate mEMG)"),
    "opp_luck": ("float64", "total luck of the opponent's rolls in the same games"),
    "result": ("float64", "points won minus points lost (games with a result)"),
    "luck_adjusted": ("float64", "result - (luck - opp_luck) x cube, luck in points at the cube of each roll"),
}

_COLUMN_INDEX = {c: i for i, c in enumerate(DECISION_COLUMNS)}   # a decision row's fields by column
_GROUP_KEYS = {"game": ["path", "match", "game", "player", "opponent"], "match": ["path", "match", "player"],
               "player": ["player"]}

TABLE_COLUMNS = {
    "decision": ["game", "move", "player", "kind", "dice", "play", "best", "error", "grade", "luck"],
    "game": ["match", "game", "player", "unforced", "error_rate", "pr", "doubtful", "bad", "very_bad",
             "luck_rate", "result"],
    "match": ["match", "player", "unforced", "error_rate", "checker_error_rate", "cube_error_rate", "pr",
              "very_bad", "luck_rate", "luck_adjusted"],
    "player": ["player", "unforced", "error_rate", "checker_error_rate", "cube_error_rate", "pr", "doubtful",
               "bad", "very_bad", "luck_rate", "luck_adjusted"],
}


class EngineMissing(RuntimeError):
    """The bgsage engine (the ``analysis`` extra) is not installed."""


def engine_available() -> bool:
    try:
        import bgsage  # noqa: F401
    except ImportError:
        return False
    return True


def _bgsage():
    try:
        import bgsage     # (the 'analysis' extra)
    except ImportError:
        raise EngineMissing(_(INSTALL_HINT)) from None
    return bgsage


def require_engine() -> None:
    """Raise :class:`EngineMissing` when the bgsage engine is not installed."""
    _bgsage()


def grade(error: float, thresholds: Sequence[float] = THRESHOLDS) -> str:
    """"" below the first threshold, else doubtful / bad / very bad (strictly above, as gnubg)."""
    doubtful, bad, very_bad = thresholds
    if error > very_bad:
        return "very bad"
    if error > bad:
        return "bad"
    if error > doubtful:
        return "doubtful"
    return ""


@dataclass(frozen=True)
class Config:
    """What the analysis is asked for: ``plies`` in GNU Backgammon's count (0 = the network alone, which
    is bgsage's "1ply"); ``threads``: bgsage threads per process (0 = every core); ``batch``: positions
    per engine call; ``thresholds``: doubtful, bad, very bad."""

    plies: int = 0
    threads: int = 1
    batch: int = 4096
    thresholds: tuple[float, float, float] = THRESHOLDS

    @property
    def level(self) -> str:
        return f"{self.plies + 1}ply"


# ----------------------------------------------------------------------------------------- positions
def board(mover: Side, opponent: Side) -> list[int]:
    """bgsage's 26-point board from the mover's view: [1..24] the mover's points (the opponent's
    checkers negative, its point q at 25 - q), [25] the mover's bar, [0] the opponent's bar."""
    b = [0] * 26
    for p in range(24):
        b[p + 1] += mover[p]
        b[24 - p] -= opponent[p]
    b[25] = mover[24]
    b[0] = opponent[24]
    return b


_ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]          # 21 rolls, high die first


class _Collect(ReportBuilder):
    """The replay's visitor: the match report, every turn row and game end of one file."""

    wants = Events.TURNS | Events.ENDS

    def __init__(self) -> None:
        super().__init__()
        self.turns: list[TurnRow] = []
        self.ends: dict[int, GameEnd] = {}

    def turn(self, row: TurnRow) -> None:
        self.turns.append(row)

    def game_end(self, end: GameEnd) -> None:
        self.ends[end.game] = end


class _CollectParts(_Collect):
    """:class:`_Collect` that also keeps the parts of each Gul bara turn of several as the replay played
    them (``ActionState.parts``: where the replay went on from after an illegal part), by (game, move)."""

    wants = Events.TURNS | Events.ENDS | Events.STATES

    def __init__(self) -> None:
        super().__init__()
        self.parts: dict[tuple[int, int], list] = {}
        self._last = None

    def action_state(self, state) -> None:
        self._last = state

    def turn(self, row: TurnRow) -> None:
        super().turn(row)
        last, self._last = self._last, None
        if last is not None and last.parts and last.roll is not None and last.roll == row.move:
            self.parts[(row.game, row.move)] = last.parts


@dataclass
class FileAnalysis:
    """What one file contributes: decision rows (tuples in DECISION_COLUMNS order), results per game and
    side, and what could not be analysed."""

    path: str
    rows: list[tuple] = field(default_factory=list)
    results: list[tuple] = field(default_factory=list)     # (path, match, game, player, opponent, points +/-)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)      # "path:line:col: rule: warning: ..." (exit code 0)
    notes: list[str] = field(default_factory=list)         # records of a variant without an engine
    arg_errors: list[str] = field(default_factory=list)


def _owner_name(owner: int | None, side: int) -> str:
    return "centered" if owner is None else ("player" if owner == side else "opponent")


def _dice_note(match: Match, rows: list[TurnRow], variant: str) -> str:
    """The dice luck that needs no engine: pips rolled against the average roll (8 1/6, doubles played
    four times), per player."""
    pips = [0, 0]
    rolls = [0, 0]
    for t in rows:
        if t.dice is not None:
            d1, d2 = t.dice
            pips[t.side] += 4 * d1 if d1 == d2 else d1 + d2
            rolls[t.side] += 1
    names = [(match.games[0].players[s] if match.games else "") or _("player {number}").format(number=s + 1)
             for s in (0, 1)]
    # TRANSLATORS: {player} rolled {pips} ("50 pips", its own plural) in {n} rolls; {luck}: the pips above (+)
    # or below (-) the average roll's 8 1/6 a roll
    parts = [ngettext("{player} rolled {pips} in {n} roll ({luck} against the average roll)",
                      "{player} rolled {pips} in {n} rolls ({luck} against the average roll)",
                      rolls[s]).format(player=names[s], n=rolls[s],
                                       pips=ngettext("{n} pip", "{n} pips", pips[s]).format(n=pips[s]),
                                       luck=f"{pips[s] - rolls[s] * 49 / 6:+.1f}") for s in (0, 1)]
    # TRANSLATORS: {variant}: the variant's name in the genitive ("for long nardy"); {dice}: both players'
    # "Anna rolled 50 pips in 6 rolls (...)"
    return _("{path}: no analysis engine exists for {variant} (no equities given); "
             "dice: {dice}").format(path=match.path, variant=variant_display(variant, "gen"), dice="; ".join(parts))


def analyse_match(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
                  cfg: Config = Config(), keep: "_Keep | None" = None) -> FileAnalysis:
    """Decision rows of one parsed match.  ``keep``: what :func:`sgf_analysis` and
    :func:`position_analysis` keep of each decision (only the decisions of its ``only`` turns, when set)."""
    res = FileAnalysis(match.path)
    res.problems, res.warnings = problem_lines(match)   # labelled as validate and stats label them
    if not match.games:
        if not match.problems:
            res.problems.append(f"{match.path}:1:1: parse-error: " + _("no game found"))
        return res
    choice = choose_variant(match, variant, options)
    res.arg_errors = list(choice.arg_errors)
    if choice.variant is None:
        loc, msg = choice.error
        res.problems.append(f"{match.path}:{loc.line}:{loc.column}: parse-error: {msg}")
        return res
    v = choice.variant
    col = _CollectParts() if keep is not None and keep.moves is not None and not v.rules.one_part_turns \
        else _Collect()
    rep = replay(match, v, visitor=col)
    if not v.rules.position_id:
        # (validate --analyse and the SGF: backgammon only; the replayer's chances: every variant with an engine)
        if (keep is None or keep.chances or keep.moves is not None) and skill_long.available(v.rules):
            _long_analysis(match, v, rep, col, res, cfg, keep)
        else:
            res.notes.append(_dice_note(match, col.turns, v.name))
        return res
    bg = _bgsage()
    mid = (match.tag("Match ID") or match.tag("MatchID") or "").strip() or match.path
    length = match.match_length or 0
    money = length == 0
    jacoby = bool(v.get("jacoby", False)) and money
    beaver = bool(v.get("beaver", False)) and money
    cube_rule = v.cube_in_play
    # the names and the result of each game (the score before it and the Crawford state come with each turn
    # row: the replay's, never derived again here)
    ctx: dict[int, tuple] = {}
    for game, gr in zip(match.games, rep.games):
        names = tuple(game.players[s] or f"player {s + 1}" for s in (0, 1))
        ctx[gr.number] = names
        if gr.winner is not None and gr.credited is not None:
            for s in (0, 1):
                res.results.append((match.path, mid, gr.number, names[s], names[1 - s],
                                    float(gr.credited if gr.winner == s else -gr.credited)))
    # --- the decisions, in order; positions to evaluate are queued and filled in afterwards
    checker: list[dict] = []       # one per roll played: its 21 (or 15) roll positions are evaluated
    cube: list[dict] = []          # one per cube decision (double or take)
    rolled: set[int] = set()
    start = v.rules.initial()
    cells = _Cells(match) if keep is not None else None
    for t in col.turns:
        dloc, aloc, rloc = cells.turn(t) if cells is not None else (None, None, None)
        names = ctx.get(t.game, ("player 1", "player 2"))
        sc, crawford, cube_v, owner = t.score, t.crawford, t.cube_before, t.owner
        s = t.side
        me, opp = t.before
        away = (length - sc[s], length - sc[1 - s]) if length else (0, 0)
        base = dict(game=t.game, turn=t.turn, move=t.move, line=t.line, side=s, names=names, away=away, crawford=crawford,
                    score=sc, cube_live=bool(cube_rule))
        # no one can double before the opening roll (a game set up elsewhere has had its opening roll)
        opening_turn = t.game not in rolled and (me, opp) in (start, start[::-1])
        # the roller's cube decision, when the cube is theirs to turn
        available = cube_rule and not opening_turn and owner in (None, s) and (
            money or cubes.Stakes(length, away[0], away[1], crawford).can_double(cubes.PLAYER, cube_v))
        if available and (t.dice is not None or t.doubled):
            cube.append(dict(base, kind="double", me=me, opp=opp, cube=cube_v, owner=owner,
                             acted="double" if t.doubled else "no double", loc=dloc if t.doubled else rloc))
            if t.doubled and t.answer in ("take", "drop"):
                cube.append(dict(base, kind="take", me=me, opp=opp, cube=cube_v, owner=owner,
                                 acted="take" if t.answer == "take" else "pass", loc=aloc))
        if t.doubled and t.answer == "take":
            owner, cube_v = 1 - s, t.cube
        if t.dice is None or t.after is None:
            continue
        # the opening roll (which also decides who plays first): the game's first roll from the starting
        # position (a game set up elsewhere has had its opening roll)
        opening = opening_turn and t.dice[0] != t.dice[1] and not v.rules.opening_double_allowed
        rolled.add(t.game)
        checker.append(dict(base, kind="checker", me=me, opp=opp, cube=cube_v, owner=owner, dice=t.dice,
                            after=t.after, action=t.action, opening=opening, loc=rloc))
    if keep is not None and keep.only is not None:
        checker = [d for d in checker if (d["game"], d["line"]) in keep.only]
        cube = [d for d in cube if (d["game"], d["line"]) in keep.only]
    res.rows = _evaluate(bg, v.rules, match.path, mid, length, checker, cube, cfg, jacoby, beaver, keep)
    return res


def _long_analysis(match: Match, v, rep, col: _Collect, res: FileAnalysis, cfg: Config,
                   keep: "_Keep | None" = None) -> None:
    """Long nardy and Gul bara: the checker rows from the shipped evaluator (skill_long), the games' results."""
    mid = (match.tag("Match ID") or match.tag("MatchID") or "").strip() or match.path
    names_by_game = {}
    for game, gr in zip(match.games, rep.games):
        names = tuple(game.players[s] or f"player {s + 1}" for s in (0, 1))
        names_by_game[gr.number] = names      # the game's number as every command gives it
        if gr.winner is not None and gr.credited is not None:      # the one count of points
            for s in (0, 1):
                res.results.append((match.path, mid, gr.number, names[s], names[1 - s],
                                    float(gr.credited if gr.winner == s else -gr.credited)))
    res.rows = skill_long.checker_rows(v.rules, match.path, mid, col.turns,
                                       lambda g: names_by_game.get(g, ("player 1", "player 2")),
                                       lambda e: grade(e, cfg.thresholds),
                                       spots=None if keep is None else keep.spots, top=SPOT_PLAYS,
                                       only=None if keep is None else keep.moves,
                                       parts=getattr(col, "parts", None))


@dataclass
class _Keep:
    """What the analysis keeps besides its rows: GNU Backgammon's view of each decision per record cell
    (``sgf``) and a plain summary of each decision (``spots``), for the turns ``only`` (None: all)."""

    only: set | None = None
    moves: set | None = None       # long nardy, Gul bara: the turns to analyse as (game, move) (None: all)
    chances: bool = False          # each spot also with its move, record cell and the chances after it
    sgf: dict = field(default_factory=dict)
    spots: list = field(default_factory=list)


class _Cells:
    """The record cells of each turn of the replay: the double, its answer, the roll (``(line, column)``
    keys, None when absent), found in order in the game's actions."""

    def __init__(self, match: Match) -> None:
        self.games = {n: g.actions for g, n in zip(match.games, game_numbers(match.games))}
        self.game, self.acts, self.i = None, [], 0

    def _find(self, test) -> tuple[int, int] | None:
        for j in range(self.i, len(self.acts)):
            if test(self.acts[j]):
                self.i = j + 1
                return (self.acts[j].loc.line, self.acts[j].loc.column)
        return None

    def turn(self, t: TurnRow) -> tuple:
        if t.game != self.game:
            self.game, self.acts, self.i = t.game, self.games.get(t.game, []), 0
        dloc = aloc = rloc = None
        if t.doubled:
            dloc = self._find(lambda a: a.kind is Kind.DOUBLE and a.player == t.side)
            aloc = self._find(lambda a: a.kind in (Kind.TAKE, Kind.DROP, Kind.BEAVER) and a.player != t.side)
        if t.action is not None:
            rloc = self._find(lambda a: a is t.action)
        return dloc, aloc, rloc


def _roll_equities(rolls: list[tuple[int, int]], results: list,
                   theirs: list | None = None) -> tuple[dict[tuple[int, int], float], float]:
    """The best play's equity of each roll and their average over the 36 dice (a non-double counts
    twice): luck of a roll = its equity - the average.  The opening roll (``theirs``: the results of the
    opponent's 15 rolls from the same position, his view) also decides who plays first: its average is
    half the roller's average over his 15 rolls and half the opponent's, from the roller's view (0 in money
    play, where the start is symmetric), as GNU Backgammon measures the opening roll."""
    best = {r: (res.moves[0].equity if res.moves else math.nan) for r, res in zip(rolls, results)}
    weights = [1 if a == c else 2 for a, c in rolls]
    average = sum(w * best[r] for w, r in zip(weights, rolls)) / sum(weights)
    if theirs:
        other = [res.moves[0].equity if res.moves else math.nan for res in theirs]
        average = (average - sum(other) / len(other)) / 2
    return best, average


def _opening_rolls() -> list[tuple[int, int]]:
    return [(a, c) for a, c in _ROLLS if a != c]


def roll_luck(mover: Side, opponent: Side, cube: int = 1, owner: str = "centered", away: tuple[int, int] = (0, 0),
              crawford: bool = False, opening: bool = False, jacoby: bool = False) -> dict[tuple[int, int], float]:
    """The luck of every roll (high die first) from a position before the roll, ``mover`` on roll
    (sides in their owners' numbering): the best play's equity with that roll minus the average over all
    rolls, at the network's level, as :func:`analyse` gives it.  ``opening``: the first roll of a game
    (15 non-doubles, which also decide who moves first: see :func:`_roll_equities`)."""
    rolls = _opening_rolls() if opening else list(_ROLLS)
    if not opening and _bearoff_homes(mover, opponent) is not None:      # exact: the databases
        rules = get_variant("backgammon").rules
        length = max(away) if any(away) else 0
        stakes = cubes.Stakes(length, away[0], away[1], crawford, jacoby and not length)
        per_roll = [_bearoff_plays(rules, mover, opponent, r, stakes, cube, owner) for r in rolls]
        best, average = _roll_equities(rolls, per_roll)
        return {r: best[r] - average for r in rolls}
    bg = _bgsage()
    extra = dict(away1=away[0], away2=away[1], is_crawford=crawford) if any(away) else {}
    b = board(mover, opponent)
    res = bg.batch_checker_play([dict(board=b, die1=a, die2=c, cube_value=cube, cube_owner=owner, **extra)
                                 for a, c in rolls], "1ply", n_threads=1, jacoby=jacoby)
    theirs = None
    if opening:
        extra = dict(away1=away[1], away2=away[0], is_crawford=crawford) if any(away) else {}
        theirs = bg.batch_checker_play([dict(board=board(opponent, mover), die1=a, die2=c, cube_value=cube,
                                             cube_owner=owner, **extra) for a, c in rolls], "1ply", n_threads=1,
                                       jacoby=jacoby)
    best, average = _roll_equities(rolls, res, theirs)
    return {r: best[r] - average for r in rolls}


class _Move:
    __slots__ = ("board", "equity", "probs")

    def __init__(self, board, equity: float, probs=None) -> None:
        self.board, self.equity, self.probs = board, equity, probs


class _Probs(NamedTuple):
    win: float
    gammon_win: float
    backgammon_win: float
    gammon_loss: float
    backgammon_loss: float


def _pips(side: Side) -> int:
    return sum((p + 1) * n for p, n in enumerate(side))


def _furthest(side: Side) -> int:
    return max((p + 1 for p, n in enumerate(side) if n), default=0)


def is_race(me: Side, opp: Side) -> bool:
    """No contact: every checker of each side has passed every checker of the other."""
    return _furthest(me) + _furthest(opp) < 25


def _bearoff_homes(me: Side, opp: Side) -> tuple | None:
    """Both sides' home boards when every checker left is home (a bear-off), else None."""
    a, b = bearoff.home(me), bearoff.home(opp)
    return None if a is None or b is None else (a, b)


def _stakes(d: dict, length: int, jacoby: bool, beaver: bool) -> cubes.Stakes:
    """The cube model's stakes of the player on roll of decision ``d``."""
    a, b = d["away"]
    return cubes.Stakes(length, a, b, bool(d["crawford"]), jacoby and not length, beaver and not length)


@lru_cache(maxsize=65536)
def _bearoff_plays(rules, me: Side, opp: Side, roll: tuple[int, int], stakes: cubes.Stakes, cube: int,
                   owner: str, live: bool = True) -> _Plays:
    """Every legal play of ``roll`` in a bear-off, with its exact cubeless outcome (the databases) made
    cubeful by the cube model, best first (``live`` False: a game without a cube, valued cubeless).
    Cached: the same bear-off and roll recur between the rolls of a game and between games."""
    moves = []
    x = cubes.cube_efficiency(True, _pips(opp)) if live else 0.0
    for (m, o), _steps in generate(rules, me, opp, Dice.roll(roll[0], roll[1]).numbers).plays.items():
        eq, probs = _bearoff_after(bearoff.home(m), bearoff.home(o), stakes, cube, owner, x)
        moves.append(_Move(board(m, o), eq, probs))
    moves.sort(key=lambda mv: -mv.equity)
    return _Plays(moves)


@lru_cache(maxsize=262144)
def _bearoff_after(hm: tuple, ho: tuple, stakes: cubes.Stakes, cube: int, owner: str, x: float) -> tuple:
    """The mover's cubeful equity and outcome after a bear-off play that leaves ``hm`` (his home board)
    against ``ho``: the opponent is on roll (the same position follows many rolls and plays)."""
    theirs = bearoff.race_probabilities(ho, hm)
    return cubes.after_move_equity(theirs, stakes, cube, owner, x), _Probs(*cubes.invert(theirs))


class _Plays:
    __slots__ = ("moves",)

    def __init__(self, moves: list) -> None:
        self.moves = moves


_STRATEGY: list = []        # the network's 0-ply strategy of this process, built once

# The best play of every (position, roll, cube state) the network was asked about in this process: its
# board, cubeful equity and probabilities.  Luck needs the best play of each of the 21 rolls of every
# position, --plies 1 the same of every position after a candidate play, and the cube decision at
# --plies 1 the same of the position before the roll: one query serves them all (the position after the
# play made is the next player's position before his roll), and the openings and early positions that
# recur between games and files are asked once.
_BEST: dict = {}
_BEST_MAX = 50_000          # entries (about 1 KB each: 50 MB); the cache is emptied when it grows past this


def _query_key(q: dict, jacoby: bool) -> tuple:
    return (tuple(q["board"]), q["die1"], q["die2"], q["cube_value"], q["cube_owner"], q.get("away1", 0),
            q.get("away2", 0), bool(q.get("is_crawford", False)), jacoby)


def _network_checker_play(bg, queries: list[dict], threads: int, jacoby: bool,
                          full: Sequence[bool] | None = None) -> list:
    """``bg.batch_checker_play(queries, "1ply", ...)``, with only what the analysis reads of each play (its
    board, cubeful equity and probabilities): the engine's C++ batch call made directly, which spares
    building a probabilities object per legal play (half the time of the public call).  The same engine,
    weights, filter and results (tests/test_skill.py compares the two); should a bgsage release change what
    this relies on, the public call is used instead.  ``full``: per query, whether every play is wanted
    (default: all); a query that is not gets its best play only, from the process's cache when it has
    been asked before."""
    want = [True] * len(queries) if full is None else list(full)
    keys = [_query_key(q, jacoby) for q in queries]
    out: list = [None] * len(queries)
    ask: list[int] = []
    asked: dict[tuple, int] = {}
    for i, (k, f) in enumerate(zip(keys, want)):
        if not f and k in _BEST:
            out[i] = _Plays([_BEST[k]])
        elif k in asked and not f:
            continue                                   # the same query asked once (filled below)
        else:
            asked.setdefault(k, i)
            ask.append(i)
    if ask:
        raw = _raw_checker_play(bg, [queries[i] for i in ask], threads, jacoby)
        if len(_BEST) > _BEST_MAX:
            _BEST.clear()
        for i, r in zip(ask, raw):
            if want[i]:
                out[i] = _Plays([_Move(m["board"], m["equity"], m["probs"]) for m in r])
            else:
                out[i] = _Plays([_Move(r[0]["board"], r[0]["equity"], r[0]["probs"])] if r else [])
            if r:
                _BEST[keys[i]] = out[i].moves[0]
    for i, k in enumerate(keys):
        if out[i] is None:                             # a repeat of a query asked in this call
            out[i] = _Plays([_BEST[k]]) if k in _BEST else _Plays([])
    return out


def _raw_checker_play(bg, queries: list[dict], threads: int, jacoby: bool) -> list[list[dict]]:
    """Every play of each query, best first, as dicts with ``board``, ``equity`` and ``probs``."""
    try:
        # (the 'analysis' extra)
        import bgbot_cpp      # (the engine's C++ module, the 'analysis' extra)
        from bgsage.analyzer import resolve_owner
        from bgsage.weights import WeightConfigPair, default_weights

        if not _STRATEGY:
            w = default_weights()
            if isinstance(w, WeightConfigPair):
                paths, hiddens = w.weight_args
                _STRATEGY.append(bgbot_cpp.create_strategy(getattr(w, "strategy_type", "pair"), paths, hiddens))
            else:
                _STRATEGY.append(bgbot_cpp.GamePlanStrategy(*w.weight_args))
        inputs = []
        for q in queries:
            d = dict(q)
            d["cube_owner"] = resolve_owner(d["cube_owner"])
            inputs.append(d)
        return [r["moves"] for r in bgbot_cpp.batch_checker_play(inputs, _STRATEGY[0], 5, 0.08, threads,
                                                                  jacoby=jacoby)]
    except (ImportError, AttributeError, TypeError, KeyError):
        return [[dict(board=m.board, equity=m.equity, probs=_probs(m.probs)) for m in r.moves]
                for r in bg.batch_checker_play(queries, "1ply", n_threads=threads, jacoby=jacoby)]


def _chunks(items: list, n: int):
    for i in range(0, len(items), n):
        yield items[i:i + n]


def _match_fields(d: dict, length: int) -> dict:
    if not length:
        return {}
    return dict(away1=d["away"][0], away2=d["away"][1], is_crawford=d["crawford"])


def _evaluate(bg, rules, path: str, mid: str, length: int, checker: list[dict], cube: list[dict], cfg: Config,
              jacoby: bool, beaver: bool, keep: _Keep | None = None) -> list[tuple]:
    """The decision rows of one file's checker plays and cube decisions, in the order of the record
    (``keep``: what the analysis keeps besides, see :class:`_Keep`)."""
    rows = _checker_rows(bg, rules, path, mid, length, checker, cfg, jacoby, keep)
    if cube:
        rows.extend(_cube_rows(bg, path, mid, length, cube, cfg, jacoby, beaver, keep))
    kind = _COLUMN_INDEX["kind"]
    rows.sort(key=lambda r: (r[2], r[3], _KIND_ORDER[r[kind]]))
    return rows


def _roll_queries(checker: list[dict], length: int) -> tuple[list[dict], list[bool]]:
    """The network's queries of the checker plays: every roll of every position (the luck; an opening
    position also from the opponent's view), and per query whether every play is wanted (the roll made)
    or its best play only; sets each play's ``board`` and ``rolls``."""
    queries: list[dict] = []
    full: list[bool] = []
    for d in checker:
        b = board(d["me"], d["opp"])
        d["board"] = b
        d["bearoff"] = None if d["opening"] else _bearoff_homes(d["me"], d["opp"])
        if d["bearoff"] is not None:          # the databases give them: no query
            d["rolls"] = _ROLLS
            continue
        owner = _owner_name(d["owner"], d["side"])
        extra = _match_fields(d, length)
        rolls = _opening_rolls() if d["opening"] else _ROLLS
        d["rolls"] = rolls
        made = (max(d["dice"]), min(d["dice"]))
        for a, c in rolls:
            queries.append(dict(board=b, die1=a, die2=c, cube_value=d["cube"], cube_owner=owner, **extra))
            full.append((a, c) == made)
        if d["opening"]:         # the opponent's opening rolls from the same position, his view
            theirs = board(d["opp"], d["me"])
            extra = dict(away1=d["away"][1], away2=d["away"][0], is_crawford=d["crawford"]) if length else {}
            for a, c in rolls:
                queries.append(dict(board=theirs, die1=a, die2=c, cube_value=d["cube"], cube_owner=owner, **extra))
                full.append(False)
    return queries, full


def _checker_rows(bg, rules, path: str, mid: str, length: int, checker: list[dict], cfg: Config,
                  jacoby: bool, keep: _Keep | None = None) -> list[tuple]:
    """The rows of the checker plays: every roll of every position at the network level (luck), the
    played roll also at --plies when more than 0."""
    rows: list[tuple] = []
    level = cfg.level
    queries, full = _roll_queries(checker, length)
    results = []
    for part, fpart in zip(_chunks(queries, cfg.batch), _chunks(full, cfg.batch)):
        results.extend(_network_checker_play(bg, part, cfg.threads, jacoby, fpart))
    per_rolls: list = []
    k = 0
    for d in checker:
        n = len(d["rolls"])
        theirs = None
        if d["bearoff"] is not None:       # exact: every roll's plays from the databases
            st = _stakes(d, length, jacoby, False)
            owner = _owner_name(d["owner"], d["side"])
            per_roll = [_bearoff_plays(rules, d["me"], d["opp"], r, st, d["cube"], owner, d["cube_live"])
                        for r in d["rolls"]]
        else:
            per_roll = results[k:k + n]
            k += n
            if d["opening"]:
                theirs = results[k:k + n]
                k += n
        per_rolls.append((per_roll, theirs))
    deep: dict[int, Any] = {}
    if keep is None and cfg.plies == 1:
        deep = _one_ply(bg, checker, per_rolls, length, cfg, jacoby)
    elif (cfg.plies > 0 or keep is not None) and checker:   # (keep: the public call gives the probabilities)
        asked, which = [], []
        for i, d in enumerate(checker):
            if d["bearoff"] is not None:
                continue
            which.append(i)
            asked.append(dict(board=d["board"], die1=d["dice"][0], die2=d["dice"][1], cube_value=d["cube"],
                              cube_owner=_owner_name(d["owner"], d["side"]), **_match_fields(d, length)))
        got = []
        for part in _chunks(asked, cfg.batch):
            got.extend(bg.batch_checker_play(part, level, n_threads=cfg.threads, jacoby=jacoby))
        deep = dict(zip(which, got))
    for i, d in enumerate(checker):
        per_roll, theirs = per_rolls[i]
        best_by_roll, average = _roll_equities(d["rolls"], per_roll, theirs)
        dice = d["dice"]
        roll = (max(dice), min(dice))
        luck = best_by_roll[roll] - average
        res_ = deep.get(i) or per_roll[d["rolls"].index(roll)]
        played_board = board(*d["after"])
        moves = res_.moves
        best = moves[0].equity if moves else math.nan
        played = next((m.equity for m in moves if list(m.board) == played_board), None)
        if played is None and cfg.plies > 1:
            # the play made was left out by the filter at --plies: score it at that level after the move
            pm = bg.batch_post_move_evaluate([dict(board=played_board, cube_value=d["cube"],
                                                   cube_owner=_owner_name(d["owner"], d["side"]),
                                                   **_match_fields(d, length))], level, n_threads=cfg.threads,
                                             jacoby=jacoby)[0]
            played = pm.cubeful_equity
            d["played_probs"] = getattr(pm, "probs", None)
        if played is None:
            played = math.nan        # the replay's position after the turn is not a play of this roll
        n_moves = len(moves)
        forced = n_moves <= 1
        trivial = not forced and all(best - m.equity <= TRIVIAL for m in moves)
        error = max(best - played, 0.0) if played == played else math.nan
        me, opp = d["me"], d["opp"]
        play = _written(d["action"])
        if moves and list(moves[0].board) == played_board:
            best_text = play                 # (spelled as written: no need to find the steps again)
        else:
            best_text = _play_text(rules, me, opp, dice, moves[0].board if moves else None) or play
        rows.append(_row(path, mid, length, d, "checker", f"{roll[0]}{roll[1]}", play, best_text, played, best,
                         error, forced, trivial, not forced, n_moves, luck, average, math.nan, math.nan, math.nan,
                         cfg))
        if keep is not None:
            _keep_checker(keep, rules, d, moves, played_board, rows[-1], cfg)
    return rows


FILTER_KEEP = 5             # --plies 1: the plays searched deeper, the best so many at the network level ...
FILTER_WITHIN = 0.08        # ... within this of the best (bgsage's move filter, as GNU Backgammon's)


def flip(b: Sequence[int]) -> list[int]:
    """The same board from the other player's view (bgsage's layout: see :func:`board`)."""
    return [b[25]] + [-b[25 - i] for i in range(1, 25)] + [b[0]]


def _over(b: Sequence[int]) -> bool:
    """The player of ``b`` (the mover, after his play) has borne off every checker."""
    return b[25] == 0 and not any(x > 0 for x in b[1:25])


def _one_ply(bg, checker: list[dict], per_rolls: list, length: int, cfg: Config, jacoby: bool) -> dict:
    """--plies 1: the plays of the roll made that the network ranks best (:data:`FILTER_KEEP` within
    :data:`FILTER_WITHIN`, and the play made) valued one roll deeper, the rest keeping their network value
    (listed after them, as GNU Backgammon lists the plays of a deeper search); one batched call for the
    plays of the whole file."""
    plan: list[tuple[int, list]] = []
    boards: list[tuple[list[int], dict]] = []
    for i, d in enumerate(checker):
        if d["bearoff"] is not None:
            continue
        per_roll, _theirs = per_rolls[i]
        dice = d["dice"]
        moves = per_roll[d["rolls"].index((max(dice), min(dice)))].moves
        if len(moves) <= 1:
            continue
        top = moves[0].equity
        played_board = board(*d["after"])
        cands = [m for m in moves[:FILTER_KEEP] if top - m.equity <= FILTER_WITHIN]
        if not any(list(m.board) == played_board for m in cands):
            cands += [m for m in moves if list(m.board) == played_board]
        searched = []
        for m in cands:
            if _over(m.board):          # the game ends: the network's value is the result
                searched.append((m, None))
            else:
                searched.append((m, len(boards)))
                boards.append((m.board, d))
        plan.append((i, searched))
    values = _post_move_one_ply(bg, boards, length, cfg, jacoby)
    deep: dict[int, _Plays] = {}
    for i, searched in plan:
        per_roll, _theirs = per_rolls[i]
        dice = checker[i]["dice"]
        moves = per_roll[checker[i]["rolls"].index((max(dice), min(dice)))].moves
        valued = [_Move(m.board, m.equity if at is None else values[at], None) for m, at in searched]
        valued.sort(key=lambda mv: -mv.equity)
        done = {tuple(m.board) for m in valued}
        deep[i] = _Plays(valued + [m for m in moves if tuple(m.board) not in done])
    return deep


_DEEP: list = []            # bgsage's 2-ply ("--plies 1") strategy of this process, built once
_AFTER: dict = {}           # the --plies 1 value of every position after a play asked in this process


def _post_move_one_ply(bg, boards: list[tuple[list[int], dict]], length: int, cfg: Config,
                       jacoby: bool) -> list[float]:
    """The cubeful equity (the mover's view) of each position after a play one roll deeper: bgsage's
    post-move evaluation at its "2ply" (the opponent's 21 rolls, his best reply at the network level)."""
    keys, ask = [], []
    for b, d in boards:
        owner = _owner_name(d["owner"], d["side"])
        extra = (d["cube"], d["away"][0], d["away"][1], bool(d["crawford"])) if length else ()
        k = (tuple(b), owner, *extra, jacoby)
        keys.append(k)
        if k not in _AFTER:
            ask.append((b, owner, extra, k))
    if ask:
        try:
            import bgbot_cpp      # (the engine's C++ module, the 'analysis' extra)
            from bgsage.analyzer import resolve_owner

            _deep_strategy()
            got = []
            for part in _chunks(ask, cfg.batch):
                got.extend(r["cubeful_equity"] for r in bgbot_cpp.batch_evaluate_post_move(
                    [(list(b), resolve_owner(o), *x) if x else (list(b), resolve_owner(o)) for b, o, x, _k in part],
                    _DEEP[0], cfg.threads, jacoby=jacoby and not length))
        except (ImportError, AttributeError, TypeError, KeyError):
            got = []
            for part in _chunks(ask, cfg.batch):
                got.extend(r.cubeful_equity for r in bg.batch_post_move_evaluate(
                    [dict(board=list(b), cube_owner=o, **(dict(cube_value=x[0], away1=x[1], away2=x[2],
                                                               is_crawford=x[3]) if x else {}))
                     for b, o, x, _k in part], cfg.level, n_threads=cfg.threads, jacoby=jacoby))
        if len(_AFTER) > _BEST_MAX:
            _AFTER.clear()
        for (_b, _o, _x, k), v in zip(ask, got):
            _AFTER[k] = float(v)
    return [_AFTER[k] for k in keys]


class _PreRoll(NamedTuple):
    probs: _Probs
    cubeless_equity: float


def _deep_strategy():
    """bgsage's "2ply" strategy (our --plies 1) of this process, built once: its cache keeps the positions
    it evaluated, so the position after a play, valued for the checker play, is not evaluated again for
    the cube decision that follows it (the same position, the other player on roll)."""
    import bgbot_cpp      # (the engine's C++ module, the 'analysis' extra)
    from bgsage.weights import default_weights

    if not _DEEP:
        w = default_weights()
        _DEEP.append(bgbot_cpp.create_multipy(w.strategy_type, w.weight_paths_list, w.hidden_sizes_list,
                                              n_plies=2, filter_max_moves=FILTER_KEEP,
                                              filter_threshold=FILTER_WITHIN, parallel_evaluate=False,
                                              parallel_threads=0))
    return _DEEP[0]


def _pre_roll(bg, asked: list[dict], cfg: Config, jacoby: bool, beaver: bool) -> list:
    """--plies 1 of the cube decisions: bgsage's pre-roll evaluation at its "2ply" (the same as
    ``bg.batch_evaluate(asked, "2ply")``), made with the strategy that valued the plays before them."""
    try:
        import bgbot_cpp      # (the engine's C++ module, the 'analysis' extra)
        from bgsage.analyzer import resolve_owner

        strategy = _deep_strategy()
        match = any(q.get("away1") for q in asked)
        out = []
        for part in _chunks(asked, cfg.batch):
            pos = [(list(q["board"]), q["cube_value"], resolve_owner(q["cube_owner"]),
                    *((q["away1"], q["away2"], q["is_crawford"]) if "away1" in q else ())) for q in part]
            for r in bgbot_cpp.batch_evaluate_positions(pos, strategy, cfg.threads, jacoby=jacoby and not match,
                                                        beaver=beaver and not match):
                out.append(_PreRoll(_Probs(*(float(v) for v in r["probs"])), float(r["cubeless_equity"])))
        return out
    except (ImportError, AttributeError, TypeError, KeyError):
        out = []
        for part in _chunks(asked, cfg.batch):
            out.extend(bg.batch_evaluate(part, cfg.level, n_threads=cfg.threads, jacoby=jacoby, beaver=beaver))
        return out


def _cube_equities(d: dict, e, length: int, jacoby: bool, beaver: bool) -> tuple:
    """No double, double/take, double/pass of cube decision ``d`` by the cube model (:mod:`.cube`) from the
    cubeless outcome of the position: exact from the bear-off databases when every checker is home,
    else the network's (``e``); with the probabilities, the cubeless equity and the stakes."""
    me, opp = d["me"], d["opp"]
    homes = _bearoff_homes(me, opp)
    if homes is not None:
        probs = bearoff.race_probabilities(*homes)
        cubeless = 2 * probs[0] - 1 + probs[1] - probs[3] + probs[2] - probs[4]
    else:
        probs = _probs(e.probs)
        cubeless = float(e.cubeless_equity)
    stakes = _stakes(d, length, jacoby, beaver)
    x = cubes.cube_efficiency(is_race(me, opp), _pips(me))
    nd, dt, dp = cubes.cube_decision(probs, stakes, d["cube"], _owner_name(d["owner"], d["side"]), x)
    return nd, dt, dp, probs, cubeless, stakes


def _cube_rows(bg, path: str, mid: str, length: int, cube: list[dict], cfg: Config, jacoby: bool,
               beaver: bool, keep: _Keep | None = None) -> list[tuple]:
    """The rows of the cube decisions: one pre-roll evaluation each, from the roller's view."""
    rows: list[tuple] = []
    asked = [dict(board=board(d["me"], d["opp"]), cube_value=d["cube"],
                  cube_owner=_owner_name(d["owner"], d["side"]), **_match_fields(d, length)) for d in cube]
    evals: list = []
    if cfg.plies == 1 and keep is None:
        evals = _pre_roll(bg, asked, cfg, jacoby, beaver)
    else:
        for part in _chunks(asked, cfg.batch):
            evals.extend(bg.batch_evaluate(part, cfg.level, n_threads=cfg.threads, jacoby=jacoby, beaver=beaver))
    for d, e in zip(cube, evals):
        nd, dt, dp, probs, cubeless, stakes = _cube_equities(d, e, length, jacoby, beaver)
        if keep is not None:
            _keep_cube(keep, d, (nd, dt, dp, probs, cubeless, stakes), cfg)
        double = min(dt, dp)
        optimal = max(nd, double)
        close = optimal - double < CLOSE_CUBE
        if d["kind"] == "double":
            if nd >= double:
                best = "too good" if nd > dp else "no double"
            else:
                best = "double, take" if dt < dp else "double, pass"
            played = double if d["acted"] == "double" else nd
            error = max(optimal - played, 0.0)
            counted = d["acted"] == "double" or close
            rows.append(_row(path, mid, length, d, "double", "", d["acted"], best, played, optimal, error,
                             False, not counted, counted, 0, 0.0, math.nan, nd, dt, dp, cfg))
        else:
            # the doubled player's view: take = -dt, pass = -dp
            take, drop = -dt, -dp
            best_eq = max(take, drop)
            played = take if d["acted"] == "take" else drop
            rows.append(_row(path, mid, length, d, "take", "", d["acted"], "take" if take >= drop else "pass",
                             played, best_eq, max(best_eq - played, 0.0), False, False, True, 0, 0.0, math.nan,
                             nd, dt, dp, cfg, taker=True))
    return rows


_KIND_ORDER = {"double": 0, "take": 1, "checker": 2}
SPOT_PLAYS = 5               # best plays listed per roll by validate --analyse
SGF_CANDIDATES = 10          # plays listed per roll in an analysed SGF (and the play made, when not among them)


def _probs(p) -> tuple[float, float, float, float, float]:
    return (float(p.win), float(p.gammon_win), float(p.backgammon_win), float(p.gammon_loss),
            float(p.backgammon_loss))


def _keep_checker(keep: _Keep, rules, d: dict, moves: list, played_board: list[int], row: tuple,
                  cfg: Config) -> None:
    """What ``keep`` holds of one roll: the best plays (steps, probabilities, equity) and the play made, as
    GNU Backgammon's move list, and the decision's summary."""
    steps = {tuple(board(m, o)): st
             for (m, o), st in generate(rules, d["me"], d["opp"], Dice.roll(d["dice"][0], d["dice"][1]).numbers).plays.items()}
    r = dict(zip(DECISION_COLUMNS, row))
    idx = next((i for i, m in enumerate(moves) if list(m.board) == played_board), None)
    keep.spots.append(dict(
        game=d["game"], line=d["line"], side=d["side"], kind="checker", dice=r["dice"],
        plays=[dict(play=fmt_steps(steps[tuple(m.board)]) if tuple(m.board) in steps else "?",
                    equity=round(float(m.equity), 6)) for m in moves[:SPOT_PLAYS]],
        played=r["play"], replayed=fmt_steps(steps[tuple(played_board)]) if tuple(played_board) in steps else None,
        rank=None if idx is None else idx + 1, moves=r["moves"], equity_played=_num(r["equity_played"]),
        equity_best=_num(r["equity_best"]), error=_num(r["error"]), grade=r["grade"], luck=_num(r["luck"])))
    if keep.chances:
        probs = getattr(moves[idx], "probs", None) if idx is not None else d.get("played_probs")
        keep.spots[-1].update(move=d["move"], loc=d["loc"], win=None if probs is None else _num(probs.win),
                              mwc=_num(_match_chance(r["length"], r["away"], r["opp_away"], r["crawford"],
                                                     r["cube"], r["equity_played"])))
    if d["loc"] is None or idx is None:
        return
    listed = list(moves[:SGF_CANDIDATES])
    if idx >= SGF_CANDIDATES:
        listed.append(moves[idx])
        idx = len(listed) - 1
    cands = []
    for m in listed:
        st = steps.get(tuple(m.board))
        probs = getattr(m, "probs", None)
        if st is None or probs is None:
            return
        cands.append(Candidate(tuple((s[0], s[1]) for s in st), _probs(probs), float(m.equity)))
    keep.sgf[d["loc"]] = CheckerAnalysis(cands, idx, float(r["luck"]), plies=cfg.plies)


def _num(x: float | None) -> float | None:
    return None if x is None or x != x else round(float(x), 6)


def _match_chance(length: int, away: int, opp_away: int, crawford: bool, cube: int, equity: float) -> float | None:
    """The match-winning chance of a player whose cubeful equity (EMG, normalised to the cube ``cube``) is
    ``equity``: the chance after winning the cube's value and after losing it, weighed (None in money play
    or without an equity)."""
    if not length or equity != equity:
        return None
    stakes = cubes.Stakes(length, away, opp_away, bool(crawford))
    w, l_ = stakes.value(cube), stakes.value(-cube)
    return ((w - l_) * equity + (w + l_)) / 2


def _keep_cube(keep: _Keep, d: dict, ev: tuple, cfg: Config) -> None:
    """What ``keep`` holds of a cube decision: GNU Backgammon's ``DA`` (no double and double/take outputs,
    cubeful equities as match-winning chances in match play, gnubg's form) and the decision's summary."""
    nd, dt, dp, probs, cubeless, stakes = ev
    nd, dt, dp = float(nd), float(dt), float(dp)
    double = min(dt, dp)
    if d["kind"] == "double":
        best = ("too good" if nd > dp else "no double") if nd >= double else \
            "double, take" if dt < dp else "double, pass"
        error = max(max(nd, double) - (double if d["acted"] == "double" else nd), 0.0)
    else:                            # the doubled player's view: take = -dt, pass = -dp
        best = "take" if -dt >= -dp else "pass"
        error = max(max(-dt, -dp) - (-dt if d["acted"] == "take" else -dp), 0.0)
    keep.spots.append(dict(game=d["game"], line=d["line"], side=d["side"] if d["kind"] == "double" else 1 - d["side"],
                           kind=d["kind"], action=d["acted"], best=best, no_double=round(nd, 6),
                           double_take=round(dt, 6), double_pass=round(dp, 6), error=round(error, 6),
                           grade=grade(error, cfg.thresholds)))
    if keep.chances:        # the deciding player's cubeless chance, and his match-winning chances
        flip = d["kind"] == "take"
        win = float(probs[0])
        mwc = None if stakes.money else [
            _match_chance(stakes.length, stakes.away, stakes.opp_away, stakes.crawford, d["cube"], float(e))
            for e in (nd, dt, dp)]
        keep.spots[-1].update(move=d["move"], loc=d["loc"], win=_num(1 - win if flip else win),
                              mwc=None if mwc is None else [_num(1 - m if flip else m) for m in mwc])
    if d["loc"] is None:
        return
    if not stakes.money:             # EMG at the cube -> the match-winning chance
        w, l_ = stakes.value(d["cube"]), stakes.value(-d["cube"])
        nd = ((w - l_) * nd + (w + l_)) / 2
        dt = ((w - l_) * dt + (w + l_)) / 2
    probs = tuple(float(v) for v in probs)
    c = CubeAnalysis((*probs, float(cubeless), nd), (*probs, float(cubeless), dt), cfg.plies)
    old = keep.sgf.get(d["loc"])
    if isinstance(old, CheckerAnalysis):
        keep.sgf[d["loc"]] = replace(old, cube=c)
    else:
        keep.sgf[d["loc"]] = c


def sgf_analysis(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
                 plies: int = 0, threads: int = 0) -> tuple[dict, FileAnalysis]:
    """The analysis of ``match`` in the form the SGF writer takes (``notation.sgf.write(..., analysis=)``):
    per record cell, a :class:`~nardy_analyze.notation.sgf_analysis.CheckerAnalysis` or
    :class:`~nardy_analyze.notation.sgf_analysis.CubeAnalysis`; and the file's analysis (its rows, notes,
    problems).  ``threads``: the engine's threads (0 = every core).  Raises :class:`EngineMissing` without
    bgsage."""
    keep = _Keep()
    res = analyse_match(match, variant, options, Config(plies=plies, threads=threads), keep=keep)
    return keep.sgf, res


def position_analysis(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
                      plies: int = 0, only: set[tuple[int, int]] | None = None, threads: int = 0,
                      chances: bool = False, moves: set[tuple[int, int]] | None = None
                      ) -> tuple[list[dict], FileAnalysis]:
    """A plain summary of each decision of the turns ``only`` (``(game, line)`` pairs; None: every turn):
    checker plays (``kind`` "checker": ``dice``, the best ``plays`` with their equities, the play made
    and the legal play the replay went on from, its rank, equity, error, grade, luck) and cube decisions
    (``kind`` "double" or "take": the action, the no double, double/take and double/pass equities from the
    doubler's view); ``side`` is the player who decides.  ``validate --analyse`` shows them.
    ``chances``: each also with ``move`` (as the decision rows), ``loc`` (the record cell of the action:
    (line, column), or None), and the deciding player's chances after the decision (the HTML replayer's
    chart): ``win``, the cubeless win chance of the play made (of the position, for a cube decision; None
    when unknown), and ``mwc`` in match play, the match-winning chance of the play made (a cube decision:
    those of no double, double/take and double/pass); for long nardy and Gul bara, whose records are
    analysed too then, the evaluator's chances (``mwc`` None).  ``moves``: long nardy and Gul bara records
    analysed (without ``chances`` too) for the turns of these ``(game, move)`` pairs only, each turn's parts
    up to the first illegal one included (``validate --analyse``)."""
    keep = _Keep(only=only, chances=chances, moves=moves)
    res = analyse_match(match, variant, options, Config(plies=plies, threads=threads), keep=keep)
    return keep.spots, res


def _written(action) -> str:
    """The play as the record wrote it (``13/7* 8/7``)."""
    steps = getattr(action, "steps", None)
    if not steps:
        return "(no move)"
    fmt = {25: "bar", 0: "off"}
    return " ".join(f"{fmt.get(st.src, st.src)}/{fmt.get(st.dst, st.dst)}{'*' if st.hit else ''}" for st in steps)


def _play_text(rules, me: Side, opp: Side, dice: tuple[int, int], target: list[int] | None) -> str | None:
    """The engine's best play spelled as steps: the legal play of our rules engine reaching that board."""
    if target is None:
        return None
    for (m, o), steps in generate(rules, me, opp, Dice.roll(dice[0], dice[1]).numbers).plays.items():
        if board(m, o) == list(target):
            return fmt_steps(steps)
    return None


def _row(path, mid, length, d, kind, dice, play, best, played, best_eq, error, forced, trivial, counted, moves,
         luck, average, nd, dt, dp, cfg: Config, taker: bool = False) -> tuple:
    s = d["side"] if not taker else 1 - d["side"]
    names = d["names"]
    away = d["away"] if not taker else (d["away"][1], d["away"][0])
    me, opp = (d["me"], d["opp"]) if not taker else (d["opp"], d["me"])
    owner = _owner_name(d["owner"], s)
    roller = d["side"]
    mid_ = match_id(cube=d["cube"], owner=d["owner"], on_roll=roller, crawford=d["crawford"],
                    turn=s, doubled=kind == "take",
                    dice=(d["dice"][0], d["dice"][1]) if kind == "checker" else (0, 0), length=length,
                    score=tuple(d["score"]), jacoby=False)
    return (path, mid, d["game"], d["turn"], d["move"], d["line"], names[s], names[1 - s], s, length, away[0], away[1],
            d["crawford"], d["cube"], owner, kind, position_id(me, opp), mid_, dice, play, best,
            float(played), float(best_eq), float(error), grade(error, cfg.thresholds) if error == error else "",
            forced, trivial, counted, moves, float(luck), float(average), float(nd), float(dt), float(dp),
            "roll" if kind == "checker" else "")


def analyse_file(entry: Entry, match: Match, variant: str, options: dict[str, Any] | None,
                  cfg: Config) -> FileAnalysis:
    """The per-file work of :func:`analyse` (run by ``analyze.map_records``, in worker processes too)."""
    return analyse_match(match, variant, options, cfg)


# ----------------------------------------------------------------------------------------- runs
@dataclass
class Analysis:
    """Everything a run produced: the decision rows, the game results, and what could not be analysed."""

    decisions: pd.DataFrame = field(default_factory=pd.DataFrame)
    results: pd.DataFrame = field(default_factory=pd.DataFrame)
    files: int = 0
    notes: list[str] = field(default_factory=list)        # records of a variant with no engine
    unreadable: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    arg_errors: list[tuple[str, str]] = field(default_factory=list)
    internal_errors: list[tuple[str, str]] = field(default_factory=list)

    def summary(self, by: str = "player") -> pd.DataFrame:
        return summary(self.decisions, by, self.results)


_GRADES = ["", "doubtful", "bad", "very bad"]


def decision_frame(rows: list[tuple]) -> pd.DataFrame:
    cols = list(DECISION_COLUMNS)
    df = pd.DataFrame.from_records(rows, columns=cols) if rows else pd.DataFrame({c: [] for c in cols})
    for c, (dtype, _meaning) in DECISION_COLUMNS.items():
        if c == "grade":
            df[c] = pd.Categorical(df[c], categories=_GRADES)
        elif c == "kind":
            df[c] = pd.Categorical(df[c], categories=["checker", "double", "take"])
        elif c == "cube_owner":
            df[c] = pd.Categorical(df[c], categories=["centered", "player", "opponent"])
        elif dtype == "category":
            df[c] = df[c].astype(str).astype("category")
        else:
            df[c] = df[c].astype(dtype)
    return df


class NoRecords(ValueError):
    """No game record was found in the inputs."""


def write_decisions(frames: Iterable[pd.DataFrame], fmt: str, fh, color: bool = False,
                    columns: Sequence[str] | None = None, before: Callable[[], None] | None = None) -> int:
    """Write the decision table from its chunks (:func:`decision_frames`), a file at a time: csv, json,
    markdown as the whole table would be written; parquet one row group per file; ``table`` (the main
    columns, aligned) the first :data:`~nardy_analyze.stats.TABLE_ROWS` rows, with a note giving the
    number of rows, once every file is done.  ``before()`` is called before the table is written (to clear
    a progress bar).  Returns the number of rows."""
    total = 0

    def counted():
        nonlocal total
        for df in frames:
            total += len(df)
            yield df

    if fmt != "table":
        write_frames(counted(), fmt, fh, by="decision", color=color, columns=columns)
        return total
    head: list[pd.DataFrame] = []
    kept = 0
    for df in counted():
        if kept < TABLE_ROWS:
            head.append(df.iloc[:TABLE_ROWS - kept])
            kept += len(head[-1])
    shown = head[0] if len(head) == 1 else pd.concat(head, ignore_index=True)
    if before is not None:
        before()
    write_table(shown, "decision", fh, color, None, columns, total)
    return total


def summary(source: pd.DataFrame | Analysis, by: str = "player",
            results: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per player (``by="player"``), per player per match (``"match"``) or per player per game (``"game"``):
    the columns of :data:`SUMMARY_COLUMNS` after the group's keys.  ``source``: a decision frame or an
    :class:`Analysis` (of paths: ``nardy_analyze.statsrun.analyse``).  ``results``: the game
    results (``Analysis.results``) for ``result`` and ``luck_adjusted``; without them those are NaN."""
    if by == "decision":
        return source.decisions if isinstance(source, Analysis) else source
    if by not in _GROUP_KEYS:
        raise ValueError(f"by must be decision, game, match or player, not {by!r}")
    if isinstance(source, Analysis):
        results = source.results if results is None else results
        d = source.decisions
    elif isinstance(source, pd.DataFrame):
        d = source
    else:
        raise TypeError("summary takes a decision frame or an Analysis (of paths: nardy_analyze.statsrun.analyse)")
    keys = _GROUP_KEYS[by]
    if d.empty:
        return pd.DataFrame({c: [] for c in keys + list(SUMMARY_COLUMNS)})
    d = d.copy()
    chk = d["kind"] == "checker"
    cub = ~chk
    # the rolls: checker rows less the further parts of a Gul bara turn (no luck of their own)
    rolled = chk & (d["part"].isin(["roll"]) if "part" in d else True)
    counted = d["counted"]
    err = d["error"].fillna(0.0)
    g = d.assign(
        decisions=1, unforced=counted.astype(int), checker_decisions=chk.astype(int),
        unforced_checker=(chk & counted).astype(int), cube_decisions=(cub & counted).astype(int),
        error=err.where(counted | chk, 0.0), checker_error=err.where(chk, 0.0),
        cube_error=err.where(cub & counted, 0.0),
        doubtful=(d["grade"] == "doubtful").astype(int), bad=(d["grade"] == "bad").astype(int),
        very_bad=(d["grade"] == "very bad").astype(int),
        luck_points=d["luck"] * d["cube"], rolled=rolled.astype(int))
    sums = ["decisions", "unforced", "checker_decisions", "unforced_checker", "cube_decisions", "error",
            "checker_error", "cube_error", "doubtful", "bad", "very_bad", "luck", "luck_points", "rolled"]
    out = g.groupby(keys, observed=True, sort=False)[sums].sum().reset_index()
    # the opponent's luck in the same games: per game, total minus own
    per_game = g.groupby(["path", "game", "player"], observed=True)[["luck", "luck_points"]].sum().reset_index()
    tot = per_game.groupby(["path", "game"], observed=True)[["luck", "luck_points"]].transform("sum")
    per_game["opp_luck"] = tot["luck"] - per_game["luck"]
    per_game["opp_luck_points"] = tot["luck_points"] - per_game["luck_points"]
    if results is not None and not results.empty:
        r = results[["path", "game", "player", "result"]].copy()
        r["path"] = r["path"].astype(str)
        r["player"] = r["player"].astype(str)
        per_game["path"] = per_game["path"].astype(str)
        per_game["player"] = per_game["player"].astype(str)
        per_game = per_game.merge(r, on=["path", "game", "player"], how="left")
    else:
        per_game["result"] = math.nan
    per_game["luck_adjusted"] = per_game["result"] - (per_game["luck_points"] - per_game["opp_luck_points"])
    gk = [k for k in keys if k in ("path", "game", "player")]
    pg = per_game.copy()
    for k in gk:
        pg[k] = pg[k].astype(str)
    agg = pg.groupby(gk, sort=False)[["opp_luck", "result", "luck_adjusted"]].sum(min_count=1).reset_index()
    for k in gk:
        out[k] = out[k].astype(str)
    out = out.merge(agg, on=gk, how="left")

    def rate(num, den):
        return (1000.0 * num / den.where(den > 0)).astype(float)

    out["error_rate"] = rate(out["error"], out["unforced"])
    out["checker_error_rate"] = rate(out["checker_error"], out["unforced_checker"])
    out["cube_error_rate"] = rate(out["cube_error"], out["cube_decisions"])
    out["pr"] = out["error_rate"] / 2.0
    out["luck_rate"] = rate(out["luck"], out["rolled"])
    cols = keys + list(SUMMARY_COLUMNS)
    out = out[cols]
    for c, (dtype, _meaning) in SUMMARY_COLUMNS.items():
        out[c] = out[c].astype(dtype)
    if by == "player":
        out = out.sort_values("unforced", ascending=False, kind="stable").reset_index(drop=True)
    return out


def plot(players_frame: pd.DataFrame, path: str, top: int = 12) -> None:
    """Write a PNG or SVG of the error rate (checker and cube) and the luck rate of the ``top`` players with
    the most unforced decisions."""

    try:
        import matplotlib     # (the 'plot' extra)
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt     # (the 'plot' extra, after the backend is chosen)
    except ImportError:
        raise OptionalDependency(_("--plot needs matplotlib: pip install 'nardy-analyze[plot]'")) from None
    p = players_frame[players_frame["unforced"] > 0].head(top).iloc[::-1]
    if p.empty:
        raise ValueError(_("--plot: no player with an analysed decision to plot"))
    names = [str(x)[:24] for x in p["player"]]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 0.45 * len(p) + 1.8), layout="constrained", sharey=True)
    y = range(len(p))
    # TRANSLATORS: the plot's legend: the error rate of the checker plays, and of the cube decisions
    a.barh([i + 0.2 for i in y], p["checker_error_rate"].fillna(0), height=0.4, label=pgettext("plot legend", "checker"),
           color="#2f5597")
    a.barh([i - 0.2 for i in y], p["cube_error_rate"].fillna(0), height=0.4, label=pgettext("plot legend", "cube"),
           color="#e07b39")
    a.set_yticks(list(y), names)
    a.set_xlabel(_("error rate (mEMG per decision; lower is better)"))
    a.legend(fontsize=8)
    b.barh(list(y), p["luck_rate"].fillna(0), color=["#5a9e4b" if v >= 0 else "#b0413e" for v in p["luck_rate"]])
    b.axvline(0, color="black", lw=0.8)
    b.set_xlabel(_("luck rate (mEMG per roll)"))
    fig.savefig(path)
    plt.close(fig)

"""Walk a record through the rules engine; yield findings (what breaks a rule) and, for a consumer that
asks for them, one typed row per turn (:mod:`nardy_analyze.replay.events`).

The replayer knows the record model and the engine, nothing of notations or output formats.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..notation import snowie
from ..engine import Variant, borne_off, fmt_steps, generate
from ..engine.core import ROLLER, Pos, SegmentSpec, dice_sequence
from ..engine.judge import _physical
from .events import GameEnd, Observer, TurnRow
from ..record import CENTRED, LEVELS, Action, Game, Kind, Loc, Match
from .turns import PLAY_RULES, Part, PartOutcome, quick_turn, walk_turn, written_parts

ERROR = "error"
WARNING = "warning"
# Rules about checker plays: after one of these the replay follows the record, not the rules.
POSITION_RULES = PLAY_RULES

# The SegmentSpec of a roll the replay took on its quick path, by (d1, d2, the rules' turn state): for the
# statistics' observer, which gets one per turn.
_ROLL_SPECS: dict[tuple, SegmentSpec] = {}
_new_row = tuple.__new__            # TurnRow._make without its Python frame


@dataclass(slots=True)
class Finding:
    rule: str
    message: str
    path: str
    line: int
    column: int
    severity: str = ERROR
    game: int | None = None
    move: int | None = None
    player: str | None = None
    side: int | None = None
    # for --explain: the position before the action (mover first) and the legal alternatives
    position: Pos | None = None
    dice: tuple[int, ...] | None = None    # the roll (two dice), or the numbers of a chain/handover part
    alternatives: list[str] = field(default_factory=list)
    board_title: str = ""             # what the position is, for --explain (default: before the play)
    board_side: int | None = None     # whose view the position is drawn from (default: the player's)
    analysis: dict | None = None      # validate --analyse: the engine's analysis of the position (plain data)

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "line": self.line, "column": self.column, "game": self.game,
            "move": self.move, "player": self.player, "rule": self.rule,
            "severity": self.severity, "message": self.message,
        }


@dataclass(slots=True)
class GameReport:
    number: int
    players: tuple[str, str]
    turns: int = 0
    winner: int | None = None
    points: int | None = None
    how: str | None = None            # bearoff, drop, resign, timeout
    crawford: bool = False            # the Crawford game of a match
    # With replay(..., trace=True): the state before and after every action (for writers of other notations)
    states: list["ActionState"] | None = None


@dataclass(slots=True)
class ActionState:
    """What the replay knew around one action: the cube before it, the board before and after it
    (``sides[0]`` / ``sides[1]`` are the first / second player's sides in their own numbering) and,
    for a roll, whether the play was legal."""

    index: int
    cube: int
    owner: int | None
    before: tuple
    after: tuple
    legal: bool = True
    # a roll whose written play is one step per number, legal in the written order (turns.quick_turn):
    # its single-die route is the written steps (normal.py takes it without walking it again)
    exact: bool = False
    # a roll with further parts (Gul bara chains and handovers): one PartState per written part, the
    # roller's own play first, in the order played (None for a turn of one part)
    parts: list["PartState"] | None = None


@dataclass(slots=True)
class PartState:
    """One written part of a turn as the replay played it (``ActionState.parts``): ``kind`` ``"roll"``,
    ``"chain"`` or ``"handover"``, who played it, the numbers it was to play (the dice for the roll), its
    place in the text, and the board before and after it (first player's side first)."""

    kind: str
    player: int
    numbers: tuple[int, ...]
    line: int
    column: int
    text: str
    before: tuple
    after: tuple


@dataclass(slots=True)
class MatchReport:
    path: str
    notation: str
    variant: str
    games: list[GameReport] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    # --rule options that do not apply to the variant this record was judged under (exit code 2)
    arg_errors: list[str] = field(default_factory=list)
    analysis_note: str | None = None  # validate --analyse: why the record's findings have no analysis

    @property
    def errors(self) -> int:
        return sum(f.severity == ERROR for f in self.findings)

    @property
    def warnings(self) -> int:
        return sum(f.severity == WARNING for f in self.findings)

    @property
    def turns(self) -> int:
        return sum(g.turns for g in self.games)


_ON = {k: "on_" + k.value for k in Kind}   # the handler of each kind of action


class _GameReplay:
    """State of one game under replay."""

    def __init__(self, rep: MatchReport, variant: Variant, game: Game, crawford: bool | None, money: bool,
                 need: tuple[int, int] | None = None, start: Pos | None = None,
                 observer: Observer | None = None):
        self.rep, self.v, self.g = rep, variant, game
        self.observer = observer
        self.turn_no = 0
        self.exact = False                   # the roll just replayed took quick_turn with steps (trace only)
        self.roll_spec = None                # the turn driver's first part of the roll being replayed
        self.offer: list | None = None       # statistics: [doubler, line, answer] of the turn being opened
        self.rules = variant.rules
        self.one_part = self.rules.one_part_turns   # turns.quick_turn applies
        self.time_limit = variant.get("time_limit")
        a, b = start or self.rules.initial()
        self.pos = [a, b]
        self.cube, self.owner = 1, None
        self.pending: Action | None = None   # an unanswered double
        self.crawford = crawford             # None: may be the Crawford game or a later one (an excerpt)
        self.money = money
        self.need = need                     # match play: points each side still needs to win the match
        self.rep_score = (0, 0)              # the score at the start of the game (match play)
        self.cube_turned = False
        self.rolls = 0
        self.rolled = [0, 0]                 # rolls played by each side (first turn for the head rule)
        self.resyncs = 0                     # illegal plays after which resync() chose the position
        self.last: Action | None = None      # the previous action
        self.last_roller: int | None = None  # who rolled last: the other side is to roll next
        self.ended: tuple[str, int, int] | None = None   # (how, winner side, points)
        self.declared: tuple[int, int, Action] | None = None  # (winner side, points, cell)
        self.report = GameReport(game.number, game.players)
        self.first_error: int | None = None  # line of the first illegal play: later positions may be off
        self.trace: list[ActionState] | None = None
        self.parts: list[PartState] | None = None   # (trace) the parts of the roll just replayed
        self.how_resigned = "resign"         # how a game ended early: "resign" or "timeout"
        self.timed_out: int | None = None    # the side whose time ran out
        # after a result reported wrong: the other (winner, points) the next score line may reflect, so
        # that one slip gives one finding
        self.slips: list[tuple[int, int]] = []

    # -- helpers -----------------------------------------------------------------------------------
    def name(self, side: int) -> str:
        n = self.g.players[side] if side in (0, 1) else ""
        return n or f"player {side + 1}"

    def find(self, rule: str, msg: str, a: Action | None = None, loc: Loc | None = None,
             severity: str = ERROR, side: int | None = None, **extra) -> None:
        """Report a finding at ``a`` (or ``loc``); ``side`` names another player than the action's (the
        opponent's part of a turn: a handover)."""
        loc = loc or (a.loc if a else self.g.loc)
        if severity == ERROR and rule in POSITION_RULES:
            if self.first_error is not None and self.first_error < loc.line:
                msg += f" (the position may be off since the illegal play at line {self.first_error})"
            elif self.first_error is None:
                self.first_error = loc.line
        who = side if side is not None else (a.player if a else None)
        self.rep.findings.append(Finding(
            rule, msg, self.rep.path, loc.line, loc.column, severity, self.g.number,
            a.move if a else None, self.name(who) if who is not None else None, who, **extra))

    # -- actions -------------------------------------------------------------------------------------
    def run(self, actions: list[Action]) -> None:
        self.actions = actions
        findings = self.rep.findings
        after = None                         # (trace) the position after the previous action
        for i, a in enumerate(actions):
            self.index = i
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if self.ended and a.kind in (Kind.ROLL, Kind.DOUBLE, Kind.TAKE, Kind.BEAVER):
                self.find("result-mismatch", f"{a.text!r} written after the game was already over "
                          f"({self.ended[0]})", a)
                break
            if self.trace is not None:
                pos = self.pos
                before = after if after is not None and after[0] is pos[0] and after[1] is pos[1] \
                    else (pos[0], pos[1])
                cube, n = self.cube, len(findings)
                owner: int | None = self.owner
            if self.time_limit:
                self.check_clock(a, nxt)
            if self.observer is None:
                getattr(self, _ON[a.kind])(a, nxt)
            else:
                self.observed(a, nxt)
            if self.trace is not None:
                legal = len(findings) == n or not any(f.rule in POSITION_RULES for f in findings[n:])
                pos = self.pos
                after = before if before[0] is pos[0] and before[1] is pos[1] else (pos[0], pos[1])
                self.trace.append(ActionState(i, cube, owner, before, after, legal, self.exact, self.parts))
                self.exact = False
                self.parts = None
            self.last = a
            if a.kind == Kind.ROLL:
                self.last_roller = a.player
        self.finish(actions)
        if self.observer is not None:
            self.observed_end()

    # -- rows for statistics (only with an observer) -----------------------------------------------------
    def scored(self) -> int | None:
        """Points the variant's scoring credits the winner: the declared points where the rules accept them;
        otherwise the stake of the game's end on the board, or for a resignation the largest stake the
        position allowed that does not exceed the declared points (else the smallest), in match play at
        most the points the winner needed."""
        r = self.report
        if r.winner is None or r.points is None:
            return None
        w = r.winner
        if self.ended:
            full = self.ended[2]
            if self.credited(r.points, full, w):
                return r.points
        else:
            stakes = sorted({self.stake(k) for k in range(1, self.rules.max_level(self.pos[w], self.pos[1 - w]) + 1)})
            if any(self.credited(r.points, full, w) for full in stakes):
                return r.points
            full = max((x for x in stakes if x <= r.points), default=stakes[0])
        # match play: never more than the winner needed to win the match
        return min(full, self.need[w]) if self.need is not None and self.need[w] > 0 else full

    def observed(self, a: Action, nxt: Action | None) -> None:
        """Handle ``a`` and tell the observer what the turn did, from the positions the replay goes on from."""
        p = a.player
        before = (self.pos[p], self.pos[1 - p])
        self.roll_spec = None
        if a.kind == Kind.ROLL:              # most actions: one call less
            self.on_roll(a, nxt)
            if not a.unplayed:
                dice = a.dice if a.dice is not None and all(1 <= d <= 6 for d in a.dice) else None
                self.emit(p, a.loc.line, (max(dice), min(dice)) if dice else None, a, before, self.roll_spec)
            return
        getattr(self, _ON[a.kind])(a, nxt)
        if a.kind == Kind.DOUBLE:
            if self.offer is not None:
                self.emit(self.offer[0], self.offer[1], None, None)
            self.offer = [p, a.loc.line, ""]
        elif a.kind in (Kind.TAKE, Kind.DROP, Kind.BEAVER) and self.offer is not None and self.offer[0] != p:
            if a.kind == Kind.BEAVER:        # a beaver takes the double (and redoubles at once)
                self.offer[2] = "take"
                return
            self.offer[2] = a.kind.value
            if a.kind == Kind.DROP:
                self.emit(self.offer[0], self.offer[1], None, None)

    def emit(self, p: int, line: int, dice, a: Action | None, before: Pos | None = None, spec=None) -> None:
        offer, self.offer = self.offer, None
        doubled = offer is not None and offer[0] == p
        self.turn_no += 1
        here = (self.pos[p], self.pos[1 - p])
        # TurnRow(...) without the named tuple's Python-level __new__ (what its _make does): one per turn
        self.observer.turn(_new_row(TurnRow, (self.g.number, self.turn_no, p, line, dice, before or here, here,
                                              doubled, offer[2] if doubled else "", self.cube, a, spec)))

    def observed_end(self) -> None:
        if self.offer is not None:           # a double left unanswered at the end of the record
            self.emit(self.offer[0], self.offer[1], None, None)
        r = self.report
        level = None
        if r.how == "bearoff" and r.winner is not None:
            level = self.rules.win_level(self.pos[r.winner], self.pos[1 - r.winner])
        self.observer.game_end(GameEnd(self.g.number, r.winner, self.scored(), r.how, level, self.cube))

    def on_roll(self, a: Action, nxt: Action | None) -> None:
        p = a.player
        if self.pending is not None:
            self.find("cube-response", f"{self.name(self.pending.player)} doubled to {self.pending.value} "
                      f"and the double was neither taken nor dropped", self.pending)
            self.pending = None
        if self.last is not None and self.last.kind == Kind.ROLL and self.last.player == p:
            self.find("parse-error", f"{self.name(p)} rolls twice in a row", a, severity=WARNING)
        if a.unplayed:
            return
        dice = a.dice
        if dice is None or not (0 < dice[0] < 7 and 0 < dice[1] < 7 if len(dice) == 2
                                else all(1 <= d <= 6 for d in dice)):
            self.find("dice-mismatch", f"roll {a.dice_text!r} is not two dice 1-6", a, loc=a.dice_loc)
            # go on from the play as written, where physically possible, as after any illegal play
            for part in written_parts(a):
                s = part.player
                (self.pos[s], self.pos[1 - s]), _ = _physical(self.rules, self.pos[s], self.pos[1 - s], part.steps)
            return
        self.rolls += 1
        self.report.turns += 1
        d1, d2 = (dice[0], dice[1]) if len(dice) == 2 and dice[0] >= dice[1] else (max(dice), min(dice))
        if self.rolls == 1 and d1 == d2 and not self.rules.opening_double_allowed:
            self.find("opening-roll", f"the opening roll is {a.dice_text}, a double; the first play of a game "
                      f"is never a double (equal opening dice are rolled again)", a, loc=a.dice_loc)
        first_turn = self.rolled[p] == 0
        self.rolled[p] += 1
        if a.illegal_mark:
            me, opp = self.pos[p], self.pos[1 - p]
            self.on_illegal_mark(a, p, d1, d2, self.rules.start_turn(me, opp, first_turn, (d1, d2)))
            return
        after = quick_turn(self.rules, self.pos[p], self.pos[1 - p], a, d1, d2, first_turn) \
            if self.one_part and not a.segments else None
        if after is not None:            # plainly legal: what walk_turn would give, without its machinery
            if self.observer is not None:    # the roller's part as the turn driver gives it, for the statistics
                turn = self.rules.start_turn(self.pos[p], self.pos[1 - p], first_turn, (d1, d2))
                key = (d1, d2, turn)
                spec = _ROLL_SPECS.get(key)     # immutable and equal for equal keys: built once
                if spec is None:
                    spec = _ROLL_SPECS[key] = SegmentSpec("roll", ROLLER, dice_sequence(d1, d2), turn)
                self.roll_spec = spec
            self.pos[p], self.pos[1 - p] = after
            self.exact = bool(a.steps)
        else:
            parts = written_parts(a)
            trail = [] if self.trace is not None and a.segments else None
            k = -1                           # the last written part walked so far
            for out in walk_turn(self.rules, self.pos, p, d1, d2, parts, first_turn, self.rolls, self.name):
                if self.roll_spec is None:
                    self.roll_spec = out.spec    # the roller's own part, for the statistics' observer
                if out.part is not None:
                    k = next((i for i, x in enumerate(parts) if x is out.part), len(parts))
                self.on_part(a, nxt, out, (d1, d2), rest=parts[k + 1:])
                if trail is not None and out.part is not None:
                    s, (me, opp), part = out.side, out.before, out.part
                    numbers = tuple(dice) if part.kind == "roll" else \
                        tuple(out.spec.numbers if out.spec is not None else part.dice or ())
                    trail.append(PartState(part.kind, s, numbers, part.loc.line, part.loc.column, part.text,
                                           (me, opp) if s == 0 else (opp, me), tuple(out.after)))
            self.parts = trail
        for w in (p, 1 - p):      # in Gul bara the opponent may bear off its last checker in a handover
            if not self.ended and not sum(self.pos[w]):      # borne_off(...) == 15
                level = self.rules.win_level(self.pos[w], self.pos[1 - w])
                self.ended = ("bearoff", w, self.stake(level))

    def on_part(self, a: Action, nxt: Action | None, out: PartOutcome, dice: tuple[int, int],
                rest: list[Part]) -> None:
        """One part of a turn (see ``turns.walk_turn``): its findings and where the replay goes on.
        ``rest``: the parts written after it in the same turn."""
        side, part, v = out.side, out.part, out.verdict
        me, opp = out.before
        shown = dice if out.spec is not None and out.spec.kind == "roll" else (out.spec.numbers if out.spec else None)
        steps = part.steps if part is not None else []
        if part is None and out.problems and out.spec is not None:
            self.on_missing(a, out, rest)
            return
        for rule, msg in out.problems:
            if part is not None and part.kind == "roll" and rule == "max-dice" and not steps:
                if nxt is not None and nxt.kind in (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT):
                    continue  # a roll left unplayed by the player who resigns (RULES.md 1.10)
                if nxt is None:
                    continue  # the record stops here: an unfinished game, not an unused roll
            fits = ""
            if v is not None and v.playset is not None and rule in POSITION_RULES:
                # the look-ahead may put the replay back on the game's course
                after, fits = self.resync(side, v, steps, rest)
                if fits:
                    msg += f"; the plays that follow fit {fits} instead, and the replay goes on from there"
                    out.after = [after[0], after[1]] if side == 0 else [after[1], after[0]]
                    if not rest:     # otherwise the record's later parts say what was left unused
                        out.used = tuple(d for *_, d in v.playset.plays[after])
            self.find(rule, msg, a, loc=out.loc, side=side, position=(me, opp), dice=shown,
                      alternatives=v.playset.example(6) if v is not None and v.playset is not None else [])
            if fits:
                self.first_error = None   # back on the game's real course

    def on_missing(self, a: Action, out: PartOutcome, rest: list[Part]) -> None:
        """A part of the turn the record leaves out although its player could play some of its numbers (a
        chain double, a handover owed): one finding where the turn stops, and the replay goes on from the
        legal play of those numbers that the parts and rolls written after it fit best (the first in the
        engine's order when several fit as far)."""
        side, spec = out.side, out.spec
        me, opp = out.before
        ps = generate(self.rules, me, opp, spec.numbers, None, spec.turn)
        best, best_n, chosen = None, (-1, -1), ""
        limit = min(self.LOOKAHEAD, self._rest_rolls())
        goal = sum(len(q.steps) for q in rest)
        for pos, path in list(ps.plays.items())[:self.CANDIDATES]:
            # first the parts written after it in the same turn (how many of their steps have a checker
            # and an open point), then the later rolls
            n = (self._rest_steps(side, pos, rest), self._fits(side, pos, rest))
            if n > best_n:
                best, best_n, chosen = pos, n, fmt_steps(path)
                if n >= (goal, limit):
                    break
        for rule, msg in out.problems:
            if best is not None:
                msg += f"; the replay goes on as if {chosen} had been played (the play the record fits best)"
            self.find(rule, msg, a, loc=out.loc, side=side, position=(me, opp), dice=spec.numbers,
                      alternatives=ps.example(6))
        if best is not None:
            out.after = [best[0], best[1]] if side == 0 else [best[1], best[0]]
            out.used = tuple(d for *_, d in ps.plays[best])

    def _rest_steps(self, p: int, pos: Pos, rest: list[Part]) -> int:
        """How many steps of the parts ``rest`` can be made one after the other from ``pos`` (``p``'s side
        first): a checker on the starting point and the landing point not closed."""
        sides = [pos[0], pos[1]] if p == 0 else [pos[1], pos[0]]
        rules, n = self.rules, 0
        for part in rest:
            q = part.player
            me, opp = sides[q], sides[1 - q]
            for src, dst in part.steps:
                idx = 24 if src == 25 else src - 1
                if not (0 <= idx <= 24) or not me[idx] or (dst != 0 and (not 1 <= dst <= 24 or rules.closed(opp, dst))):
                    continue
                me, opp, _ = rules.apply(me, opp, src, dst)
                n += 1
            sides[q], sides[1 - q] = me, opp
        return n

    def on_illegal_mark(self, a: Action, p: int, d1: int, d2: int, turn) -> None:
        """An exporter's mark that the play was illegal and is not given (Snowie ``Illegal play (...)``).
        The mark's position record (``snowie.decode``) gives the board after the refused play: the replay
        goes on from it when it follows from the position before (``snowie.follows``).  Otherwise (no
        record in the mark, or one that does not fit) nothing can be judged and the replay goes on from
        the legal play of the roll that the most following rolls fit."""
        me, opp = self.pos[p], self.pos[1 - p]
        ps = generate(self.rules, me, opp, d1, d2, turn)
        mark = a.illegal_mark
        short = mark if len(mark) <= 40 else mark[:36] + "...)"
        decoded = snowie.decode(mark)
        board = None
        same = False              # the mark shows the board before the play
        if decoded is not None:
            mine = decoded.names[0].strip().lower() != self.name(1 - p).strip().lower() or \
                decoded.names[0].strip().lower() == self.name(p).strip().lower()
            for own, other in snowie.boards(decoded):
                for after in (((own, other), (other, own)) if mine else ((other, own), (own, other))):
                    same = same or after == (me, opp)
                    if snowie.follows(me, opp, after[0], after[1]):
                        board = after
                        break
                if board is not None:
                    break
        if board is not None:
            shown = snowie.describe(me, opp, board[0])
            legal = ps.plays.get(board)
            if legal is not None:
                what = f"shows {shown}, which a legal {d1}{d2} reaches ({fmt_steps(legal)})"
            else:
                what = f"shows {shown}, which no legal {d1}{d2} reaches: the play was illegal"
            self.find("parse-error", f"the record marks this play as refused ({short}) and does not give it; "
                      f"the board in the mark {what}; the replay goes on from that board", a, severity=WARNING,
                      position=(me, opp), dice=(d1, d2), alternatives=ps.example(6))
            best = board
        else:
            rest = self._rest_rolls()         # the most rolls a play could fit
            best, best_n, chosen = None, -1, ""
            for pos, path in list(ps.plays.items())[:self.MARK_CANDIDATES]:
                n = self._fits(p, pos)
                if n > best_n:
                    best, best_n, chosen = pos, n, fmt_steps(path)
                    if n >= min(self.LOOKAHEAD, rest):
                        break
            if best is None:
                best = (me, opp)
            why = ("the position in the mark is the board before the play" if same else
                   "the position in the mark does not follow from the board before the play"
                   if decoded is not None else "the mark holds no position record")
            how = (f"the plays that follow fit {chosen} best ({best_n} of the next {min(self.LOOKAHEAD, rest)} "
                   f"rolls), and the replay goes on from there" if chosen
                   else "the roll has no legal play, and the replay goes on from the position before it")
            self.find("parse-error", f"the record marks this play as illegal ({short}) and does not give "
                      f"it: the play is not judged ({why}); {how}", a, severity=WARNING, position=(me, opp),
                      dice=(d1, d2), alternatives=ps.example(6))
        self.pos[p], self.pos[1 - p] = best
        if borne_off(best[0]) == 15 and not self.ended:
            self.ended = ("bearoff", p, self.stake(self.rules.win_level(best[0], best[1])))

    MARK_CANDIDATES = 400  # legal plays tried after an exporter's "Illegal play" mark (nothing written to sort by)
    LOOKAHEAD = 40         # rolls checked after an illegal play to choose where the replay goes on
    CANDIDATES = 120       # legal plays tried as the real one
    RESYNCS = 10           # illegal plays per game after which the replay just follows the record

    def resync(self, p: int, verdict, steps: list[tuple[int, int]], rest: list[Part] = ()) -> tuple[Pos, str]:
        """Where the replay goes on after an illegal play: the position as recorded, unless the rolls that
        follow are legal from one of the legal plays and not from the recorded position (a step left out
        or mistyped in the transcript).  Among legal plays that fit equally far, the one sharing most
        steps with what was written wins.  Returns (position, the legal play chosen or "")."""
        recorded = verdict.after
        self.resyncs += 1
        if self.resyncs > self.RESYNCS:
            return recorded, ""
        best, best_n = recorded, self._fits(p, recorded, rest)
        limit = self.LOOKAHEAD
        if best_n >= limit:
            # The recorded position fits as far as the lookahead goes.  A step left out can show only
            # later (the checker that was not moved is needed 30 rolls on): look to the end of the game,
            # and keep the recorded position only when the rest of the game fits it.
            limit = self._rest_rolls()
            best_n = self._fits(p, recorded, rest, limit)
            if best_n >= limit:
                return recorded, ""
        written = Counter(steps)

        def overlap(item) -> int:
            return sum((written & Counter((s, d) for s, d, _ in item[1])).values())

        chosen = ""
        # every legal play is ranked by what it shares with the written play before the cut (for a double
        # the real play is often far down the generation order)
        candidates = sorted(verdict.playset.plays.items(), key=overlap, reverse=True)[:self.CANDIDATES]
        for pos, path in candidates:
            n = self._fits(p, pos, rest, limit)
            if n > best_n:
                best, best_n, chosen = pos, n, fmt_steps(path)
                if n >= limit:
                    break
        return best, chosen

    def _rest_rolls(self) -> int:
        """The rolls after the current action up to the end of the game that ``_fits`` can judge."""
        rest = 0
        for b in self.actions[self.index + 1:]:
            if b.kind in (Kind.WIN, Kind.RESIGN, Kind.DROP, Kind.TIMEOUT, Kind.SETUP):
                break
            rest += b.kind == Kind.ROLL and not b.unplayed and b.dice is not None
        return rest

    def _fits(self, p: int, pos: Pos, rest: list[Part] = (), limit: int | None = None) -> int:
        """How many of the next rolls (up to ``limit``, default LOOKAHEAD) are legal turns if ``p``'s play
        left ``pos``.  Each later turn is walked by the same turn function as the replay
        (``turns.walk_turn``).  ``rest``: parts written after this play in the same turn (Gul bara),
        applied as written first."""
        limit = self.LOOKAHEAD if limit is None else limit
        sides = [pos[0], pos[1]] if p == 0 else [pos[1], pos[0]]
        for part in rest:
            q = part.player
            (sides[q], sides[1 - q]), _ = _physical(self.rules, sides[q], sides[1 - q], part.steps)
        n = 0
        rolled = list(self.rolled)
        rolls = self.rolls
        for a in self.actions[self.index + 1:]:
            if a.kind in (Kind.WIN, Kind.RESIGN, Kind.DROP, Kind.TIMEOUT, Kind.SETUP):
                break
            if a.kind != Kind.ROLL or a.unplayed or a.dice is None or not all(1 <= d <= 6 for d in a.dice):
                continue
            q = a.player
            rolls += 1
            first_turn = rolled[q] == 0
            rolled[q] += 1
            d1, d2 = max(a.dice), min(a.dice)
            after = quick_turn(self.rules, sides[q], sides[1 - q], a, d1, d2, first_turn) \
                if self.one_part and not a.segments else None
            if after is not None:
                sides[q], sides[1 - q] = after
            elif not all(out.legal for out in walk_turn(self.rules, sides, q, d1, d2, written_parts(a),
                                                        first_turn, rolls, diagnose=False)):
                break
            n += 1
            if n >= limit:
                break
        return n

    def stake(self, level: int) -> int:
        """Points of a game won at ``level``: the variant's scoring (rules object), the cube."""
        return self.v.stake(level, self.cube, self.cube_turned)

    def check_clock(self, a: Action, nxt: Action | None) -> None:
        """``time-limit``: an action that took longer than the time control allows, unless the record
        declares that player's timeout right there (the timeout itself, or the action just before it)."""
        limit = self.time_limit
        if not limit or a.clock is None or a.clock <= limit or a.kind == Kind.TIMEOUT:
            return
        if nxt is not None and nxt.kind == Kind.TIMEOUT and nxt.player == a.player:
            return
        self.find("time-limit", f"{self.name(a.player)} took {a.clock:g} s over this move; the time control "
                  f"allows {limit:g} s per move and no timeout is declared", a)

    def on_double(self, a: Action, nxt: Action | None) -> None:
        p = a.player
        why = None
        last = self.last
        if (p == 1 and last is not None and last.kind == Kind.ROLL and last.player == p and self.last_roller == p
                and a.move is not None and last.move is not None and a.move > last.move
                and self.pending is None and self.v.cube_in_play and self.could_dance(1 - p)):
            # "  8)                 Doubles => 2": the second player's double on a later move than their
            # last roll, the first player's cell of that move empty while that player is on the bar and
            # could dance: the roll was not written (a dance, typed as nothing), so the double comes
            # before p's roll as usual
            q = 1 - p
            self.find("parse-error", f"{self.name(q)}'s roll of move {a.move} is not written (the cell before "
                      f"the double is empty, and {self.name(q)} has a checker on the bar: a dance?); read as a "
                      f"roll that could not be played, so {self.name(p)} doubles before rolling as usual",
                      a, severity=WARNING)
            self.last_roller = q
            self.last = None
        if not self.v.cube_in_play:
            why = "this game is played without the doubling cube"
        elif self.crawford:
            why = "this is the Crawford game: nobody may double"
        elif self.owner is not None and self.owner != p:
            why = f"{self.name(self.owner)} owns the cube at {self.cube}"
        elif self.pending is not None:
            why = "a double is already waiting for an answer"
        elif self.last is not None and self.last.kind == Kind.ROLL and self.last.player == p:
            why = "a double comes before rolling, not after"
        elif self.last_roller is None:
            why = "nobody may double before the opening roll"
        elif self.last_roller == p:
            why = f"{self.name(1 - p)} is to roll: a player doubles only at the start of their own turn"
        limit = self.v.get("cube_limit")
        if why is None and limit and self.cube * 2 > limit:
            why = f"the cube limit is {limit}"
        if why is None and self.crawford is None:
            self.find("cube-illegal", f"{self.name(p)} doubles to {a.value} in a game that may be the Crawford "
                      f"game: the record starts mid-match at {self.rep_score[0]}-{self.rep_score[1]} and does not "
                      f"say whether the Crawford game was already played; read as a later game, where doubling "
                      f"is allowed", a, severity=WARNING)
        if why:
            self.find("cube-illegal", f"{self.name(p)} doubles to {a.value}: {why}", a)
        elif a.value is not None and a.value != self.cube * 2:
            self.find("cube-illegal", f"{self.name(p)} doubles to {a.value}, but the cube stands at {self.cube}: "
                      f"a double offers {self.cube * 2}", a)
        self.pending = a

    def could_dance(self, s: int) -> bool:
        """Whether ``s`` has a checker on the bar and some roll cannot enter it (nothing can be played)."""
        me, opp = self.pos[s], self.pos[1 - s]
        if not self.rules.has_bar or not me[24]:
            return False
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                turn = self.rules.start_turn(me, opp, False, (d1, d2))
                if generate(self.rules, me, opp, d1, d2, turn).max_dice == 0:
                    return True
        return False

    def _answer(self, a: Action, word: str) -> Action | None:
        d = self.pending
        if d is None or d.player == a.player:
            self.find("cube-response", f"{self.name(a.player)} {word} but no double was offered", a)
            return None
        self.pending = None
        return d

    def on_take(self, a: Action, nxt: Action | None) -> None:
        if self._answer(a, "takes"):
            self.cube *= 2
            self.owner = a.player
            self.cube_turned = True

    def on_drop(self, a: Action, nxt: Action | None) -> None:
        if self.pending is None:
            # Some sites write a resignation as "Drops" with no double before it
            self.find("cube-response", f"{self.name(a.player)} drops but no double was offered: read as a "
                      f"resignation, as some sites write one", a, severity=WARNING)
            self.on_resign(a, nxt)
            return
        d = self._answer(a, "drops")
        if d:
            if not self.ended:
                self.ended = ("drop", d.player, self.v.drop_stake(self.cube, self.cube_turned))

    def on_win(self, a: Action, nxt: Action | None) -> None:
        if self.declared is None:
            pts = a.value if a.value is not None else 0
            self.declared = (self.winner_of(a, pts), pts, a)

    def winner_of(self, a: Action, pts: int) -> int:
        """The side a ``Wins`` cell names.  Its column, unless it says ``and the match`` and only the other
        side's score reaches the match length with these points (some sites write every unnumbered
        ``Wins`` line in the left column)."""
        if a.and_match and self.need is not None:
            reach = [s for s in (0, 1) if pts >= self.need[s]]
            if len(reach) == 1:
                return reach[0]
        return a.player

    def on_resign(self, a: Action, nxt: Action | None) -> None:
        if nxt is not None and nxt.kind == Kind.REJECT and nxt.player != a.player:
            return                  # an offer the opponent rejects: the game goes on (on_reject)
        if self.pending is not None and self.pending.player != a.player:
            self.pending = None     # giving up answers the opponent's double, as a drop does
        if nxt is not None and nxt.kind == Kind.ACCEPT:   # the cell after the acceptance says the result
            nxt = self.actions[self.index + 2] if self.index + 2 < len(self.actions) else None
        if self.declared is None:
            w = 1 - a.player
            if a.level is not None:
                self.check_level(a)
            if nxt is not None and nxt.kind == Kind.WIN:
                # the Wins cell that follows says who won and how much; it may not name the resigning side
                if self.winner_of(nxt, nxt.value or 0) == a.player:
                    self.find("result-mismatch", f"{self.name(a.player)} gives up ({a.text!r}), but the result "
                              f"that follows declares {self.name(a.player)} the winner", nxt)
                return
            pts = a.value
            if pts is None and a.level is not None and self.v.cube_in_play:
                pts = self.stake(a.level)       # "resign gammon": the level's points at this cube
            self.declared = (w, pts, a)         # None: no points written

    # -- set-ups, beavers, answers to a resignation (the record model's SETUP, BEAVER, ACCEPT, REJECT) ------
    def check_level(self, a: Action) -> None:
        """A resignation offer's level (1-3) against the position and its written points."""
        w = 1 - a.player
        top = self.rules.max_level(self.pos[w], self.pos[a.player])
        name = LEVELS.get(a.level, str(a.level))
        if a.level > top:
            self.find("result-mismatch", f"{self.name(a.player)} resigns a {name}, more than can still be lost "
                      f"(at most a {LEVELS.get(top, top)} in this position)", a, **self.final_board(w))
        elif a.value is not None and self.v.cube_in_play and a.value != self.stake(a.level):
            self.find("result-mismatch", f"{self.name(a.player)} resigns a {name} for {a.value} point(s); with the "
                      f"cube at {self.cube} a {name} gives {self.stake(a.level)}", a)

    def on_setup(self, a: Action, nxt: Action | None) -> None:
        """A set-up position (not a play: nothing to judge); the replay goes on from what it sets, with
        ``a.player`` on roll."""
        s = a.setup
        if s is not None and s.checkers is not None:
            mine, theirs = s.checkers
            opp_point = self.rules.opp_point
            both = [p for p in range(1, 25) if mine[p - 1] and theirs[opp_point(p) - 1]]
            if both:
                self.find("parse-error", f"the set-up puts checkers of both players on {self.name(0)}'s point "
                          f"{both[0]} (no position has them): the replay goes on from it as written", a)
            self.pos = [tuple(s.checkers[0]), tuple(s.checkers[1])]
            self.rolls = max(self.rolls, 1)          # past the opening roll and both first turns
            self.rolled = [max(n, 1) for n in self.rolled]
        if s is not None and s.cube is not None:
            self.cube = s.cube
            self.cube_turned = self.cube_turned or s.cube > 1
        if s is not None and s.owner is not None:
            self.owner = None if s.owner == CENTRED else s.owner
        self.last_roller = 1 - a.player

    def on_beaver(self, a: Action, nxt: Action | None) -> None:
        """A beaver (RULES.md 1.8, option ``beaver``, money play): the doubled player takes and at once
        redoubles, keeping the cube; the doubler must take or drop the new value (a raccoon is a beaver of
        a beaver).  Judged as written: a take of the double before it, then a double."""
        p, d = a.player, self.pending
        why = None
        if d is None or d.player == p:
            why = "no double of the opponent is waiting for an answer"
        elif not self.money:
            why = "beavers belong to money play, not to a match"
        elif not self.v.get("beaver"):
            why = 'the beaver rule is off (a "Beaver" tag or --rule beaver=on allows it)'
        if d is not None and d.player != p:
            self.pending = None
            self.cube *= 2
            self.owner = p
            self.cube_turned = True
        if why:
            self.find("cube-illegal", f"{self.name(p)} beavers to {a.value}: {why}", a)
        elif a.value is not None and a.value != self.cube * 2:
            self.find("cube-illegal", f"{self.name(p)} beavers to {a.value}, but the double made the cube "
                      f"{self.cube}: a beaver offers {self.cube * 2}", a)
        self.pending = a

    def _offer(self, a: Action, word: str) -> None:
        r = self.last
        if r is None or r.kind != Kind.RESIGN or r.player == a.player:
            self.find("result-mismatch", f"{self.name(a.player)} {word} a resignation, but the opponent offered "
                      f"none just before", a)

    def on_accept(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "accepts")

    def on_reject(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "rejects")

    def on_timeout(self, a: Action, nxt: Action | None) -> None:
        """The actor ran out of time: the game ends, scored as a resignation (RULES.md 1.7, 1.10; nardy500:
        500).  Points written with the timeout (or on a ``Wins`` cell after it) are checked as a
        resignation's; a timeout with no points gives the lowest resignation."""
        self.how_resigned = "timeout"
        self.timed_out = a.player
        if self.declared is None:
            w = 1 - a.player
            if nxt is not None and nxt.kind == Kind.WIN:
                return
            if a.value is None:
                top = self.rules.max_level(self.pos[w], self.pos[1 - w])
                self.declared = (w, min(self.v.resign_stakes(top, self.cube, self.cube_turned)), a)
            else:
                self.declared = (w, a.value, a)

    # -- end of game ----------------------------------------------------------------------------------
    def final_board(self, w: int) -> dict:
        """--explain data for a result finding: the final position from the side of ``w``."""
        return {"position": (self.pos[w], self.pos[1 - w]), "board_side": w,
                "board_title": f"final position, cube {self.cube}"
                               + (f" owned by {self.name(self.owner)}" if self.owner is not None else "")}

    def finish(self, actions: list[Action]) -> None:
        if self.pending is not None and not self.ended:
            self.find("cube-response", f"{self.name(self.pending.player)} doubled to {self.pending.value} "
                      f"and the double was neither taken nor dropped", self.pending)
        decl, ended = self.declared, self.ended
        last = actions[-1] if actions else None
        if decl is None:
            if ended:
                how, w, pts = ended
                self.set_result(w, pts, how)
                if not self.g.broken:
                    self.find("result-mismatch", f"the game ended ({how}: {self.name(w)} wins {pts}) "
                              f"but no result is written", last, severity=WARNING)
            elif actions and not self.g.broken:
                self.find("result-mismatch", "the game ends without a result (unfinished record?)", last,
                          severity=WARNING)
            return
        w, pts, cell = decl
        if pts is None and ended:
            pts = ended[2]                     # gave up after the game was over: the game's result
        if pts is None:
            # "Resigns" / "Concedes" with no points and no "Wins" after it: the record does not say what
            # was resigned; the next score line is trusted
            self.find("result-mismatch", f"{self.name(1 - w)} gives up ({cell.text!r}) and no points are written; "
                      f"the next game's score line is taken as it is", cell, severity=WARNING)
            self.set_result(w, None, "resign")
            return
        if ended:
            how, ew, epts = ended
            if w != ew:
                self.find("result-mismatch", f"{self.name(w)} is declared the winner, but {self.name(ew)} "
                          f"won ({how})", cell, **self.final_board(ew))
                self.slips = [(w, pts), (ew, epts)]
            elif not self.credited(pts, epts, w):
                self.find("result-mismatch", f"declared {pts} point(s); {self._explain_stake(how, ew)} "
                          f"gives {epts}", cell, **self.final_board(ew))
                self.slips = [(ew, epts)]
            self.set_result(ew, pts, how)
            return
        if cell.kind == Kind.WIN and self.last_roller == w and self.timed_out is None:
            sure = self.sure_bear_off(1 - w)
            if sure:
                # "Wins 2 points" in the column of the player who cannot have won: the opponent is on roll
                # and bears off the last checkers with any roll
                o = 1 - w
                full = self.stake(self.rules.win_level(tuple([0] * 25), self.pos[w]))
                self.find("result-mismatch", f"{self.name(w)} is declared the winner, but {self.name(o)} is on "
                          f"roll with {sure} and bears off with any roll: {self.name(o)} must have won (the "
                          f"result is written in the wrong column?)", cell, **self.final_board(o))
                self.slips = [(w, pts), (o, full)]
                self.set_result(o, pts, "bearoff")
                return
        # A resignation (or a timeout): the points must be a level the loser could still lose.
        loser = 1 - w
        win_side, lose_side = self.pos[w], self.pos[loser]
        top = self.rules.max_level(win_side, lose_side)
        levels = self.v.resign_stakes(top, self.cube, self.cube_turned)
        how = self.how_resigned
        if self.timed_out == w:
            self.find("result-mismatch", f"{self.name(w)} is declared the winner, but ran out of time "
                      f"(a timeout loses the game)", cell, **self.final_board(w))
            w = 1 - w
        elif not any(self.credited(pts, full, w) for full in levels):
            allowed = ", ".join(str(x) for x in sorted(levels))
            if cell.and_match and self.need is not None and pts == self.need[w] > max(levels):
                # Sites let a player resign the whole match: the winner is credited what they needed.
                self.find("result-mismatch", f"the match was conceded: {pts} point(s) credited, more than a "
                          f"resignation of this game gives ({allowed} with the cube at {self.cube})", cell,
                          severity=WARNING, **self.final_board(w))
            else:
                what = "a timeout" if how == "timeout" else "a resignation"
                where = (f"with the cube at {self.cube} and the position on the board" if self.v.cube_in_play
                         else "with the position on the board and this scoring")
                self.find("result-mismatch", f"declared {pts} point(s) for {what}; {where} the possible "
                          f"results are {allowed}", cell, **self.final_board(w))
                self.slips = [(w, x) for x in sorted(levels)]
        self.set_result(w, pts, how)

    def sure_bear_off(self, s: int) -> str:
        """How ``s``'s last checkers stand ("one checker on the 1-point") when ``s``, on roll, bears them all
        off with every roll; "" otherwise (or when more than four checkers are left)."""
        me, opp = self.pos[s], self.pos[1 - s]
        left = sum(me)
        if not 0 < left <= 4 or me[24]:
            return ""
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                turn = self.rules.start_turn(me, opp, False, (d1, d2))
                if not any(not sum(p[0]) for p in generate(self.rules, me, opp, d1, d2, turn).plays):
                    return ""
        where = [f"{n} on the {i + 1}-point" for i, n in enumerate(me[:24]) if n]
        return ("one checker on the 1-point" if where == ["1 on the 1-point"]
                else f"{left} checkers left ({', '.join(where)})")

    def possible_results(self) -> list[tuple[int, int]]:
        """(winner, points) of every way the game could still end from here: a resignation at any level
        the position allows (or its win), or a double dropped."""
        out = set()
        for w in (0, 1):
            top = self.rules.max_level(self.pos[w], self.pos[1 - w])
            out.update((w, x) for x in self.v.resign_stakes(top, self.cube, self.cube_turned))
            if self.v.cube_in_play:
                out.add((w, self.v.drop_stake(self.cube, self.cube_turned)))
        return sorted(out)

    def credited(self, declared: int, full: int, w: int) -> bool:
        """Declared points agree with the full result.  In match play, when the win ends the match, records
        may write instead the points the winner needed (``Wins 3 point and the match`` for a gammon at
        cube 2 from 2-away) or the match length (BackgammonGalaxy writes ``Wins 3 point and the match`` in
        a 3-point match whatever the score; other exporters ``Wins 9 point and the match`` at 7-7 of a
        9-point match with cube 2, a game worth 2).  See docs/rules.md."""
        if declared == full:
            return True
        if self.need is None or full < self.need[w]:
            return False
        length = self.need[w] + self.rep_score[w]
        return declared == length or (declared == self.need[w] and declared < full)

    def _explain_stake(self, how: str, w: int) -> str:
        if how == "drop":
            return f"a dropped double at cube {self.cube}"
        level = self.rules.win_level(self.pos[w], self.pos[1 - w])
        name = self.v.level_name(level)
        return f"{name} at cube {self.cube}" if self.v.cube_in_play else name

    def set_result(self, w: int, pts: int | None, how: str) -> None:
        r = self.report
        r.winner, r.points, r.how = w, pts, how


def _plus(score: list[int], result: tuple[int, int]) -> list[int]:
    out = list(score)
    out[result[0]] += result[1]
    return out


def match_name(game: Game, side: int) -> str:
    n = game.players[side] if side in (0, 1) else ""
    return n or f"player {side + 1}"


_YES = {"on", "yes", "true", "1"}
_NO = {"off", "no", "false", "0"}


def _crawford_tag(match: Match) -> bool | None:
    """Whether the first game of an excerpt is the Crawford game, when a header tag says so
    (``CrawfordGame "Yes"/"No"``, ``PostCrawford "Yes"``); None when no tag settles it."""
    v = (match.tag("CrawfordGame") or "").strip().lower()
    if v in _YES or v in _NO:
        return v in _YES
    if (match.tag("PostCrawford") or "").strip().lower() in _YES:
        return False
    return None


def replay(match: Match, variant: Variant, start: Pos | None = None, trace: bool = False,
           observer: Observer | None = None) -> MatchReport:
    """Replay every game of ``match``; parse problems become ``parse-error`` findings.

    ``start``: the position every game starts from (first player's side, second player's side), for
    records of a game from a set-up position (library use, tests); default the variant's initial one.
    With ``trace``, every GameReport keeps the state around each action (``GameReport.states``).

    ``observer`` (for statistics): its ``turn`` gets one :class:`TurnRow` per turn and its ``game_end`` one
    :class:`GameEnd` per game; without one nothing of them is built."""
    rep = MatchReport(match.path, match.notation, variant.name)
    for pr in match.problems:
        rep.findings.append(Finding("parse-error", pr.message, match.path, pr.loc.line, pr.loc.column,
                                    WARNING if pr.warning else ERROR, game=pr.game))
    length = match.match_length or 0
    crawford_rule = variant.get("crawford", False) and length > 0
    crawford_done = False
    score = [0, 0]
    unknown = False          # the previous game broke off (unreadable text) before its result
    crawford_unknown = False  # an excerpt's first game, which may or may not be the Crawford game
    slips: list[tuple[int, int]] = []      # other results the previous game's score may reflect (reported)
    open_ends: list[tuple[int, int]] = []  # the results an unfinished previous game could still have had
    before = [0, 0]                        # the score at the start of the previous game
    prev: Game | None = None
    for game in match.games:
        for pr in game.problems:
            rep.findings.append(Finding("parse-error", pr.message, match.path, pr.loc.line, pr.loc.column,
                                        game=game.number))
        after_match = length > 0 and max(score) >= length
        label = f"Game {game.written_number}" if game.written_number is not None else f"game {game.number}"
        missing = ""              # the game numbers the file leaves out before this game
        if prev is not None and prev.written_number is not None and game.written_number is not None \
                and game.written_number > prev.written_number + 1:
            a, b = prev.written_number + 1, game.written_number - 1
            missing = f"game {a} is" if a == b else f"games {a}-{b} are"
        if game.score is not None and missing:
            loc = game.score_loc or game.loc
            went_down = any(game.score[i] < score[i] for i in (0, 1))
            if not went_down:
                rep.findings.append(Finding(
                    "match-score", f"{label} follows Game {prev.written_number}: {missing} not in the file (an "
                    f"excerpt); the score line {game.score[0]}-{game.score[1]} is taken as written "
                    f"(the earlier results give {score[0]}-{score[1]})", match.path, loc.line, loc.column,
                    WARNING, game.number))
                score = list(game.score)
        if game.score is not None:
            explained = [r for r in slips if _plus(before, r) == list(game.score)]
            ends = [r for r in open_ends if _plus(score, r) == list(game.score)]
            if list(game.score) != score and explained:
                score = list(game.score)       # the previous game's result was reported wrong already
            elif list(game.score) != score and ends and not after_match:
                w, pts = ends[0]
                loc = game.score_loc or game.loc
                rep.findings.append(Finding(
                    "match-score", f"the previous game has no written result; the score line "
                    f"{game.score[0]}-{game.score[1]} of {label} is explained by {match_name(game, w)} winning "
                    f"{pts} point(s) there (a result the position allowed), and is taken as written",
                    match.path, loc.line, loc.column, WARNING, game.number))
                score = list(game.score)
            if after_match:
                rep.findings.append(Finding(
                    "match-score", f"{label} follows the end of the {length}-point match "
                    f"(score {score[0]}-{score[1]})", match.path, (game.score_loc or game.loc).line,
                    (game.score_loc or game.loc).column, WARNING, game.number))
            elif game is match.games[0] and list(game.score) != score and max(game.score) < (length or 1 << 30):
                # one game (or more) exported from a longer match: the record starts at this score
                loc = game.score_loc or game.loc
                rep.findings.append(Finding(
                    "match-score", f"the record starts at {game.score[0]}-{game.score[1]}, not 0-0: an excerpt "
                    f"of a longer match; later games are checked from this score", match.path, loc.line,
                    loc.column, WARNING, game.number))
                if crawford_rule and game.score[0] == game.score[1] == length - 1:
                    crawford_done = True      # both at match length - 1: the Crawford game is past
                elif crawford_rule and length - 1 in game.score:
                    settled = _crawford_tag(match)
                    if settled is None:
                        crawford_unknown = True
                    else:
                        crawford_done = not settled
            elif list(game.score) != score and not unknown:
                loc = game.score_loc or game.loc
                rep.findings.append(Finding(
                    "match-score", f"{label}: the score line says {game.score[0]}-{game.score[1]}; the earlier "
                    f"results give {score[0]}-{score[1]}", match.path, loc.line, loc.column, ERROR, game.number))
            score = list(game.score)
        is_crawford: bool | None = False
        if crawford_unknown:      # after it, every game is past the Crawford game
            is_crawford, crawford_done, crawford_unknown = None, True, False
        elif crawford_rule and not crawford_done and not after_match and length - 1 in score:
            is_crawford = crawford_done = True
        need = (length - score[0], length - score[1]) if length > 0 else None
        gr = _GameReplay(rep, variant, game, is_crawford, money=length == 0, need=need, start=start,
                         observer=observer)
        gr.rep_score = (score[0], score[1])
        gr.report.crawford = is_crawford
        if trace:
            gr.trace = gr.report.states = []
        actions = game.actions
        if game.problems:   # replay a broken game only up to the unreadable text
            first_bad = min(p.loc.line for p in game.problems)
            actions = [a for a in actions if a.loc.line < first_bad]
        gr.run(actions)
        rep.games.append(gr.report)
        before = list(score)
        slips = gr.slips
        open_ends = gr.possible_results() if gr.report.winner is None and actions and not game.broken else []
        prev = game
        if gr.report.winner is not None and gr.report.points is not None:
            score[gr.report.winner] += gr.report.points
        # the previous game's points are unknown (unreadable text, or a resignation with no points written)
        unknown = gr.report.points is None and (game.broken or gr.report.winner is not None)
    if length > 0 and match.games and max(score) < length and not unknown and rep.games[-1].winner is not None:
        # every game complete, and nobody has won the match: the record may be unfinished or cut short
        # (a game cut short already has its own warning, result-mismatch)
        last = match.games[-1]
        loc = last.actions[-1].loc if last.actions else last.loc
        rep.findings.append(Finding(
            "match-score", f"the record ends at {score[0]}-{score[1]}, before either player reaches the "
            f"{length}-point match: an unfinished or cut short match?", match.path, loc.line, loc.column,
            WARNING, last.number))
    return rep

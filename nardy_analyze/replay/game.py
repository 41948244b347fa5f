"""One game under replay: its state and the walk through its actions.

:class:`GameReplay` holds what the game's replay knows (the board, the cube, whose turn it is, the
result declared or reached) and dispatches each action of the record to its handler.  The handlers live
in the modules of their concern, as mixins of this one class: the checker plays here, the cube
(:mod:`.cube`), results (:mod:`.results`), the way back onto the game's course after an illegal play
(:mod:`.resync`), what the replay tells its visitor beyond findings (:mod:`.telling`: action states and
turn rows) and the clock (:mod:`.clock`, a separate object).
"""
from __future__ import annotations

from bisect import bisect_left
from typing import Callable
from weakref import ref

from ..engine import Variant, fmt_steps, generate
from ..engine.judge import physical
from ..engine.core import Pos
from ..record import CENTRED, Action, Game, Kind, Loc
from . import draw
from .clock import Clock
from .cube import CubeActions
from .model import ERROR, POSITION_RULES, WARNING, Finding, GameReport, MatchReport, how_text, player_text
from ..i18n import _
from .results import Results
from .resync import Resync
from ..notation.normal import ActionState
from .telling import HANDLER, ROLL_SPECS, Telling, roll_spec
from .turns import Part, PartOutcome, quick_turn, walk_turn, written_parts

_AFTER_END = (Kind.ROLL, Kind.DOUBLE, Kind.TAKE, Kind.BEAVER)   # actions that cannot follow the game's end


class GameReplay(CubeActions, Results, Resync, Telling):
    """State of one game under replay.

    ``tell_finding`` gets every finding (the match report and the visitor); ``tell_state``,
    ``tell_turn`` and ``tell_end`` are the visitor's ``action_state``, ``turn`` and ``game_end`` where it
    overrides them, else None (nothing of them is built)."""

    def __init__(self, rep: MatchReport, variant: Variant, game: Game, crawford: bool | None, money: bool,
                 need: tuple[int, int] | None = None, start: Pos | None = None,
                 tell_finding: Callable[[Finding], None] | None = None, tell_state: Callable | None = None,
                 tell_turn: Callable | None = None, tell_end: Callable | None = None, number: int | None = None):
        self.rep, self.v, self.g = rep, variant, game
        # the game's number in findings and reports (record.game_numbers; default: the order in the file)
        self.number = game.number if number is None else number
        self.tell_finding = tell_finding or rep.findings.append
        self.tell_state, self.tell_turn, self.tell_end = tell_state, tell_turn, tell_end
        self.turn_no = 0
        self.exact = False                   # the roll just replayed took quick_turn with steps (states only)
        self.roll_spec = None                # the turn driver's first part of the roll being replayed
        self.offer: list | None = None       # statistics: [doubler, line, answer] of the turn being opened
        self.rules = variant.rules
        self.one_part = self.rules.one_part_turns   # turns.quick_turn applies
        # the clock reports through this replay, held weakly: no reference cycle, so that the replay, its
        # game and its actions are freed when the game is done, not left to the garbage collector (the
        # cycles of every game cost the command line ~10 % of validate's time)
        me = ref(self)
        self.clock = Clock(variant, lambda *args, **kw: me().find(*args, **kw), lambda side: me().name(side))
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
        self.roll_at: list[int] = []         # the index in the game's actions of each roll counted (1, 2, ...)
        self.found: list[tuple[Finding, Action]] = []   # findings at an action: their move, set at the end
        self.rolled = [0, 0]                 # rolls played by each side (first turn for the head rule)
        self.resyncs = 0                     # illegal plays after which resync() chose the position
        self.last: Action | None = None      # the previous action
        self.last_roller: int | None = None  # who rolled last: the other side is to roll next
        self.ended: tuple[str, int, int] | None = None   # (how, winner side, points)
        self.declared: tuple[int, int, Action] | None = None  # (winner side, points, cell)
        self.report = GameReport(self.number, game.players)
        self.first_error: int | None = None  # line of the first illegal play: later positions may be off
        self.parts: list | None = None       # (states) the parts of the roll just replayed
        self.part_no: int | None = None      # the part of the turn being judged (K of move M.K; 0: the roll's own)
        self.how_resigned = "resign"         # how a game ended early: "resign" or "timeout"
        # the last-roll draw (option last_roll): the first roller of the game, the (winner, stake) of a game
        # whose last roll is still owed to the other player, the draw cell written
        self.last_roll = bool(variant.get("last_roll", False))
        self.first_roller: int | None = None
        self.owed: tuple[int, int] | None = None
        self.draw_cell: Action | None = None
        # after a result reported wrong: the other (winner, points) the next score line may reflect, so
        # that one slip gives one finding
        self.slips: list[tuple[int, int]] = []
        self.conceded = False                # the whole match conceded (Results.resigned): credited as written
        self.actions: list[Action] = []
        self.index = 0

    # -- helpers -----------------------------------------------------------------------------------
    def name(self, side: int) -> str:
        """The player ``side`` for messages (in the current language when the record names nobody)."""
        n = self.g.players[side] if side in (0, 1) else ""
        return n or player_text(side)

    def player_field(self, side: int) -> str:
        """The player ``side`` as a finding's ``player`` (data: always the English "player N" when the
        record names nobody)."""
        n = self.g.players[side] if side in (0, 1) else ""
        return n or f"player {side + 1}"

    def find(self, rule: str, msg: str, a: Action | None = None, loc: Loc | None = None,
             severity: str = ERROR, side: int | None = None, **extra) -> None:
        """Report a finding at ``a`` (or ``loc``); ``side`` names another player than the action's (the
        opponent's part of a turn: a handover)."""
        loc = loc or (a.loc if a else self.g.loc)
        if severity == ERROR and rule in POSITION_RULES:
            if self.first_error is not None and self.first_error < loc.line:
                msg += " " + _("(the position may be off since the illegal play at line {line})").format(
                    line=self.first_error)
            elif self.first_error is None:
                self.first_error = loc.line
        who = side if side is not None else (a.player if a else None)
        f = Finding(rule, msg, self.rep.path, loc.line, loc.column, severity, self.number, None,
                    self.player_field(who) if who is not None else None, who, row=a.move if a else None,
                    cube=self.cube, owner=self.owner, part=self.part_no or None, **extra)
        if a is not None:
            self.found.append((f, a))
        self.tell_finding(f)

    def number_moves(self) -> None:
        """Each finding's ``move``: the roll whose position it is about, counted as ``show --move`` and the
        replayer count (1 = the game's opening roll): its own roll, else the next roll after its action
        (a double or a take: the roll the cube was turned before); None after the last roll (the game's
        final position, ``show --game G`` without ``--move``)."""
        if not self.found:
            return
        where = {id(a): i for i, a in enumerate(self.actions)}
        roll_at = self.roll_at
        for f, a in self.found:
            i = where.get(id(a))
            if i is None:
                continue
            k = bisect_left(roll_at, i)
            f.move = k + 1 if k < len(roll_at) else None
        self.found = []

    # -- actions -------------------------------------------------------------------------------------
    def run(self, actions: list[Action]) -> None:
        """Replay ``actions`` (the game's, up to any unreadable text), then settle the result."""
        self.actions = actions
        clock = self.clock if self.clock.checks else None
        tell_state = self.tell_state
        rows = self.tell_turn is not None
        findings = self.rep.findings
        after = None                         # (states) the board after the previous action: its tuple is reused
        for i, a in enumerate(actions):
            self.index = i
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if self.ended and a.kind in _AFTER_END:
                # TRANSLATORS: {text}: the record's cell, quoted; {how}: how the game ended
                self.find("result-mismatch", _("{text} written after the game was already over ({how})").format(
                    text=repr(a.text), how=how_text(self.ended[0])), a)
                break
            if tell_state is not None:       # (inline: once per action) what the state needs from before
                pos = self.pos
                before = after if after is not None and after[0] is pos[0] and after[1] is pos[1] \
                    else (pos[0], pos[1])
                cube, owner, n = self.cube, self.owner, len(findings)
            if clock is not None:
                clock.check(a, nxt)
            if rows:
                self.observed(a, nxt)
            else:
                getattr(self, HANDLER[a.kind])(a, nxt)
            if tell_state is not None:
                legal = len(findings) == n or not any(f.rule in POSITION_RULES for f in findings[n:])
                pos = self.pos
                after = before if before[0] is pos[0] and before[1] is pos[1] else (pos[0], pos[1])
                roll_at = self.roll_at
                tell_state(ActionState(i, cube, owner, before, after, legal, self.exact, self.parts,
                                       len(roll_at) if roll_at and roll_at[-1] == i else None))
                self.exact = False
                self.parts = None
            self.last = a
            if a.kind == Kind.ROLL:
                self.last_roller = a.player
        self.finish(actions)
        self.number_moves()
        self.tell_game_end()

    def on_roll(self, a: Action, nxt: Action | None) -> None:
        p = a.player
        last_roll = self.owed is not None and self.owed[0] != p
        if self.owed is not None and not last_roll:
            draw.settle_owed(self)
            self.find("result-mismatch", _("{text} written after the game was already over (only {player}'s "
                                           "last roll may follow)").format(text=repr(a.text),
                                                                           player=self.name(1 - p)), a)
            return
        if self.pending is not None:
            self.find("cube-response", _("{player} doubled to {value} and the double was neither taken nor "
                                         "dropped").format(player=self.name(self.pending.player),
                                                           value=self.pending.value), self.pending)
            self.pending = None
        if self.last is not None and self.last.kind == Kind.ROLL and self.last.player == p:
            self.find("parse-error", _("{player} rolls twice in a row").format(player=self.name(p)), a,
                      severity=WARNING)
        if a.unplayed:
            return
        dice = a.dice
        if dice is None or not (0 < dice[0] < 7 and 0 < dice[1] < 7 if len(dice) == 2
                                else all(1 <= d <= 6 for d in dice)):
            self.bad_dice(a)
            return
        self.rolls += 1
        self.roll_at.append(self.index)
        if self.first_roller is None:        # the game's first roll replayed (after a set-up too)
            self.first_roller = p
        self.report.turns += 1
        d1, d2 = (dice[0], dice[1]) if len(dice) == 2 and dice[0] >= dice[1] else (max(dice), min(dice))
        if self.rolls == 1 and d1 == d2 and not self.rules.opening_double_allowed:
            self.find("opening-roll", _("the opening roll is {dice}, a double; the first play of a game is never "
                                        "a double (equal opening dice are rolled again)").format(dice=a.dice_text),
                      a, loc=a.dice_loc)
        first_turn = self.rolled[p] == 0
        self.rolled[p] += 1
        if a.illegal_mark:
            me, opp = self.pos[p], self.pos[1 - p]
            self.on_illegal_mark(a, p, d1, d2, self.rules.start_turn(me, opp, first_turn, (d1, d2)))
            return
        if last_roll:
            draw.play_last_roll(self, a, p, d1, d2)
            return
        after = quick_turn(self.rules, self.pos[p], self.pos[1 - p], a, d1, d2, first_turn, self.rolls) \
            if not a.segments else None
        if after is not None:            # plainly legal: what walk_turn would give, without its machinery
            if self.tell_turn is not None:   # the roller's part as the turn driver gives it, for the rows
                turn = self.rules.start_turn(self.pos[p], self.pos[1 - p], first_turn, (d1, d2))
                spec = ROLL_SPECS.get((d1, d2, turn))     # immutable and equal for equal keys: built once
                self.roll_spec = spec if spec is not None else roll_spec(d1, d2, turn)
            self.pos[p], self.pos[1 - p] = after
            self.exact = bool(a.steps)
        else:
            self.walk(a, nxt, p, d1, d2, first_turn)
        for w in (p, 1 - p):      # in Gul bara the opponent may bear off its last checker in a handover
            if not self.ended and not self.owed and not sum(self.pos[w]):      # borne_off(...) == 15
                level = self.rules.win_level(self.pos[w], self.pos[1 - w])
                if draw.owes_last_roll(self, w):
                    self.owed = (w, self.stake(level))
                else:
                    self.ended = ("bearoff", w, self.stake(level))

    def bad_dice(self, a: Action) -> None:
        """A roll that is not two dice 1-6: one finding, and the replay goes on from the play as written,
        where physically possible, as after any illegal play."""
        self.find("dice-mismatch", _("roll {dice} is not two dice 1-6").format(dice=repr(a.dice_text)), a,
                  loc=a.dice_loc)
        for part in written_parts(a):
            s = part.player
            (self.pos[s], self.pos[1 - s]), _hits = physical(self.rules, self.pos[s], self.pos[1 - s],
                                                             part.steps)

    def walk(self, a: Action, nxt: Action | None, p: int, d1: int, d2: int, first_turn: bool) -> None:
        """A turn that is not plainly legal, or has several parts: each part judged by the turn driver
        (``turns.walk_turn``).  The parts of the turn are counted as the replayer's ``move=M.K`` and a
        finding's ``part`` count them: every written part, and a part the record leaves out where it
        is a finding (a chain stopped short, a handover owed), in the order played; 0 is the roller's
        own play of the roll."""
        parts = written_parts(a)
        trail = [] if self.tell_state is not None and not self.one_part else None
        k = -1                           # the last written part walked so far
        n = 0                            # the parts of the turn counted so far
        for out in walk_turn(self.rules, self.pos, p, d1, d2, parts, first_turn, self.rolls, self.name):
            if self.roll_spec is None:
                self.roll_spec = out.spec    # the roller's own part, for the turn rows
            if out.part is not None:
                k = next((i for i, x in enumerate(parts) if x is out.part), len(parts))
            counted = out.part is not None or bool(out.problems)
            self.part_no = n if counted and not self.one_part else None
            self.on_part(a, nxt, out, (d1, d2), rest=parts[k + 1:])
            self.part_no = None
            if counted:
                n += 1
                if trail is not None:
                    trail.append(self.part_state(out, a.dice))
        self.parts = trail if trail is not None and len(trail) > 1 else None

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
                    continue  # a roll left unplayed by the player who resigns (docs/rules.md, backgammon rule 10)
                if nxt is None:
                    continue  # the record stops here: an unfinished game, not an unused roll
            fits = ""
            if v is not None and v.playset is not None and rule in POSITION_RULES:
                # the look-ahead may put the replay back on the game's course
                after, fits = self.resync(side, v, steps, rest)
                if fits:
                    # TRANSLATORS: {message}: what is wrong with the play; {play}: the legal play chosen
                    msg = _("{message}; the plays that follow fit {play} instead, and the replay goes on from "
                            "there").format(message=msg, play=fits)
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
        limit = min(self.LOOKAHEAD, self.rest_rolls())
        goal = sum(len(q.steps) for q in rest)
        for pos, path in list(ps.plays.items())[:self.CANDIDATES]:
            # first the parts written after it in the same turn (how many of their steps have a checker
            # and an open point), then the later rolls
            n = (self.rest_steps(side, pos, rest), self.fits(side, pos, rest))
            if n > best_n:
                best, best_n, chosen = pos, n, fmt_steps(path)
                if n >= (goal, limit):
                    break
        for rule, msg in out.problems:
            if best is not None:
                msg = _("{message}; the replay goes on as if {play} had been played (the play the record fits "
                        "best)").format(message=msg, play=chosen)
            self.find(rule, msg, a, loc=out.loc, side=side, position=(me, opp), dice=spec.numbers,
                      alternatives=ps.example(6))
        if best is not None:
            out.after = [best[0], best[1]] if side == 0 else [best[1], best[0]]
            out.used = tuple(d for *_, d in ps.plays[best])

    def on_setup(self, a: Action, nxt: Action | None) -> None:
        """A set-up position (not a play: nothing to judge); the replay goes on from what it sets, with
        ``a.player`` on roll."""
        s = a.setup
        if s is not None and s.checkers is not None:
            mine, theirs = s.checkers
            opp_point = self.rules.opp_point
            both = [p for p in range(1, 25) if mine[p - 1] and theirs[opp_point(p) - 1]]
            if both:
                self.find("parse-error", _("the set-up puts checkers of both players on {player}'s point {point} "
                                           "(no position has them): the replay goes on from it as written").format(
                    player=self.name(0), point=both[0]), a)
            self.pos = [tuple(s.checkers[0]), tuple(s.checkers[1])]
            self.rolls = max(self.rolls, 1)          # past the opening roll and both first turns
            self.rolled = [max(n, 1) for n in self.rolled]
        if s is not None and s.cube is not None:
            self.cube = s.cube
            self.cube_turned = self.cube_turned or s.cube > 1
        if s is not None and s.owner is not None:
            self.owner = None if s.owner == CENTRED else s.owner
        self.last_roller = 1 - a.player

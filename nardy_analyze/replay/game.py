"""One game under replay: the one dispatch of its actions, and the checker plays.

:func:`play` walks the actions of a game: each goes to its handler (``HANDLERS``: a function of the game
state, :class:`.state.GameState`, the action, the next action and the action's index), in the modules
of their concern: the checker plays here, the cube (:mod:`.cube`), results (:mod:`.results`, the
last-roll draw in :mod:`.draw`), the way back onto the game's course after an illegal play
(:mod:`.resync`) and the clock (:mod:`.clock`).  Every command runs this one path; the costly events
(action states, turn rows, the game end) are built by an observer of it (:class:`.telling.Teller`), which
reads the state before and after each action and changes nothing.

What a roll's handler returns is all the observer needs beyond the state: :data:`QUICK` /
:data:`QUICK_EXACT` for a plainly legal turn (``turns.quick_turn``; exact: one written step per number,
in order), a :class:`Played` for a turn walked part by part, None otherwise.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from ..engine import fmt_steps, generate, valid_dice
from ..engine.judge import physical, route as judge_route
from ..engine.core import Dice, SegmentSpec
from ..record import CENTRED, Action, Kind
from . import draw
from .cube import on_beaver, on_double, on_drop, on_take
from ..events import WARNING, How, PartState, how_text
from ..i18n import _
from .results import finish, on_accept, on_draw, on_reject, on_resign, on_timeout, on_win
from .resync import CANDIDATES, LOOKAHEAD, fits, on_illegal_mark, rest_rolls, rest_steps, resync
from .state import Ended, GameState, Owed
from .turns import PLAY_RULES, Part, PartOutcome, quick_turn, walk_turn, written_parts

_AFTER_END = (Kind.ROLL, Kind.DOUBLE, Kind.TAKE, Kind.BEAVER)   # actions that cannot follow the game's end
BATCH = True        # the compiled core's batch of plain rolls where it is in use (False: every roll here, as
                    # the reference does; tests compare the two)


class Played(NamedTuple):
    """A roll walked part by part (``turns.walk_turn``), as the observer needs it."""

    spec: SegmentSpec | None         # the turn driver's first part (the roller's play of the roll)
    parts: list[PartState] | None    # every part of a turn of several (when the state keeps them)


QUICK = Played(None, None)           # a plainly legal turn (turns.quick_turn)
QUICK_EXACT = Played(None, None)     # the same, its written steps one per number in order (a route)


def routed(a: Action, played: Played | None) -> bool:
    """Whether the roll ``a``, played without a finding that breaks its play, is told by its route alone to an
    observer that asks for routes (``Events.ROUTES``): a roll of valid dice played in one part (no further parts
    walked or written, not played exactly as written), neither unplayed nor refused."""
    return (a.kind is Kind.ROLL and played is not None and played is not QUICK_EXACT and played.parts is None
            and not a.unplayed and not a.segments and not a.illegal_mark and a.dice is not None
            and valid_dice(a.dice))


def route_of(rules, a: Action, before: tuple, after: tuple):
    """The single-die route of a roll :func:`routed` says is told by its route, from the sides before and after
    it (first player's first): its steps with their hits, as ``engine.judge.route`` gives them (None: none)."""
    p = a.player
    core = rules.core
    if core is not None:           # (the compiled core's, where it finds it: the same)
        got = core.route(a, before[p], before[1 - p], after[p], after[1 - p])
        if got is not None:
            return got
    d1, d2 = a.dice
    return judge_route(rules, before[p], before[1 - p], Dice.roll(max(d1, d2), min(d1, d2)),
                       [(s.src, s.dst) for s in a.steps], (after[p], after[1 - p]))


def play(st: GameState, actions: list[Action], teller=None) -> None:
    """Replay ``actions`` (the game's, up to any unreadable text) on ``st``, then settle the result.
    ``teller``: the observer that builds the costly events (:class:`.telling.Teller`), or None.

    The compiled core's batch: where no clock needs each action, a run of plainly legal rolls (what
    ``quick_turn`` takes, and the combined moves ``judge`` finds legal without a finding) is replayed in one
    call (``CoreRules.quick_rolls``) that changes ``st`` as the handlers would (:func:`taken`; with an observer,
    :func:`told`, one roll at a time) and hands back at the first action that needs Python (a finding, a
    cube action, a result) or after a roll that bears off a side's last checker (outside Gul bara's turns of
    several parts), whose end of the game :func:`borne_off` settles here, as :func:`on_roll` does."""
    st.actions = actions
    clock = st.clock if st.clock.checks else None
    handlers = HANDLERS
    n = len(actions)
    core = st.rules.core
    # the compiled core's batch (no clock: it checks every action): a run of plainly legal rolls in one call
    batch = st.rules.batch_turns
    quick = core.quick_rolls if BATCH and core is not None and clock is None and batch is not None else None
    plain = batch != "all"
    # Gul bara's turns of several parts in the core (the roll chains start at; with an observer, the turns
    # with further parts written, told part by part as walk would: :func:`told`)
    parts = (st.rules.chain_from_turn or 0) if batch == "parts" else 0
    roll = Kind.ROLL
    trace = None if teller is None else []
    sparse = teller is not None and teller.sparse     # the batch traces only the rolls to tell (told_sparse)
    # an observer that takes routes (Events.ROUTES): the batch puts the route of each roll it takes that is not exact
    # in the observer's dict itself, as Teller.after would (one that it found no route for is traced)
    routes = teller.routes if sparse else None
    # without an observer (or with a sparse one, told nothing of them), the cube's plain doubles and takes in the
    # batch too (where the cube is in play and the game is known not to be the Crawford game: :func:`taken_cube`)
    bare = teller is None or sparse
    limit = st.variant.get("cube_limit") if quick is not None and bare else None
    # (a limit a C long of any platform holds: a larger one, written in a tag, is the Python handlers')
    cubed = quick is not None and bare and st.variant.cube_in_play and st.crawford is False \
        and (limit is None or type(limit) is int and 0 < limit < 2 ** 31)
    cube = None
    i = 0
    while i < n:
        a = actions[i]
        if quick is not None and a.kind is roll and st.ended is None and st.owed is None and st.pending is None:
            last = st.last
            if cubed and st.cube >= 2 ** 29:     # (a cube the core's integers would not hold once doubled: Python's)
                cubed, cube = False, None
            if cubed:
                owner, roller = st.owner, st.last_roller
                cube = (Kind.DOUBLE, Kind.TAKE, st.cube, -1 if owner is None else owner,
                        -1 if roller is None else roller, limit or 0)
            got = quick(actions, i, st.pos[0], st.pos[1], last.player if last is not None and last.kind is roll else -1,
                        st.rolls, st.rolled[0], st.rolled[1], roll, trace, plain, parts, sparse, cube, routes)
            j = got[0]
            if j > i:
                if teller is None or sparse and not trace:    # (a sparse observer told nothing of this run)
                    (taken_cube if cubed else taken)(st, actions, i, *got)
                elif sparse:
                    told_sparse(st, actions, i, got, trace, teller)
                    trace.clear()
                else:
                    told(st, actions, i, j, trace, teller)
                    trace.clear()
                i = j
                sides = st.pos
                if not sum(sides[0]) or not sum(sides[1]):  # the run's last roll bore off a side's last checker
                    borne_off(st, actions[j - 1].player)
                continue
        nxt = actions[i + 1] if i + 1 < n else None
        if st.ended and a.kind in _AFTER_END:
            # TRANSLATORS: {text}: the record's cell, quoted; {how}: how the game ended
            st.find("result-mismatch", _("{text} written after the game was already over ({how})").format(
                text=repr(a.text), how=how_text(st.ended.how)), a)
            break
        if teller is not None:     # (inline: once per action) what the events need from before it: the
            pos, prev = st.pos, teller.sides     # board (its tuple reused), the cube, the play findings
            mark = (prev if prev is not None and prev[0] is pos[0] and prev[1] is pos[1] else (pos[0], pos[1]),
                    st.cube, st.owner, st.plays_broken)
        if clock is not None:
            clock.check(st, a, nxt)
        played = handlers[a.kind](st, a, nxt, i)
        if teller is not None:
            teller.after(st, i, a, mark, played)
        st.last = a
        if a.kind == Kind.ROLL:
            st.last_roller = a.player
        i += 1
    finish(st, actions)
    st.number_moves()
    if teller is not None:
        teller.end_game(st)


def taken(st: GameState, actions: list[Action], i: int, j: int, side0, side1, r0: int, r1: int) -> None:
    """The state after the plainly legal rolls ``actions[i:j]`` replayed by the compiled core
    (``CoreRules.quick_rolls``: each what :func:`on_roll` does with a turn ``turns.quick_turn`` or the
    first ways of ``judge.judge`` take; never a double as the game's opening roll, nor a player's first turn
    where the head rule makes it special; a turn that ends the game only as the run's last, whose end
    :func:`play` settles with :func:`borne_off`)."""
    k = j - i
    st.rolls += k
    st.roll_at.extend(range(i, j))
    if st.first_roller is None:
        st.first_roller = actions[i].player
    st.report.turns += k
    st.rolled[0], st.rolled[1] = r0, r1
    st.pos[0], st.pos[1] = side0, side1
    last = st.last = actions[j - 1]
    st.last_roller = last.player


def taken_cube(st: GameState, actions: list[Action], i: int, j: int, side0, side1, r0: int, r1: int, cube: int,
               owner: int, turned: bool, pending: Action | None, last_roller: int, cubes: list[int] | None) -> None:
    """:func:`taken` for a batch that took the cube's plain actions too (each what :func:`.cube.on_double` or
    :func:`.cube.on_take` does where it finds nothing): the cube, its owner (-1: nobody), whether it was
    turned, the double left waiting for an answer, the last roller and the indexes of the cube's actions
    (None: there were none)."""
    if cubes is None:
        taken(st, actions, i, j, side0, side1, r0, r1)
        return
    k = j - i - len(cubes)         # the rolls among actions[i:j]
    st.rolls += k
    _rolls_between(st.roll_at, i, j, cubes)
    if st.first_roller is None:
        st.first_roller = actions[i].player
    st.report.turns += k
    st.rolled[0], st.rolled[1] = r0, r1
    st.pos[0], st.pos[1] = side0, side1
    st.last = actions[j - 1]
    _cube_taken(st, cube, owner, turned, pending, last_roller)


def _rolls_between(roll_at: list[int], i: int, j: int, cubes: list[int] | None) -> None:
    """Add to ``roll_at`` the indexes ``i`` to ``j - 1`` that are not in ``cubes`` (the batch's indexes of the
    cube's actions, in increasing order; None: none)."""
    at = i
    for c in cubes or ():
        if c >= j:
            break
        if c >= at:
            if c > at:
                roll_at.extend(range(at, c))
            at = c + 1
    if j > at:
        roll_at.extend(range(at, j))


def _cube_taken(st: GameState, cube: int, owner: int, turned: bool, pending: Action | None, last_roller: int) -> None:
    """The cube's state after a batch that took its plain actions (the batch's result: owner -1 for nobody)."""
    st.cube, st.owner = cube, None if owner < 0 else owner
    if turned:
        st.cube_turned = True
    st.pending = pending
    st.last_roller = last_roller


def told(st: GameState, actions: list[Action], i: int, j: int, trace: list, teller) -> None:
    """:func:`taken` one roll at a time, each told to the observer as :func:`play` tells a roll
    :func:`on_roll` took: ``trace`` holds the sides after each roll, its route where the batch found it (its
    single steps with their hits, as ``judge.route`` gives them: the action state carries it and ``normal.py``
    takes it) and whether its written steps were that route (``QUICK_EXACT``); otherwise the turn is told as
    ``QUICK``, whose events are those of the roll walked part by part (its one part is the plain roll's).
    An observer that wants no state of an exact roll (``Teller.sparse``) is told by :func:`told_sparse`."""
    roll_at, rolled, pos, report = st.roll_at, st.rolled, st.pos, st.report
    if st.first_roller is None:
        st.first_roller = actions[i].player
    for k in range(i, j):
        a = actions[k]
        p = a.player
        item = trace[k - i]
        played = _traced(st, a, item, teller)
        prev = teller.sides
        mark = (prev if prev is not None and prev[0] is pos[0] and prev[1] is pos[1] else (pos[0], pos[1]),
                st.cube, st.owner, st.plays_broken)
        st.rolls += 1
        roll_at.append(k)
        report.turns += 1
        rolled[p] += 1
        pos[0], pos[1] = item[0], item[1]
        teller.after(st, k, a, mark, played, item[2])
    last = st.last = actions[j - 1]
    st.last_roller = last.player


def told_sparse(st: GameState, actions: list[Action], i: int, got: tuple, trace: list, teller) -> None:
    """:func:`told` for an observer that wants nothing of an exact roll, a double or a take (``Teller.sparse``):
    the batch traced only the other rolls, each as ``(k, before0, before1, item)`` (its index, the sides before
    it, and :func:`told`'s item), followed by the cube, its owner (-1: nobody) and the game's rolls before it
    where the batch took the cube's actions too; the state moves over the actions between them at once, as
    :func:`taken` (``got``: the batch's result, 5 items) or :func:`taken_cube` (11 items) does."""
    j, side0, side1, r0, r1 = got[:5]
    cubes = got[10] if len(got) > 5 else None        # (the indexes of the cube's actions, in order: no rolls)
    roll_at, pos = st.roll_at, st.pos
    if st.first_roller is None:
        st.first_roller = actions[i].player
    base = st.rolls
    at = i                         # the first action not yet looked at for roll_at
    for entry in trace:
        k, before0, before1, item = entry[0], entry[1], entry[2], entry[3]
        a = actions[k]
        pos[0], pos[1] = before0, before1
        if len(entry) > 4:         # the cube's actions taken too: the cube before the roll, and the rolls
            st.cube, owner, st.rolls = entry[4], entry[5], entry[6]
            st.owner = None if owner < 0 else owner
        else:
            st.rolls = base + k - i
        played = _traced(st, a, item, teller)
        _rolls_between(roll_at, at, k + 1, cubes)
        at = k + 1
        mark = ((before0, before1), st.cube, st.owner, st.plays_broken)
        st.rolls += 1
        pos[0], pos[1] = item[0], item[1]
        teller.after(st, k, a, mark, played, item[2])
    _rolls_between(roll_at, at, j, cubes)
    turns = j - i - (len(cubes) if cubes else 0)
    st.rolls = base + turns
    st.report.turns += turns
    st.rolled[0], st.rolled[1] = r0, r1
    pos[0], pos[1] = side0, side1
    last = st.last = actions[j - 1]
    if len(got) > 5:               # (as taken_cube)
        _cube_taken(st, *got[5:10])
    else:
        st.last_roller = last.player


def _traced(st: GameState, a: Action, item: tuple, teller) -> Played | None:
    """What the observer is told of the roll ``a`` the batch traced as ``item`` (``st`` still before it):
    ``(side0, side1, route, exact)``, or for a Gul bara turn of several parts (the batch's ``gul_roll``)
    ``(side0, side1, None, False, parts, first_turn)``."""
    if len(item) == 6:
        return _several(st, a, a.player, item[4], item[5]) \
            if teller.tell_state is not None or teller.tell_turn is not None else None
    return QUICK_EXACT if item[3] else QUICK


def _several(st: GameState, a: Action, p: int, parts: tuple, first_turn: bool = False,
             roll_number: int | None = None) -> Played:
    """What :func:`walk` gives the observer for a Gul bara turn the batch took (every written part legal in
    its place, every part left out one that could not be played): the roller's part as the turn driver
    asks for it, and each written part's state (``parts``: the numbers the driver gave it and the board
    after it, from the core), kept when the state keeps them.  ``st`` is still before the turn;
    ``first_turn``: the roller's first turn (the core gave its head allowance); ``roll_number``: the roll's
    number in the game (default: the one after ``st.rolls``)."""
    d1, d2 = a.dice if a.dice[0] >= a.dice[1] else (a.dice[1], a.dice[0])
    me, opp = st.pos[p], st.pos[1 - p]
    spec = st.rules.turn_segments(d1, d2, first_turn, st.rolls + 1 if roll_number is None else roll_number
                                  ).next(me, opp)
    if not st.keep_parts:
        return Played(spec, None)
    trail = []
    before = (st.pos[0], st.pos[1])
    for n, (numbers, side0, side1) in enumerate(parts):
        after = (side0, side1)
        if n == 0:
            trail.append(PartState("roll", p, tuple(a.dice), a.loc.line, a.loc.column, a.text, before, after))
        else:
            seg = a.segments[n - 1]
            loc = seg.loc or a.loc
            trail.append(PartState(seg.kind, seg.player, numbers, loc.line, loc.column, seg.text, before, after))
        before = after
    return Played(spec, trail if len(trail) > 1 else None)


def on_roll(st: GameState, a: Action, nxt: Action | None, i: int) -> Played | None:
    """One ROLL action, one turn: the checks at turn level, then the play (plainly legal, or walked part by
    part), then a side that bore off every checker ends the game."""
    p = a.player
    last_roll = st.owed is not None and st.owed[0] != p
    if st.owed is not None and not last_roll:
        draw.settle_owed(st)
        st.find("result-mismatch", _("{text} written after the game was already over (only {player}'s "
                                     "last roll may follow)").format(text=repr(a.text),
                                                                     player=st.name(1 - p)), a)
        return
    if st.pending is not None:
        st.find("cube-response", _("{player} doubled to {value} and the double was neither taken nor "
                                   "dropped").format(player=st.name(st.pending.player),
                                                     value=st.pending.value), st.pending)
        st.pending = None
    if st.last is not None and st.last.kind == Kind.ROLL and st.last.player == p:
        st.find("parse-error", _("{player} rolls twice in a row").format(player=st.name(p)), a,
                severity=WARNING)
    if a.unplayed:
        return
    dice = a.dice
    if dice is None or not valid_dice(dice):
        bad_dice(st, a)
        return
    st.rolls += 1
    st.roll_at.append(i)
    if st.first_roller is None:        # the game's first roll replayed (after a set-up too)
        st.first_roller = p
    st.report.turns += 1
    d1, d2 = (dice[0], dice[1]) if len(dice) == 2 and dice[0] >= dice[1] else (max(dice), min(dice))
    if st.rolls == 1 and d1 == d2 and not st.rules.opening_double_allowed:
        st.find("opening-roll", _("the opening roll is {dice}, a double; the first play of a game is never "
                                  "a double (equal opening dice are rolled again)").format(dice=a.dice_text),
                a, loc=a.dice_loc)
    first_turn = st.rolled[p] == 0
    st.rolled[p] += 1
    if a.illegal_mark:
        me, opp = st.pos[p], st.pos[1 - p]
        on_illegal_mark(st, i, a, p, d1, d2, st.rules.start_turn(me, opp, first_turn, (d1, d2)))
        return
    if last_roll:
        draw.play_last_roll(st, a, p, d1, d2)
        return
    after = quick_turn(st.rules, st.pos[p], st.pos[1 - p], a, d1, d2, first_turn, st.rolls) \
        if not a.segments else None
    if after is not None:            # plainly legal: what walk_turn would give, without its machinery
        st.pos[p], st.pos[1 - p] = after
        played = QUICK_EXACT          # (a dance too: nothing written, nothing playable, the route empty)
    elif (one := _one_roll(st, a, p, first_turn)) is not None:
        # what the batch takes (a combined move, a play judge finds legal in another order, a Gul bara turn of
        # several parts...), here the turns it leaves to this handler: a roll after a finding, a game's last roll
        # in Gul bara
        st.pos[0], st.pos[1], played = one
    else:
        played = walk(st, i, a, nxt, p, d1, d2, first_turn)
    borne_off(st, p)
    return played


def borne_off(st: GameState, p: int) -> None:
    """After a turn of ``p``: a side that bore off its last checker ends the game (or, under the last-roll draw,
    owes the other side its last roll); ``p`` first (in Gul bara the opponent may bear off its last checker in a
    handover)."""
    for w in (p, 1 - p):
        if not st.ended and not st.owed and not sum(st.pos[w]):      # borne_off(...) == 15
            level = st.rules.win_level(st.pos[w], st.pos[1 - w])
            if draw.owes_last_roll(st, w):
                st.owed = Owed(w, st.stake(level))
            else:
                st.ended = Ended(How.BEAROFF, w, st.stake(level))


def _one_roll(st: GameState, a: Action, p: int, first_turn: bool) -> tuple | None:
    """The compiled core's play of the roll ``a`` as the batch of :func:`play` would take it, the game's last
    roll too: ``(side0, side1, played)``, the board after it and what the observer is told; None where the
    batch would not take it (then :func:`walk` decides).  ``st`` has counted the roll (``on_roll``) and is
    still before its play.  Where the variant lets the batch take every roll: ``CoreRules.one_roll``; in Gul
    bara (``"parts"``): ``CoreRules.one_gul_roll``, the roll with its chain and handovers."""
    core = st.rules.core
    batch = st.rules.batch_turns
    if not BATCH or core is None:
        return None
    if batch == "all" and not a.segments:
        one = core.one_roll(a, st.pos[p], st.pos[1 - p], st.rolls <= 1 and not st.rules.opening_double_allowed,
                            first_turn)
        if one is None:
            return None
        me, opp, exact = one
        played = QUICK_EXACT if exact else QUICK
        return (me, opp, played) if p == 0 else (opp, me, played)
    if batch == "parts" and st.rolls > 1:
        rolls = st.rolls - 1                  # (the rolls of the game before this one)
        one = core.one_gul_roll(a, p, st.pos[0], st.pos[1], rolls, st.rules.chain_from_turn or 0, first_turn)
        if one is None:
            return None
        side0, side1, parts = one
        return side0, side1, _several(st, a, p, parts, first_turn, rolls + 1)
    return None


def bad_dice(st: GameState, a: Action) -> None:
    """A roll that is not two dice 1-6: one finding, and the replay goes on from the play as written,
    where physically possible, as after any illegal play."""
    st.find("dice-mismatch", _("roll {dice} is not two dice 1-6").format(dice=repr(a.dice_text)), a,
            loc=a.dice_loc)
    for part in written_parts(a):
        s = part.player
        (st.pos[s], st.pos[1 - s]), _hits = physical(st.rules, st.pos[s], st.pos[1 - s],
                                                         part.steps)


def walk(st: GameState, i: int, a: Action, nxt: Action | None, p: int, d1: int, d2: int,
         first_turn: bool) -> Played:
    """A turn that is not plainly legal, or has several parts: each part judged by the turn driver
    (``turns.walk_turn``).  The parts of the turn are counted as the replayer's ``move=M.K`` and a
    finding's ``part`` count them: every written part, and a part the record leaves out where it
    is a finding (a chain stopped short, a handover owed), in the order played; 0 is the roller's
    own play of the roll."""
    parts = written_parts(a)
    trail = [] if st.keep_parts else None
    spec = None                      # the roller's own part, for the turn rows
    k = -1                           # the last written part walked so far
    n = 0                            # the parts of the turn counted so far
    for out in walk_turn(st.rules, st.pos, p, d1, d2, parts, first_turn, st.rolls, st.name):
        if spec is None:
            spec = out.spec
        if out.part is not None:
            k = next((j for j, x in enumerate(parts) if x is out.part), len(parts))
        counted = out.part is not None or bool(out.problems)
        st.part_no = n if counted and not st.one_part else None
        on_part(st, i, a, nxt, out, (d1, d2), rest=parts[k + 1:])
        st.part_no = None
        if counted:
            n += 1
            if trail is not None:
                trail.append(part_state(out, a.dice))
    return Played(spec, trail if trail is not None and len(trail) > 1 else None)


def on_part(st: GameState, i: int, a: Action, nxt: Action | None, out: PartOutcome, dice: tuple[int, int],
            rest: list[Part]) -> None:
    """One part of a turn (see ``turns.walk_turn``): its findings and where the replay goes on.
    ``rest``: the parts written after it in the same turn."""
    side, part, v = out.side, out.part, out.verdict
    me, opp = out.before
    shown = dice if out.spec is not None and out.spec.kind == "roll" else (out.spec.numbers if out.spec else None)
    steps = part.steps if part is not None else []
    if part is None and out.problems and out.spec is not None:
        on_missing(st, i, a, out, rest)
        return
    for rule, msg in out.problems:
        if part is not None and part.kind == "roll" and rule == "max-dice" and not steps:
            if nxt is not None and nxt.kind in (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT):
                continue  # a roll left unplayed by the player who resigns (docs/rules.md, backgammon rule 10)
            if nxt is None:
                continue  # the record stops here: an unfinished game, not an unused roll
        fit = ""
        if v is not None and v.playset is not None and rule in PLAY_RULES:
            # the look-ahead may put the replay back on the game's course
            after, fit = resync(st, i, side, v, steps, rest)
            if fit:
                # TRANSLATORS: {message}: what is wrong with the play; {play}: the legal play chosen
                msg = _("{message}; the plays that follow fit {play} instead, and the replay goes on from "
                        "there").format(message=msg, play=fit)
                out.after = [after[0], after[1]] if side == 0 else [after[1], after[0]]
                if not rest:     # otherwise the record's later parts say what was left unused
                    out.used = tuple(d for *_, d in v.playset.plays[after])
        st.find(rule, msg, a, loc=out.loc, side=side, position=(me, opp), dice=shown,
                alternatives=v.playset.example(6) if v is not None and v.playset is not None else [])
        if fit:
            st.first_error = None   # back on the game's real course


def on_missing(st: GameState, i: int, a: Action, out: PartOutcome, rest: list[Part]) -> None:
    """A part of the turn the record leaves out although its player could play some of its numbers (a
    chain double, a handover owed): one finding where the turn stops, and the replay goes on from the
    legal play of those numbers that the parts and rolls written after it fit best (the first in the
    engine's order when several fit as far)."""
    side, spec = out.side, out.spec
    me, opp = out.before
    ps = generate(st.rules, me, opp, spec.numbers, spec.turn)
    best, best_n, chosen = None, (-1, -1), ""
    limit = min(LOOKAHEAD, rest_rolls(st, i))
    goal = sum(len(q.steps) for q in rest)
    for pos, path in list(ps.plays.items())[:CANDIDATES]:
        # first the parts written after it in the same turn (how many of their steps have a checker
        # and an open point), then the later rolls
        n = (rest_steps(st, side, pos, rest), fits(st, i, side, pos, rest))
        if n > best_n:
            best, best_n, chosen = pos, n, fmt_steps(path)
            if n >= (goal, limit):
                break
    for rule, msg in out.problems:
        if best is not None:
            msg = _("{message}; the replay goes on as if {play} had been played (the play the record fits "
                    "best)").format(message=msg, play=chosen)
        st.find(rule, msg, a, loc=out.loc, side=side, position=(me, opp), dice=spec.numbers,
                alternatives=ps.example(6))
    if best is not None:
        out.after = [best[0], best[1]] if side == 0 else [best[1], best[0]]
        out.used = tuple(d for *_, d in ps.plays[best])


def on_setup(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    """A set-up position (not a play: nothing to judge); the replay goes on from what it sets, with
    ``a.player`` on roll."""
    s = a.setup
    if s is not None and s.checkers is not None:
        mine, theirs = s.checkers
        opp_point = st.rules.opp_point
        both = [p for p in range(1, 25) if mine[p - 1] and theirs[opp_point(p) - 1]]
        if both:
            st.find("parse-error", _("the set-up puts checkers of both players on {player}'s point {point} "
                                     "(no position has them): the replay goes on from it as written").format(
                player=st.name(0), point=both[0]), a)
        st.pos = [tuple(s.checkers[0]), tuple(s.checkers[1])]
        st.rolls = max(st.rolls, 1)          # past the opening roll and both first turns
        st.rolled = [max(n, 1) for n in st.rolled]
    if s is not None and s.cube is not None:
        st.cube = s.cube
        st.cube_turned = st.cube_turned or s.cube > 1
    if s is not None and s.owner is not None:
        st.owner = None if s.owner == CENTRED else s.owner
    st.last_roller = 1 - a.player


def part_state(out: PartOutcome, dice) -> PartState:
    """The state of one part of a turn, as walked (``ActionState.parts``): a written part, or one the
    record leaves out where that is a finding (its ``text`` empty, its place the finding's)."""
    s, (me, opp), part = out.side, out.before, out.part
    if part is None:
        spec = out.spec
        return PartState(spec.kind if spec is not None else "", s, tuple(spec.numbers) if spec else (),
                         out.loc.line, out.loc.column, "", (me, opp) if s == 0 else (opp, me),
                         tuple(out.after) if out.after is not None else ((me, opp) if s == 0 else (opp, me)))
    numbers = tuple(dice) if part.kind == "roll" else \
        tuple(out.spec.numbers if out.spec is not None else part.dice or ())
    return PartState(part.kind, s, numbers, part.loc.line, part.loc.column, part.text,
                     (me, opp) if s == 0 else (opp, me), tuple(out.after))


# the handler of each kind of action: handler(state, action, next action, index) -> what the observer needs
HANDLERS: dict[Kind, Callable[[GameState, Action, Action | None, int], Played | None]] = {
    Kind.ROLL: on_roll, Kind.DOUBLE: on_double, Kind.TAKE: on_take, Kind.DROP: on_drop, Kind.BEAVER: on_beaver,
    Kind.WIN: on_win, Kind.RESIGN: on_resign, Kind.ACCEPT: on_accept, Kind.REJECT: on_reject,
    Kind.TIMEOUT: on_timeout, Kind.DRAW: on_draw, Kind.SETUP: on_setup,
}

"""Turn-level replay: one roll and the parts of its turn, walked through the variant's turn driver.

A turn (docs/rules.md, "Common to every variant") is a roll and its play.  In Gul bara it has more parts: the
doubles chain (the roller plays every higher double up to 6-6) and handovers (the opponent plays the
numbers the previous part could not use).  The record model writes a turn as one ``ROLL`` action whose
``steps`` are the roller's play of the roll and whose ``segments`` are the further parts, in order.

What parts a turn *must* have is the variant's business: its rules object gives a turn driver
(``rules.turn_segments``, see ``engine.core.TurnDriver``) that says, part by part, who plays which
numbers.  :func:`walk_turn` lines the written parts up with the driver's and judges each; it is the one
turn function that serves both the replay (findings) and the replayer's look-ahead (does a later turn
fit a position?).  A handover is never the opponent's turn: no roll, no first-turn exception, no cube
turn -- the driver gives it its own head allowance of one checker.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import Iterator

from ..engine.core import CHECKERS, ROLL_NUMBERS, ROLLER, Dice, Pos, SegmentSpec, borne_off, generate
from ..engine.judge import Verdict, as_written, dice_word, judge, physical, problem_text
from ..shapes import dataclass
from ..i18n import _, roll_text
from ..record import Action, Loc

# Rules about checker plays (the position they produce); see replay.POSITION_RULES.
PLAY_RULES = frozenset({"dice-mismatch", "no-checker", "blocked-point", "bar-first", "bear-off-early",
                        "bear-off-inexact", "max-dice", "larger-die", "head-rule", "six-block", "home-move"})


@dataclass(slots=True)
class Part:
    """One written part of a turn: the roller's play of the roll, a chain double or a handover."""

    kind: str                          # "roll", "chain", "handover"
    player: int                        # who played it, as written (0/1)
    dice: tuple[int, ...] | None       # the numbers written for it (None: not written)
    steps: list[tuple[int, int]]
    loc: Loc
    text: str = ""
    hits: list[bool] | None = None     # the "*" written on each step (a hint for combined moves)


def written_parts(a: Action) -> list[Part]:
    """The parts of a ROLL action, in the order written."""
    parts = [Part("roll", a.player, tuple(a.dice) if a.dice else None, [(s.src, s.dst) for s in a.steps],
                  a.loc, a.text, [s.hit for s in a.steps])]
    for seg in a.segments:
        parts.append(Part(seg.kind, seg.player, tuple(seg.dice) if seg.dice else None,
                          [(s.src, s.dst) for s in seg.steps], seg.loc or a.loc, seg.text,
                          [s.hit for s in seg.steps]))
    return parts


@dataclass(slots=True)
class PartOutcome:
    """What one part of a turn came to.

    ``spec`` is what the driver asked for (None: a written part nothing asked for); ``part`` what was
    written (None: a part the driver asked for and the record leaves out).  ``before`` is the position
    from the side of ``side`` (who played, or should have played).  ``problems`` are (rule, message)
    pairs: the checker-play verdict's and the turn-level ones (``doubles-chain``, ``handover``).  The
    consumer may replace ``after`` (the position the replay goes on from, both sides, side 0 first) and
    ``used`` (the numbers the turn driver is told were used) before asking for the next part.  ``driver``:
    the turn driver with this part pending, as long as the consumer holds the outcome before asking for
    the next part (a copy of it plays the rest of the roll out: the evaluator's analysis), else None.
    """

    spec: SegmentSpec | None
    part: Part | None
    side: int
    before: Pos
    loc: Loc
    verdict: Verdict | None = None
    problems: list[tuple[str, str]] = field(default_factory=list)
    after: list | None = None
    used: tuple[int, ...] = ()
    driver: object = None

    @property
    def legal(self) -> bool:
        return not self.problems


def _fmt(numbers) -> str:
    return "-".join(map(str, numbers))


def _sub(numbers: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...] | None:
    """``numbers`` less the multiset ``taken``; None when ``taken`` is not part of ``numbers``."""
    left = Counter(numbers)
    left.subtract(Counter(taken))
    if any(v < 0 for v in left.values()):
        return None
    return tuple(sorted(left.elements(), reverse=True))


def quick_turn(rules, me, opp, a: Action, d1: int, d2: int, first_turn: bool, roll_number: int = 0) -> Pos | None:
    """The position after a turn that is plainly legal, checked without the turn machinery; None when
    :func:`walk_turn` must decide (it then gives exactly what it always gave).

    For a ``ROLL`` action ``a`` with no further parts, ``d1 >= d2`` valid dice, and neither side borne off,
    where the turn is the roller's play of the roll (``rules.one_part_turns``: the ``SingleSegment``
    driver), or, in other variants, where a play of every number ends the turn
    (``rules.played_roll_ends_turn``, asked with ``roll_number``: a plain roll of Gul bara, not a double)
    and a play is written.  Two cases are taken, the two that make nearly every turn of a record:

    * one written step per number, each exactly one number long and legal in the written order
      (``judge._exact``, the check ``judge`` makes first);
    * nothing written, and no number of the roll can move any checker (a dance): the empty play is the
      only legal one (``generate`` would find no first step in either order).

    In both cases ``walk_turn`` would yield one part with no problem and leave the position this
    returns (tests/test_speed_paths.py compares the two).
    """
    if not sum(me) or not sum(opp):
        return None                      # the driver ends the turn at once: walk_turn reports the parts
    steps = a.steps
    if not rules.one_part_turns and (not steps or not rules.played_roll_ends_turn(d1, d2, roll_number)):
        return None                      # a dance hands its numbers over; a chain may follow a double
    turn = rules.start_turn(me, opp, first_turn, (d1, d2))
    if not steps:
        for die in ((d1,) if d1 == d2 else (d1, d2)):
            for _ in rules.single_steps(me, opp, die, turn):
                return None
        return me, opp
    bear_off = True
    for s in steps:
        if s.hit:
            bear_off = False
            break
    full = ROLL_NUMBERS.get((d1, d2))
    if full is None:
        return None
    r = as_written(rules, me, opp, full, [(s.src, s.dst) for s in steps], turn, bear_off)
    return None if r is None else (r[0], r[1])


def walk_turn(rules, pos: list, roller: int, d1: int, d2: int, parts: list[Part], first_turn: bool,
              roll_number: int, names=None, diagnose: bool = True) -> Iterator[PartOutcome]:
    """Walk one turn: line the written ``parts`` up with the turn driver's and judge each.

    ``pos`` is ``[side0, side1]`` and is updated as the parts are played (from each outcome's ``after``,
    which the consumer may change).  ``first_turn`` is the roller's own first turn (head exception);
    ``roll_number`` the 1-based count of rolls in the game, this one included.  ``names(side)`` spells a
    player for messages.  ``diagnose`` False: stop at the first problem (a look-ahead only asks whether
    the turn fits).

    After an illegal part the turn goes on as recorded: the written steps are applied where physically
    possible, and the driver is told the numbers the record says were used (those not handed over).
    A part the record leaves out is a finding only when its player could have played some of its
    numbers; otherwise the numbers are lost, written or not.
    """
    w = _TurnWalk(rules, pos, roller, d1, d2, parts, roll_number, names or player_text)
    drv = rules.turn_segments(d1, d2, first_turn, roll_number)
    while True:
        spec = drv.next(pos[roller], pos[1 - roller])
        # written parts that nothing asks for here: a handover after a part that used every number
        while spec is not None and w.unasked_handover(spec):
            out = w.extra(w.queue.pop(0))
            yield out
            pos[:] = out.after
            if not diagnose:
                return
            w.prev_loc = out.part.loc
        if spec is None:
            break
        side = roller if spec.player == ROLLER else 1 - roller
        part = w.take(spec)
        if part is None:
            out = w.missing(spec, side)
        else:
            w.missing_roller = False
            out = w.misplaced(spec, part, side) or w.judged(spec, part, side, diagnose)
        out.driver = drv
        yield out
        if out.problems and not diagnose:
            return
        pos[:] = out.after               # the consumer may have put the replay on a legal continuation
        drv.played(out.used)
        if part is not None:
            w.prev_loc = part.loc
    # written parts after the driver ended the turn
    over = next((s for s in (0, 1) if borne_off(pos[s]) == CHECKERS), None) if w.queue else None
    for extra in list(w.queue):
        out = w.extra(extra, after_end=True, over=over)
        yield out
        pos[:] = out.after
        if not diagnose:
            return


class _TurnWalk:
    """The state of one :func:`walk_turn`: the written parts not lined up yet, where the last one was."""

    def __init__(self, rules, pos: list, roller: int, d1: int, d2: int, parts: list[Part], roll_number: int,
                 name):
        self.rules, self.pos, self.roller, self.d1, self.d2 = rules, pos, roller, d1, d2
        self.roll_number, self.name = roll_number, name
        self.queue = list(parts)
        self.prev_loc = parts[0].loc
        self.missing_roller = False      # the previous spec was a roller's part the record leaves out

    def unasked_handover(self, spec: SegmentSpec) -> bool:
        """A written handover where the driver asks for a chain double: nothing asked for it."""
        q = self.queue
        return spec.kind == "chain" and bool(q) and q[0].kind == "handover" and not _later(q[0], spec.double - 1)

    def take(self, spec: SegmentSpec) -> Part | None:
        """The written part that ``spec`` asks for (None: the record leaves it out)."""
        q = self.queue
        if spec.kind == "roll":
            return q.pop(0)
        if q and q[0].kind == spec.kind:
            w = q[0]
            if spec.double is not None and spec.kind in ("chain", "handover") and self.d1 == self.d2 \
                    and _later(w, spec.double) and w.dice:
                return None                     # the written part belongs to a later double: this one is missing
            return q.pop(0)
        return None

    def missing(self, spec: SegmentSpec, side: int) -> PartOutcome:
        """A part the driver asks for and the record leaves out: a finding when its player could play."""
        rules, pos, name, q = self.rules, self.pos, self.name, self.queue
        me, opp = pos[side], pos[1 - side]
        out = PartOutcome(spec, None, side, (me, opp), self.prev_loc)
        if not (spec.kind == "handover" and self.missing_roller):
            ps = generate(rules, me, opp, spec.numbers, spec.turn)
            if ps.max_dice:
                eg = "; ".join(ps.example(2))
                if spec.kind == "handover":
                    # TRANSLATORS: {kind} is a keyword of the record ("chain", "handover"), {dice} its numbers
                    where = (_("the turn stops here") if not q else
                             _("the record goes on with {kind} {dice}").format(
                                 kind=q[0].kind, dice=_fmt(q[0].dice or ())).rstrip())
                    fields = dict(roller=name(self.roller), numbers=_fmt(spec.numbers), player=name(side),
                                  n=ps.max_dice, examples=eg, where=where)
                    if self.d1 == self.d2 and spec.double is not None and spec.double != self.d1:
                        # TRANSLATORS: {roller} rolled; {numbers}: "6-6-6-6"; {double}: "6-6"; {player}: the
                        # opponent; {n}: how many of the numbers; {examples}: legal plays; {where}: what follows
                        msg = _("{roller} could not use {numbers} of the chain's {double}; the numbers must be "
                                "handed over and {player} can play {n} of them, e.g. {examples}, but the record "
                                "has no handover ({where})").format(
                            double=f"{spec.double}-{spec.double}", **fields)
                    else:
                        msg = _("{roller} could not use {numbers}; the numbers must be handed over and {player} "
                                "can play {n} of them, e.g. {examples}, but the record has no handover "
                                "({where})").format(**fields)
                    out.problems.append(("handover", msg))
                elif spec.kind == "chain":
                    nxt = q[0] if q and q[0].kind == "chain" else None
                    fields = dict(double=f"{spec.double}-{spec.double}", player=name(side),
                                  dice=dice_word(spec.double, True), n=ps.max_dice, examples=eg)
                    if nxt is not None:
                        # TRANSLATORS: {double}: "4-4"; {dice}: its numbers, as in "four 4s"
                        msg = _("the chain of doubles skips {double}: {player} must play four {dice} next and "
                                "can play {n}, e.g. {examples}").format(**fields)
                    else:
                        msg = _("the chain of doubles stops before {double}: {player} must play four {dice} "
                                "next and can play {n}, e.g. {examples}").format(**fields)
                    out.problems.append(("doubles-chain", msg))
        # a roller's part left out although it could be played: the handover that would follow is
        # the same slip (one finding); one left out because nothing could be played hands over all
        self.missing_roller = spec.player == ROLLER and bool(out.problems)
        out.after = list(pos)
        out.used = ()
        return out

    def misplaced(self, spec: SegmentSpec, part: Part, side: int) -> PartOutcome | None:
        """A part written for the wrong side or the wrong double: not judged as a play, applied as
        written, the part's numbers used up; None when the part is in its place."""
        name = self.name
        if part.player != side:
            if spec.kind == "handover":
                wrong = ("handover", _("the handover is {player}'s to play, but the record gives it to "
                                       "{other}").format(player=name(side), other=name(part.player)))
            else:
                wrong = ("doubles-chain", _("the chain double {double} is {player}'s to play, but the record "
                                            "gives it to {other}").format(
                    double=f"{spec.double}-{spec.double}", player=name(side), other=name(part.player)))
        elif spec.kind == "chain" and part.dice and Counter(part.dice) != Counter(spec.numbers):
            wrong = ("doubles-chain", _("the chain of doubles is out of order: {written} written where {double} "
                                        "must follow").format(written=_fmt(part.dice[:2]),
                                                              double=f"{spec.double}-{spec.double}"))
        else:
            return None
        pos = self.pos
        out = PartOutcome(spec, part, side, (pos[side], pos[1 - side]), part.loc, problems=[wrong])
        out.after = _apply_physical(self.rules, pos, part)
        out.used = spec.numbers
        return out

    def judged(self, spec: SegmentSpec, part: Part, side: int, diagnose: bool) -> PartOutcome:
        """A part in its place, judged as a play of the numbers ``spec`` gives."""
        rules, pos, name = self.rules, self.pos, self.name
        me, opp = pos[side], pos[1 - side]
        out = PartOutcome(spec, part, side, (me, opp), part.loc)
        if spec.kind == "handover" and part.dice and Counter(part.dice) != Counter(spec.numbers):
            out.problems.append(("handover", _(
                "the handover gives {given}, but the numbers {roller} left unused are {numbers}").format(
                given=_fmt(part.dice), roller=name(self.roller), numbers=_fmt(spec.numbers))))
            if not diagnose:
                return out
        # the roller's play of the roll is spelt as the roll ("64"), as in backgammon
        dice = Dice.roll(self.d1, self.d2) if spec.kind == "roll" and spec.player == ROLLER else Dice.of(spec.numbers)
        v = judge(rules, me, opp, dice, part.steps, turn=spec.turn, hit_marks=part.hits)
        out.verdict = v
        q = self.queue
        handed = q[0] if q and q[0].kind == "handover" else None
        hands_rest = handed is not None and (not handed.dice or Counter(handed.dice) == Counter(
            _sub(spec.numbers, v.used) or ()))
        for problem in v.problems:
            rule, msg = problem.rule, problem_text(rules, problem)
            # the record hands over exactly what the roller left, and the roller could have played more
            if rule in ("max-dice", "larger-die") and spec.player == ROLLER and hands_rest:
                rule = "handover"
                # TRANSLATORS: {message}: the max-dice or larger-die message of the roller's play
                msg = _("numbers handed over although {player} could play them: {message}").format(
                    player=name(side), message=msg)
            out.problems.append((rule, msg))
        a0, a1 = v.after
        out.after = [a0, a1] if side == 0 else [a1, a0]
        out.used = _used(spec, v, handed)
        return out

    def extra(self, part: Part, after_end: bool = False, over: int | None = None) -> PartOutcome:
        """A written part nothing asked for (``after_end``: after the driver ended the turn, ``over`` the
        side that had borne off its last checker then): one finding, and its steps applied as written."""
        rule, msg = self.after_end(part, over) if after_end else (
            "handover", _("{player} plays numbers handed over, but {roller} left no number unused").format(
                player=self.name(part.player), roller=self.name(self.roller)))
        return _extra(self.rules, self.pos, part, rule, msg)

    def after_end(self, extra: Part, over: int | None) -> tuple[str, str]:
        """What is wrong with a part written after the driver ended the turn (``over``: the side that
        had borne off its last checker when it ended)."""
        rules, name, d1, d2 = self.rules, self.name, self.d1, self.d2
        if over is not None:
            rule = "doubles-chain" if extra.kind == "chain" else "handover"
            # TRANSLATORS: {kind} is a keyword of the record ("chain", "handover")
            return rule, _("{kind} written after {player} bore off the last checker: the game is over").format(
                kind=extra.kind, player=name(over))
        if extra.kind == "chain":
            d = extra.dice[0] if extra.dice else "?"
            double = f"{d}-{d}"
            chain_from = rules.chain_from_turn
            if chain_from is None:
                # TRANSLATORS: {variant}: the variant's name in the prepositional ("in long nardy")
                msg = _("{double} written as a chain double; there is no chain of doubles in {variant}").format(
                    double=double, variant=rules.display_title("prep"))
            elif d1 != d2:
                msg = _("{double} written as a chain double after the roll {roll}, which is not a double").format(
                    double=double, roll=roll_text(d1, d2))
            elif self.roll_number < chain_from:
                msg = _("{double} written as a chain double, but doubles start a chain only from roll {start} of "
                        "the game (this is roll {roll})").format(double=double, start=chain_from,
                                                                 roll=self.roll_number)
            else:
                msg = _("{double} written after the chain of doubles ended with 6-6").format(double=double)
            return "doubles-chain", msg
        if not rules.has_handovers:
            # TRANSLATORS: {variant}: the variant's name in the prepositional ("in long nardy")
            return "handover", _("a handover written, but there are no handovers in {variant} (unused numbers are "
                                 "lost)").format(variant=rules.display_title("prep"))
        return "handover", _("{player} plays numbers handed over, but {roller} left no number unused").format(
            player=name(extra.player), roller=name(self.roller))


def player_text(side: int) -> str:
    """A player the record does not name (side 0 or 1), for messages."""
    return _("player {n}").format(n=side + 1)


def _later(part: Part, double: int) -> bool:
    """Whether a written chain or handover part belongs to a double above ``double`` (its numbers are
    all one number, higher), or says nothing of its numbers."""
    return not part.dice or (len(set(part.dice)) == 1 and part.dice[0] > double)


def _used(spec: SegmentSpec, v: Verdict, handed: Part | None) -> tuple[int, ...]:
    """The numbers the driver is told a judged part used.  A legal play: what it used.  After an
    illegal one, the record decides: what a written handover gives was unused (when it is part of the
    numbers), otherwise what the play could make, otherwise every number (no handover is then due)."""
    if v.legal:
        return v.used
    if handed is not None and spec.player == ROLLER:
        if handed.dice:
            rest = _sub(spec.numbers, handed.dice)
            if rest is not None:
                return rest
        if v.used:
            return v.used
    return spec.numbers


def _apply_physical(rules, pos: list, part: Part) -> list:
    s = part.player
    (m, o), _ = physical(rules, pos[s], pos[1 - s], part.steps)
    return [m, o] if s == 0 else [o, m]


def _extra(rules, pos: list, part: Part, rule: str, msg: str) -> PartOutcome:
    """A written part nothing asked for: one finding, and its steps applied as written."""
    s = part.player
    out = PartOutcome(None, part, s, (pos[s], pos[1 - s]), part.loc, problems=[(rule, msg)])
    out.after = _apply_physical(rules, pos, part)
    return out

"""Shared vocabulary of the rules engine: sides, steps, play generation.

A *side* is a tuple of 25 ints in its owner's own numbering: index ``p - 1``
holds the checkers on point ``p`` and index 24 the bar.  Borne-off checkers are
``15 - sum(side)``.  The engine is pure: no I/O, no knowledge of notations.
"""
from __future__ import annotations

from dataclasses import field
from functools import cached_property
from itertools import permutations
from typing import Any, Callable, Hashable, Iterable, Iterator, NamedTuple, Protocol

from ..shapes import dataclass
from . import compiled
from ..i18n import N_, _, ngettext, pgettext

BAR = 25
OFF = 0
CHECKERS = 15

Side = tuple[int, ...]
Pos = tuple[Side, Side]          # (mover, opponent)
StepT = tuple[int, int, int]     # (src, dst, die)


# Options every variant has: the clock (a record's TimeControl tag, two minutes per move in nardy500; a
# running clock with an increment: "840+8", docs/rules.md "The clock").
COMMON_OPTIONS: dict[str, tuple[Any, tuple]] = {
    "time_limit": (None, ()),       # seconds per move; None = no limit (nardy500: 120)
    "clock": (None, ()),            # seconds on each player's clock at the start; None = no running clock
    "increment": (None, ()),        # seconds added to the mover's clock after each of their moves
    "clock_per": ("auto", ("auto", "match", "game")),   # auto: the match for match records, else the game
}


def borne_off(side: Side) -> int:
    return CHECKERS - sum(side)


def all_home(me: Side) -> bool:
    """Every checker of ``me`` on the home board (points 1-6 in the owner's numbering) or borne off."""
    return not any(me[6:25])


def fmt_point(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def fmt_steps(steps) -> str:
    """Spell single steps ``((13, 7, 6), (8, 7, 1))`` as ``13/7 8/7``."""
    return " ".join(f"{fmt_point(s)}/{fmt_point(d)}" for s, d, *_ in steps) or "(no move)"


class RuleResult(NamedTuple):
    """A rule broken, as a value: the rule (``rule``, a rule id of docs/rules.md), which of the rule's
    messages (``case``) and what the message says (``params``: plain data).  The engine's answer for a
    single step (``Rules.step_problem``) and for a recorded play (``judge.Verdict.problems``): the search
    branches, which only ask whether a step is legal, drop it unworded; it is worded (``Rules.step_text``,
    ``judge.problem_text``) where it is shown, in the reader's language."""

    rule: str
    case: str
    params: dict[str, Any]


class Rules:
    """The variant: the one object that owns everything variant-specific.  The generic machinery
    (``generate``, ``judge``, the replay, stats, the writers and pages) asks it, and nothing outside the
    engine tests a variant's name.  A new variant subclasses this and fills in the members marked
    *required*; every other member has a default, and every fast path is a method whose default here is
    the generic code (a subclass may write it faster for its geometry; tests/test_variant.py holds each
    override equal to this default on random positions).

    ``turn`` is the variant's per-turn state (hashable; ``None`` when the variant needs none, as in
    backgammon).  Long nardy keeps there how many checkers left the head this turn and how many may;
    ``start_turn`` makes it from the roll (``dice``: the two dice as rolled, so that the first-turn
    6-6/4-4/3-3 head exception can be expressed) and ``after_step`` advances it.

    ``turn_segments`` returns the variant's turn driver (:class:`TurnDriver`): which parts make up
    the turn of one roll (the roller's play; in Gul bara also chain doubles and handovers).
    """

    # -- names -------------------------------------------------------------------------------------
    name: str = ""                      # required: the engine's name (``get_variant``, the Variant tag)
    title: str = ""                     # the variant's name for people (pages, headings, messages)
    aliases: tuple[str, ...] = ()       # other spellings of the name in records and on the command line
    # -- what the variant has ----------------------------------------------------------------------
    has_bar = False                     # hits send checkers to the bar (index 24 of a side)
    same_direction = False              # both sides move the same way round the board (long nardy)
    opening_double_allowed = True       # the first play of a game may be a double
    position_id = False                 # a GNU Backgammon Position ID describes its positions
    gnubg_notation = False              # its records can be written as .mat / .sgf (GNU Backgammon's forms)
    board_cube = False                  # the drawn board shows the doubling cube
    one_part_turns = True               # the turn driver is SingleSegment: a turn is the roller's play
    # which rolls the compiled core's batch of a record's rolls may replay (replay.game.play): "all" (a turn is
    # the roller's play), "plain" (only a roll that is not a double, played with both numbers: a turn
    # ``played_roll_ends_turn`` says is the roller's play alone), "parts" (Gul bara's turn driver in the core:
    # every roll whose parts are all legal, chains from roll ``chain_from_turn``, where nothing observes the
    # replay; with an observer as "plain"), None (none: every roll through Python)
    batch_turns: str | None = "all"
    has_chains = False                  # doubles chains (Gul bara)
    has_handovers = False               # unused numbers go to the opponent (Gul bara; ``handover_turn``)
    chain_from_turn: int | None = None  # the roll of the game chains start at (variants with chains)
    # the one word for a game won at each level (the stats' result kinds and column names)
    LEVEL_KINDS: dict[int, str] = {1: "single", 2: "gammon", 3: "backgammon"}
    # the result of a game won at each level, for messages ("a gammon at cube 2 gives 4"): one translatable
    # text per level of LEVEL_KINDS (a variant with other levels declares its own)
    # TRANSLATORS: the result of a game won at the lowest level (used as "a single game at cube 2")
    LEVEL_NAMES: dict[int, str] = {1: N_("a single game"), 2: N_("a gammon"), 3: N_("a backgammon")}
    # the stats' column word of a level where it is not the level's word (gammons_won, backgammons_lost...)
    LEVEL_COLUMNS: dict[int, str] = {2: "gammons", 3: "backgammons"}
    # the rule ids (rules.py) that only some variants check, this one among them (``nardy-analyze rules``)
    OWN_RULES: tuple[str, ...] = ()
    # rule options: name -> (default, allowed values; () = any whole number or None)
    OPTIONS: dict[str, tuple[Any, tuple]] = {}

    @classmethod
    def implied_options(cls, opts: dict[str, Any]) -> dict[str, Any]:
        """Options that the options ``opts`` imply where they are not given (backgammon's nardy500 scoring:
        no cube, two minutes a move); ``get_variant`` adds them.  The default: none."""
        return {}

    @classmethod
    def build_args(cls, opts: dict[str, Any]) -> dict[str, Any]:
        """The constructor's arguments for the options ``opts`` (the variant's own; defaults where absent):
        the options that change the rules object (``get_variant`` keeps one object per distinct set).  The
        default: none, one object whatever the options (they only change game-level policy, asked with
        ``opt``)."""
        return {}

    # -- the compiled core -------------------------------------------------------------------------
    def core_spec(self) -> dict[str, Any] | None:
        """The rules as the compiled core's plain struct (``engine/_core.c``: ``has_bar``, ``closed_by``,
        ``head``, ``six_block``, ``home_freeze``, ``exact_bear_off``), or None when the core cannot play
        them: the default, so that a new variant runs on its Python methods until it fills this in.  A
        variant fills it only while its single-step methods are its own (a subclass that changes one of
        them gets None, and the Python code)."""
        return None

    @cached_property
    def core(self):
        """The compiled core playing these rules (None: the Python code plays them; see ``compiled``)."""
        return compiled.make(self.core_spec())

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("core", None)          # a C object: each process makes its own
        return state

    # -- geometry ----------------------------------------------------------------------------------
    def initial(self) -> Pos:                                             # required
        raise NotImplementedError

    @staticmethod
    def opp_point(point: int) -> int:
        """The opponent's own number for the mover's point ``point`` (1..24): 25 - point when the two
        sides move in opposite directions (the default, as in backgammon)."""
        return 25 - point

    # -- single steps and turns (required: closed, single_steps, apply, step_problem) -----------------
    def start_turn(self, me: Side, opp: Side, first_turn: bool, dice: tuple[int, ...] = ()) -> Hashable:
        return None

    def after_step(self, turn: Hashable, me: Side, src: int, dst: int) -> Hashable:
        return turn

    def turn_segments(self, d1: int, d2: int, first_turn: bool, roll_number: int = 1) -> "TurnDriver":
        return SingleSegment(self, d1, d2, first_turn)

    def played_roll_ends_turn(self, d1: int, d2: int, roll_number: int) -> bool:
        """Whether the roller's play of roll ``d1-d2`` (the ``roll_number``-th roll of the game), when it uses
        every number, is the whole turn, with the driver's first part the plain ``SegmentSpec("roll",
        ROLLER, numbers, turn)``: what lets the replay take such a turn without the turn machinery
        (``turns.quick_turn``).  The default: a turn is the roller's play (``one_part_turns``)."""
        return self.one_part_turns

    def part_driver(self, kind: str, numbers: tuple[int, ...], roller: Side, chain_turn: Hashable = None,
                    double: int | None = None, roll_number: int = 1) -> "TurnDriver | None":
        """A turn driver standing at a later part of a roll (variants with ``has_chains``), that part
        pending, or None where a roll has no later parts: what plays the rest of the roll out after the
        part (the evaluator's hint).  See :meth:`GulBara.part_driver`."""
        return None

    def handover_turn(self) -> Hashable:
        """The turn state of an opponent's handover play (variants with ``has_handovers``)."""
        raise NotImplementedError(f"{self.name} has no handovers")

    def closed(self, opp: Side, point: int) -> bool:
        raise NotImplementedError

    def single_steps(self, me: Side, opp: Side, die: int, turn: Hashable = None) -> Iterator[tuple[int, int]]:
        raise NotImplementedError

    def apply(self, me: Side, opp: Side, src: int, dst: int) -> tuple[Side, Side, bool]:
        raise NotImplementedError

    def step_problem(self, me: Side, opp: Side, src: int, dst: int, die: int,
                     turn: Hashable = None) -> "RuleResult | None":
        """Why the single step ``src/dst`` with ``die`` is illegal (a :class:`RuleResult`: plain data, worded
        by :meth:`step_text` only where it is shown); None if legal."""
        raise NotImplementedError

    def step_text(self, problem: "RuleResult") -> str:
        """The message of a :class:`RuleResult`, in the current language.  The base class words the cases
        every variant with these rules can share (``bar``, ``point``: no checker there; ``bar-first``;
        ``held``: a point held by two or more; ``outside``: a bear-off while checkers are outside home;
        ``higher``: a larger number bearing off while a checker stands higher); a variant words its own
        cases and hands the rest to this."""
        case, p = problem.case, problem.params
        if case == "bar-first":
            return ngettext(
                "moved while {n} checker(s) wait on the bar; every checker on the bar must enter first",
                "moved while {n} checker(s) wait on the bar; every checker on the bar must enter first",
                p["n"]).format(**p)
        if case == "bar":
            return _("no checker of the mover on the bar")
        if case == "point":
            return _("no checker of the mover on point {point}").format(**p)
        if case == "held":
            return ngettext("point {point} is held by {n} opposing checkers",
                            "point {point} is held by {n} opposing checkers", p["n"]).format(**p)
        if case == "outside":
            return ngettext(
                "bore off from {point} while {n} checker(s) are outside home",
                "bore off from {point} while {n} checker(s) are outside home", p["n"]).format(**p)
        if case == "higher":
            # TRANSLATORS: {die} is a number of the roll; {point}, {higher}: points (1-6)
            return _("a {die} bore off from {point} although a checker stands on {higher}").format(**p)
        raise ValueError(f"{self.name}: no message for the step problem {problem!r}")

    # -- results and stakes (required: win_level, max_level) ----------------------------------------
    def win_level(self, winner: Side, loser: Side) -> int:
        raise NotImplementedError

    def max_level(self, winner: Side, loser: Side) -> int:
        raise NotImplementedError

    def cube_in_play(self, opt) -> bool:
        """Whether the doubling cube is used under the options ``opt(key)`` (option ``cube``)."""
        return bool(opt("cube"))

    def level_name(self, level: int, opt) -> str:
        """The result of a game won at ``level``, for messages ("a gammon at cube 2 gives 4"): ``LEVEL_NAMES``."""
        return _(self.LEVEL_NAMES[level])

    def kind_word(self, kind: str) -> str | None:
        """This variant's own word for a result ``kind`` (the ``kind`` column: "single", "mars"...) where it
        differs from the word every variant shares (long nardy's single win is an oin); None: the shared word."""
        return None

    def display_title(self, case: str = "nom") -> str:
        """``title`` in the current language (the variant's name for people), in the grammatical ``case``
        the sentence needs (:func:`variant_title`)."""
        return variant_title(self.title, case)

    def stake(self, level: int, cube: int, cube_turned: bool, opt) -> int:
        return cube * level

    def resign_stakes(self, top: int, cube: int, cube_turned: bool, opt) -> dict[int, int]:
        """Points a resignation may give -> level, up to the level ``top`` the loser could still lose."""
        return {self.stake(k, cube, cube_turned, opt): k for k in range(1, top + 1)}

    def drop_stake(self, cube: int, cube_turned: bool, opt) -> int:
        return cube

    # -- fast paths: the defaults are the generic code ---------------------------------------------
    # (every method a variant may write faster for its geometry; tests/test_variant.py holds each one of
    # every variant equal to the default here)
    FAST_PATHS = ("play_exact", "hit_flags", "closed_flags", "forced")

    def play_exact(self, me: Side, opp: Side, full: tuple[int, ...], steps, turn: Hashable = None,
                   bear_off: bool = False):
        """The written ``steps`` played one number each (see :func:`exact_steps`); by the compiled core
        where it plays these rules."""
        core = self.core
        if core is not None:
            try:
                return core.play_exact(me, opp, full, steps, turn, bear_off)
            except ValueError:           # outside what the core takes (odd counts or numbers)
                pass
        return exact_steps(self, me, opp, full, steps, turn, bear_off)

    def hit_flags(self, me: Side, opp: Side, path) -> tuple[tuple[int, int, bool], ...]:
        """``(src, dst, hit)`` for the legal single steps ``path`` played in order from ``(me, opp)``."""
        out = []
        for src, dst in path:
            me, opp, hit = self.apply(me, opp, src, dst)
            out.append((src, dst, bool(hit)))
        return tuple(out)

    def closed_flags(self) -> Callable[[Side], bytes]:
        """``flags(side)``: 24 bytes, b"1" where the opponent's point q = 1..24 is closed by ``side``
        (``closed(side, q)`` asked point by point)."""
        core = self.core
        return core.closed_flags if core is not None else closed_flags_py(self)

    def forced(self, me: Side, opp: Side, numbers: tuple[int, ...], turn: Hashable = None) -> bool:
        """At most one legal play of ``numbers`` (what ``len(generate(...).plays) <= 1`` says): the walk
        of :func:`walk_forced`, or the compiled core's (``CoreRules.forced``: two plays that use every number
        and end apart settle it, else the plays are counted)."""
        core = self.core
        if core is not None:
            try:
                return core.forced(me, opp, numbers, turn)
            except ValueError:
                pass
        return walk_forced(self, me, opp, numbers, turn)


def closed_flags_py(rules: Rules) -> Callable[[Side], bytes]:
    """:meth:`Rules.closed_flags` in Python, ``closed(side, q)`` asked point by point (the reference)."""
    closed = rules.closed
    return lambda side: b"".join(b"1" if closed(side, q) else b"0" for q in range(1, 25))


#: the grammatical cases a variant's name can be asked in (Russian declines it: "проверена как длинные
#: нарды", "подходят к длинным нардам", "правила гюльбары"; English names are the same in every case)
CASES = ("nom", "gen", "dat", "acc", "ins", "prep")


def variant_title(title: str, case: str = "nom") -> str:
    """A variant's name for people (``Rules.title``) in the current language, in the grammatical ``case``
    the sentence needs (one of :data:`CASES`: nominative, genitive, dative, accusative, instrumental,
    prepositional); unknown names as they are."""
    forms = _TITLE_FORMS.get(title)
    if forms is None:
        return title
    return forms[case]()


# Every form is a whole pgettext call, so the catalog holds each one (context "variant" is the nominative).
_TITLE_FORMS: dict[str, dict[str, Callable[[], str]]] = {
    "backgammon": {
        "nom": lambda: pgettext("variant", "backgammon"),
        "gen": lambda: pgettext("variant, genitive", "backgammon"),
        "dat": lambda: pgettext("variant, dative", "backgammon"),
        "acc": lambda: pgettext("variant, accusative", "backgammon"),
        "ins": lambda: pgettext("variant, instrumental", "backgammon"),
        "prep": lambda: pgettext("variant, prepositional", "backgammon"),
    },
    "long nardy": {
        "nom": lambda: pgettext("variant", "long nardy"),
        "gen": lambda: pgettext("variant, genitive", "long nardy"),
        "dat": lambda: pgettext("variant, dative", "long nardy"),
        "acc": lambda: pgettext("variant, accusative", "long nardy"),
        "ins": lambda: pgettext("variant, instrumental", "long nardy"),
        "prep": lambda: pgettext("variant, prepositional", "long nardy"),
    },
    "Gul bara": {
        "nom": lambda: pgettext("variant", "Gul bara"),
        "gen": lambda: pgettext("variant, genitive", "Gul bara"),
        "dat": lambda: pgettext("variant, dative", "Gul bara"),
        "acc": lambda: pgettext("variant, accusative", "Gul bara"),
        "ins": lambda: pgettext("variant, instrumental", "Gul bara"),
        "prep": lambda: pgettext("variant, prepositional", "Gul bara"),
    },
}


# The 24 closed flags of a position as one C-level ``bytes(...).translate``, for the variants whose
# ``closed`` is "the point holds at least k of the side's checkers" (``Rules.closed_flags`` overrides).
FLAG_TABLES = [b"".join(b"1" if x >= k else b"0" for x in range(256)) for k in range(3)]   # count -> "1"/"0"


def exact_steps(rules: Rules, me: Side, opp: Side, full: tuple[int, ...], steps, turn, bear_off: bool = False):
    """The written steps played in the written order, one number each, when every step is exactly one
    unused number long (``bear_off``: or bears off with an unused number at least as large) and legal:
    (me, opp, hits, numbers used in order); None otherwise.

    The numbers are tried in the order ``judge._realise`` tries them (a bear-off: the unused numbers in
    their order, each once), and the first legal one is kept; so when the walk gets through, it is the
    first way ``_realise`` finds.  A dead end is None (the general search then decides)."""
    left = list(full)
    hits = 0
    used = []
    for src, dst in steps:
        if not 1 <= src <= BAR:
            return None
        if dst == OFF:
            if not bear_off:
                return None
            for die in dict.fromkeys(left):
                if die >= src and not rules.step_problem(me, opp, src, dst, die, turn):
                    break
            else:
                return None
        else:
            die = src - dst
            if dst < 1 or die not in left:
                return None
            if rules.step_problem(me, opp, src, dst, die, turn):
                return None
        left.remove(die)
        used.append(die)
        turn = rules.after_step(turn, me, src, dst)
        me, opp, hit = rules.apply(me, opp, src, dst)
        hits += hit
    return me, opp, hits, tuple(used)


@dataclass(slots=True)
class PlaySet:
    """All legal plays of one roll, keyed by the position they produce."""

    dice: tuple[int, ...]                    # the numbers available (four for a double)
    max_dice: int                            # how many numbers a legal play uses
    plays: dict[Pos, tuple[StepT, ...]] = field(default_factory=dict)  # result -> one way to play it
    larger_only: bool = False                # the larger-die rule removed the smaller-die plays

    def __contains__(self, pos: Pos) -> bool:
        return pos in self.plays

    def bears_all_off(self) -> bool:
        """Some legal play bears off every checker the mover has left."""
        return any(not sum(mover) for mover, _ in self.plays)

    def example(self, limit: int = 3) -> list[str]:
        return [fmt_steps(s) for s in list(self.plays.values())[:limit]]


class Dice(NamedTuple):
    """The numbers one part of a turn plays, as one value (what ``judge`` and ``route`` take; ``generate``
    takes its ``numbers``).

    ``numbers``: the numbers to play, in order (a double's four); ``d1``, ``d2``: the two dice of a roll as
    rolled (``rolled``), or, for numbers that are not a roll of their own (a Gul bara handover or chain
    segment: any 1 to 4 numbers, e.g. ``(4,)``, ``(3, 4)``, ``(5, 5, 5)``), the largest and the smallest
    (0 and 0 for none).  A plain class and cheap: the 36 rolls are made once (:meth:`roll`)."""

    numbers: tuple[int, ...]
    d1: int
    d2: int
    rolled: bool

    @staticmethod
    def roll(d1: int, d2: int) -> "Dice":
        """The roll ``d1-d2`` (a double: four numbers)."""
        dice = _ROLL_DICE.get((d1, d2))
        if dice is None:
            dice = Dice((d1,) * 4 if d1 == d2 else (d1, d2), d1, d2, True)
        return dice

    @staticmethod
    def of(numbers: Iterable[int]) -> "Dice":
        """The numbers ``numbers`` to play as they are (not a roll of their own)."""
        numbers = tuple(int(x) for x in numbers)
        return Dice(numbers, max(numbers), min(numbers), False) if numbers else Dice((), 0, 0, False)

    @property
    def plain(self) -> bool:
        """Two different numbers to play (not a double, nor numbers all alike)."""
        return len(set(self.numbers)) > 1


_ROLL_DICE = {(a, b): Dice((a,) * 4 if a == b else (a, b), a, b, True) for a in range(1, 7) for b in range(1, 7)}

#: the 21 different rolls, the higher die first: (1-1), (2-1), (2-2), (3-1) ... (6-6)
ROLLS: tuple[Dice, ...] = tuple(Dice.roll(a, b) for a in range(1, 7) for b in range(1, a + 1))


#: ``valid_dice(dice)``: whether every number of a record's ``dice`` (not None) is a die's face, 1 to 6 (a
#: method of a frozen set: no Python frame on the replay's path, where every roll asks it)
valid_dice: Callable[[Iterable[int]], bool] = frozenset(range(1, 7)).issuperset

#: the numbers of each roll ``(d1, d2)`` of two dice 1-6 (``Dice.roll(d1, d2).numbers``, looked up)
ROLL_NUMBERS: dict[tuple[int, int], tuple[int, ...]] = {k: d.numbers for k, d in _ROLL_DICE.items()}


def _orders(numbers: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The distinct orders of a multiset of numbers (one for a double, two for a plain roll: as given,
    then reversed)."""
    if len(set(numbers)) <= 1:
        return [numbers]
    return list(dict.fromkeys(permutations(numbers)))


def generate(rules: Rules, me: Side, opp: Side, numbers: tuple[int, ...], turn: Hashable = None) -> PlaySet:
    """Every legal play of the ``numbers`` (a roll's: ``Dice.roll(d1, d2).numbers``; a double's four):
    maximum-dice rule, then larger-die rule.  The compiled core generates them where it plays the rules (the
    same plays in the same order as :func:`generate_py`, the reference)."""
    core = rules.core
    if core is not None:
        try:
            max_dice, plays, larger_only = core.generate(me, opp, numbers, turn)
        except ValueError:               # outside what the core takes: the reference below
            pass
        else:
            return PlaySet(numbers, max_dice, plays, larger_only)
    return generate_py(rules, me, opp, numbers, turn)


def generate_py(rules: Rules, me: Side, opp: Side, numbers: tuple[int, ...], turn: Hashable = None) -> PlaySet:
    """:func:`generate` in Python: the reference the compiled core is held to."""
    n = len(numbers)
    by_depth: list[dict[Pos, tuple[StepT, ...]]] = [{(me, opp): ()}] + [dict() for _ in range(n)]
    for order in _orders(numbers):
        frontier = {(me, opp, turn): ()}
        for depth, die in enumerate(order, start=1):
            nxt: dict[tuple, tuple[StepT, ...]] = {}
            for (m, o, t), path in frontier.items():
                for src, dst in rules.single_steps(m, o, die, t):
                    m2, o2, _ = rules.apply(m, o, src, dst)
                    key = (m2, o2, rules.after_step(t, m, src, dst))
                    if key not in nxt:
                        nxt[key] = path + ((src, dst, die),)
            if not nxt:
                break
            level = by_depth[depth]
            for (m2, o2, _), path in nxt.items():
                level.setdefault((m2, o2), path)
            frontier = nxt
    max_dice = max(d for d in range(n + 1) if by_depth[d])
    plays = by_depth[max_dice]
    larger_only = False
    if max_dice == 1 and len(set(numbers)) > 1:
        big = max(numbers)
        bigs = {rules.apply(me, opp, src, dst)[:2] for src, dst in rules.single_steps(me, opp, big, turn)}
        if bigs:
            kept = {k: v for k, v in plays.items() if k in bigs}
            larger_only = len(kept) < len(plays)
            plays = kept
    return PlaySet(numbers, max_dice, plays, larger_only)


def walk_forced(rules, me: Side, opp: Side, numbers: tuple[int, ...], turn) -> bool:
    """At most one legal play of ``numbers``: the generic walk (``Rules.forced``).

    A depth-first walk of the single steps, order by order of the numbers, looks for two different
    positions reached with every number: then no play can use more numbers, and there are two legal
    plays.  Walked to the end, it visits what ``generate`` visits, so it also knows the legal plays when
    it finds fewer: exactly one position reached with every number is the only legal play; when no play
    uses every number, the positions of the deepest level reached are the plays (for two different
    numbers of which only one can be played: those of the larger number when it can be played, the
    larger-die rule).  Other lists of numbers go to ``generate``."""
    seen: set[Pos] = set()
    single_steps, apply, after_step = rules.single_steps, rules.apply, rules.after_step
    if len(numbers) == 2 and numbers[0] != numbers[1]:
        # two different numbers: both orders, two steps deep
        a, b = numbers
        firsts: dict[int, set[Pos]] = {a: set(), b: set()}     # positions after one step of each number
        for x, y in ((a, b), (b, a)):
            first = firsts[x]
            for src, dst in single_steps(me, opp, x, turn):
                m, o, _ = apply(me, opp, src, dst)
                first.add((m, o))
                t = after_step(turn, me, src, dst)
                for src2, dst2 in single_steps(m, o, y, t):
                    seen.add(apply(m, o, src2, dst2)[:2])
                    if len(seen) >= 2:
                        return False
        if seen:
            return True
        # at most one number can be played: the larger one's plays if any, else the smaller one's (none at
        # all: the one "play" of the position as it is)
        return len(firsts[max(a, b)] or firsts[min(a, b)]) <= 1
    if len(set(numbers)) != 1:
        return len(generate(rules, me, opp, numbers, turn).plays) <= 1
    n = len(numbers)
    reached: list[set[Pos]] = [set() for _ in range(n)]     # positions after 1, 2, ... n - 1 steps
    visited: set = set()

    def two(m: Side, o: Side, t, dice: tuple[int, ...]) -> bool:
        key = (m, o, t, dice)
        if key in visited:
            return False
        visited.add(key)
        die, rest = dice[0], dice[1:]
        level = reached[n - len(rest)] if rest else None
        for src, dst in single_steps(m, o, die, t):
            m2, o2, _ = apply(m, o, src, dst)
            if rest:
                level.add((m2, o2))
                if two(m2, o2, after_step(t, m, src, dst), rest):
                    return True
            else:
                seen.add((m2, o2))
                if len(seen) >= 2:
                    return True
        return False

    if two(me, opp, turn, tuple(numbers)):
        return False
    if seen:
        return True
    deepest = next((level for level in reversed(reached) if level), None)
    return deepest is None or len(deepest) <= 1


def roll_plays(rules: Rules, me: Side, opp: Side) -> Iterator[tuple[Dice, PlaySet]]:
    """Each of the 21 rolls (:data:`ROLLS`) with its legal plays from ``(me, opp)``, for ``me`` on roll
    (not on a first turn): what "with every roll" or "with some roll" asks."""
    start_turn = rules.start_turn
    for dice in ROLLS:
        yield dice, generate(rules, me, opp, dice.numbers, start_turn(me, opp, False, (dice.d1, dice.d2)))


# -- turn drivers ------------------------------------------------------------------------------------

ROLLER = 0        # SegmentSpec.player: the player who rolled
OPPONENT = 1      # ... the other player (a Gul bara handover)


@dataclass(frozen=True, slots=True)
class SegmentSpec:
    """One part of a turn, as the variant's turn driver asks for it.

    ``player`` is :data:`ROLLER` or :data:`OPPONENT`; ``numbers`` are the numbers to play (four for a
    double); ``kind`` is ``"roll"`` (the roller's play of the roll), ``"chain"`` (the roller's play of
    the next double of a Gul bara chain) or ``"handover"`` (the opponent plays numbers the previous
    part could not use); ``turn`` is the rules' turn state to pass to :func:`generate` / ``judge`` with
    the positions of ``player`` (mover) and the other side.  ``double`` is the double a chain or
    handover segment belongs to (``None`` for a handover of a plain roll).
    """

    kind: str
    player: int
    numbers: tuple[int, ...]
    turn: Hashable = None
    double: int | None = None


class TurnDriver(Protocol):
    """The turn logic of one roll.  Use::

        drv = rules.turn_segments(d1, d2, first_turn, roll_number)
        while (spec := drv.next(roller_side, other_side)) is not None:
            ... play spec.numbers for spec.player (legal plays: generate(rules, me, opp, spec.numbers,
                turn=spec.turn)) ...
            drv.played(numbers_used)

    Positions passed to ``next`` are always the roller's side first.  ``next`` returns None when the
    turn is over (or the game is: a side has borne off all 15).
    """

    def next(self, roller: Side, other: Side) -> SegmentSpec | None: ...

    def played(self, used: tuple[int, ...]) -> None: ...


class SingleSegment:
    """The turn driver of backgammon and long nardy: the roller plays the roll, and that is all."""

    __slots__ = ("rules", "dice", "first_turn", "done")

    def __init__(self, rules: Rules, d1: int, d2: int, first_turn: bool) -> None:
        self.rules, self.dice, self.first_turn, self.done = rules, (d1, d2), first_turn, False

    def next(self, roller: Side, other: Side) -> SegmentSpec | None:
        if self.done or borne_off(roller) == CHECKERS or borne_off(other) == CHECKERS:
            return None
        turn = self.rules.start_turn(roller, other, self.first_turn, self.dice)
        return SegmentSpec("roll", ROLLER, Dice.roll(*self.dice).numbers, turn)

    def played(self, used: tuple[int, ...]) -> None:
        self.done = True


def remaining(numbers: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers not used (a multiset difference), larger first; ValueError if ``used`` holds a number
    that ``numbers`` does not."""
    r = list(numbers)
    for d in used:
        r.remove(d)
    return tuple(sorted(r, reverse=True))

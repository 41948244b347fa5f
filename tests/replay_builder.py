"""Records written as record-model objects for replay-level tests (no notation involved).

``Rec`` collects actions with one line each (segments get a line of their own), so a finding's line
says which action or segment it is about.  ``play_turn`` plays a whole turn through the variant's turn
driver, choosing each part's play with a callback (default: the first legal play in sorted order),
and returns the ROLL action with its segments, as a notation would write it.
"""
from __future__ import annotations

from nardy_analyze.engine import OPPONENT, generate
from nardy_analyze.record import Action, Game, Kind, Loc, Match, Segment, Step
from nardy_analyze.replay import ERROR, replay

NAMES = ("Alice", "Bob")


def steps(text: str) -> list[Step]:
    """``"24/18 13/off"`` -> steps (``off`` = 0, ``bar`` = 25)."""
    out = []
    for tok in text.split():
        a, b = tok.rstrip("*").split("/")
        conv = {"off": 0, "bar": 25}
        out.append(Step(int(conv.get(a, a)), int(conv.get(b, b)), tok.endswith("*")))
    return out


class Rec:
    def __init__(self, variant: str = "backgammon", tags: dict | None = None, length: int = 0):
        self.variant = variant
        self.tags = {"Variant": variant, **(tags or {})}
        self.length = length
        self.actions: list[Action] = []
        self.line = 10

    def _loc(self) -> Loc:
        self.line += 1
        return Loc(self.line, 1)

    def roll(self, p: int, dice: tuple[int, int], play: str = "", segments=(), clock=None) -> Action:
        a = Action(Kind.ROLL, p, self._loc(), move=len(self.actions) // 2 + 1, dice=dice,
                   dice_text=f"{dice[0]}{dice[1]}", steps=steps(play), clock=clock, text=play)
        a.dice_loc = a.loc
        for kind, who, nums, text in segments:
            a.segments.append(Segment(kind, who, tuple(nums), steps(text), self._loc(), text))
        self.actions.append(a)
        return a

    def add(self, a: Action) -> Action:
        """An action built elsewhere (``play_turn``): given fresh lines."""
        a.loc = a.dice_loc = self._loc()
        for seg in a.segments:
            seg.loc = self._loc()
        self.actions.append(a)
        return a

    def cell(self, kind: Kind, p: int, value=None, clock=None) -> Action:
        a = Action(kind, p, self._loc(), value=value, clock=clock, text=kind.value)
        self.actions.append(a)
        return a

    def match(self) -> Match:
        g = Game(1, Loc(1, 1), 1, NAMES, (0, 0), Loc(2, 1), actions=list(self.actions))
        return Match("t.rec", "test", tags=dict(self.tags), match_length=self.length, games=[g])

    def run(self, start=None, observer=None, **options):
        from nardy_analyze.engine import RuleSet
        m = self.match()
        return replay(m, RuleSet.of(options).variant(self.variant, m.tags), start=start, visitor=observer)


def errors(rep) -> list[tuple[str, int]]:
    return [(f.rule, f.line) for f in rep.findings if f.severity == ERROR]


def first_legal(ps):
    return sorted(ps.plays)[0]


def play_turn(rules, pos: list, p: int, dice: tuple[int, int], first_turn: bool, roll_number: int,
              choose=first_legal) -> Action:
    """Play one whole turn legally through the turn driver (mutates ``pos``); segments in which nothing
    can be played are left out, as the generator does."""
    d1, d2 = max(dice), min(dice)
    a = Action(Kind.ROLL, p, Loc(1, 1), dice=dice, dice_text=f"{dice[0]}{dice[1]}")
    drv = rules.turn_segments(d1, d2, first_turn, roll_number)
    first = True
    while (spec := drv.next(pos[p], pos[1 - p])) is not None:
        q = p if spec.player != OPPONENT else 1 - p
        ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
        after = choose(ps) if ps.max_dice else (pos[q], pos[1 - q])
        path = ps.plays.get(after, ())
        st = [Step(s, d) for s, d, _ in path]
        pos[q], pos[1 - q] = after
        drv.played(tuple(d for *_, d in path))
        if first:
            a.steps = st
            first = False
        elif st:
            a.segments.append(Segment(spec.kind, q, tuple(spec.numbers), st, None,
                                      " ".join(f"{x.src}/{x.dst}" for x in st)))
    return a

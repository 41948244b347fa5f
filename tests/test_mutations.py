"""Plant one illegal play in a legal record; the validator must flag exactly that play, with the right rule.

The legal records are the GNU Backgammon self-play fixtures (``tests/fixtures/selfplay``: one step per
die, written in an order that can be played).  Hypothesis picks a roll and a kind of mutation; the mutated
text is validated in-process and must give an error finding at the mutated cell (its line and column) with
the rule expected for that kind, and no error finding on any earlier line.

Every mutation is built so that its verdict is certain, and is confirmed illegal with the engine
(the mover's side it produces, counted checker by checker, is no side a legal play of the roll reaches):

==============  ====================================================================  ================
kind            change                                                                rule
==============  ====================================================================  ================
distance        one step's destination moved so no number (or sum) of the roll         dice-mismatch
                covers its distance
extra-step      a roll that used every number gets one more step at the end            dice-mismatch
drop-step       the last step of a roll that used 2+ numbers is left out               max-dice
no-checker      the first step starts on a point without a checker of the mover        no-checker
                (same distance; no step of the play lands there)
blocked         the first step (same distance) starts on another of the mover's        blocked-point
                points and lands on a point the opponent holds
bar-first       the first step, an entry from the bar, is replaced by a step of        bar-first
                the same number from a point
==============  ====================================================================  ================
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from helpers import ROOT
from nardy_analyze.analyze import validate_paths
from nardy_analyze.engine import legal_results
from record_walk import Roll, read_match, rolls

FIXTURES = ROOT / "tests" / "fixtures" / "selfplay"
BAR, OFF = 25, 0


@dataclass(frozen=True)
class Candidate:
    path: Path
    roll: Roll
    words: tuple[str, ...]          # the written steps, one per step ("6/4*", "25/22")


def _single_steps(text: str, steps) -> tuple[str, ...] | None:
    """The written words of a cell whose every word is one step (``13/11`` or ``6/4*``); else None."""
    words = tuple(text.split()[1:])
    if len(words) != len(steps) or any(w.count("/") != 1 or "(" in w for w in words):
        return None
    return words


@lru_cache(maxsize=None)
def candidates() -> tuple[Candidate, ...]:
    out = []
    for path in sorted(FIXTURES.glob("*.mat")):
        match = read_match(path)
        assert not match.problems and not any(g.problems for g in match.games), path
        for r in rolls(match):
            assert not r.verdict.problems, (path, r.action.loc, r.verdict.problems)   # the fixtures are legal
            words = _single_steps(r.action.text, r.action.steps)
            if r.action.steps and words is not None:
                out.append(Candidate(path, r, words))
    return tuple(out)


def dice_numbers(r: Roll) -> tuple[int, ...]:
    return (r.d1,) * 4 if r.d1 == r.d2 else (r.d1, r.d2)


def sums(r: Roll) -> set[int]:
    """Distances some numbers of the roll cover together."""
    if r.d1 == r.d2:
        return {r.d1 * k for k in range(1, 5)}
    return {r.d1, r.d2, r.d1 + r.d2}


def counted_mover(me, steps) -> tuple[int, ...] | None:
    """The mover's side after ``steps`` by checker counts alone; None if a step starts where no checker is."""
    m = list(me)
    for src, dst in steps:
        m[24 if src == BAR else src - 1] -= 1
        if min(m) < 0:
            return None
        if dst != OFF:
            m[dst - 1] += 1
    return tuple(m)


def confirmed_illegal(r: Roll, steps) -> bool:
    """No legal play of the roll leaves the mover's checkers where ``steps`` leave them."""
    side = counted_mover(r.mover, steps)
    if side is None:
        return True
    return side not in {pos[0] for pos in legal_results("backgammon", r.mover, r.opponent, (r.d1, r.d2))}


def opp_holds(r: Roll, point: int) -> bool:
    return 1 <= point <= 24 and r.opponent[24 - point] >= 2


def step_die(src: int, dst: int) -> int:
    return src - dst


# --- mutations: (candidate, choice) -> (index of the first changed word, new words, expected rule) or None

def m_distance(c: Candidate, choice: int):
    r = c.roll
    options = []
    for j, (src, dst) in enumerate(r.steps):
        if dst == OFF:
            continue
        options += [(j, src, new) for new in range(1, min(src, 25)) if new != dst and src - new not in sums(r)]
    if not options:
        return None
    j, src, new = options[choice % len(options)]
    words = list(c.words)
    words[j] = f"{src}/{new}"
    return words, "dice-mismatch"


def m_extra(c: Candidate, choice: int):
    r = c.roll
    if len(r.steps) != len(dice_numbers(r)) or r.verdict.used != dice_numbers(r):
        return None                                       # the play did not use every number
    after = r.verdict.after[0]
    options = [(s, s - d) for d in sorted(set(dice_numbers(r))) for s in range(1, 25)
               if after[s - 1] and s - d >= 1]
    if not options:
        return None
    src, dst = options[choice % len(options)]
    return list(c.words) + [f"{src}/{dst}"], "dice-mismatch"


def m_drop(c: Candidate, choice: int):
    r = c.roll
    if len(r.steps) < 2 or len(r.verdict.used) != len(r.steps):
        return None
    return list(c.words[:-1]), "max-dice"


def _first_step_die(c: Candidate):
    src, dst = c.roll.steps[0]
    if dst == OFF:
        return None
    return src, dst, step_die(25 if src == BAR else src, dst)


def m_no_checker(c: Candidate, choice: int):
    r = c.roll
    first = _first_step_die(c)
    if first is None or r.mover[24]:
        return None
    _, _, d = first
    landed = {dst for _, dst in r.steps}
    options = [p for p in range(d + 1, 25) if not r.mover[p - 1] and p not in landed]
    if not options:
        return None
    p = options[choice % len(options)]
    return [f"{p}/{p - d}"] + list(c.words[1:]), "no-checker"


def m_blocked(c: Candidate, choice: int):
    r = c.roll
    first = _first_step_die(c)
    if first is None or r.mover[24]:
        return None
    _, _, d = first
    options = [s for s in range(d + 1, 25) if r.mover[s - 1] and opp_holds(r, s - d)]
    if not options:
        return None
    s = options[choice % len(options)]
    return [f"{s}/{s - d}"] + list(c.words[1:]), "blocked-point"


def m_bar_first(c: Candidate, choice: int):
    r = c.roll
    first = _first_step_die(c)
    if first is None or first[0] != BAR or not r.mover[24]:
        return None
    _, _, d = first
    options = [s for s in range(d + 1, 25) if r.mover[s - 1] and not opp_holds(r, s - d)]
    if not options:
        return None
    s = options[choice % len(options)]
    return [f"{s}/{s - d}"] + list(c.words[1:]), "bar-first"


MUTATIONS = {
    "distance": m_distance,
    "extra-step": m_extra,
    "drop-step": m_drop,
    "no-checker": m_no_checker,
    "blocked": m_blocked,
    "bar-first": m_bar_first,
}


@lru_cache(maxsize=None)
def eligible(kind: str) -> tuple[Candidate, ...]:
    return tuple(c for c in candidates() if MUTATIONS[kind](c, 0) is not None)


def parse_words(words) -> list[tuple[int, int]]:
    return [tuple(int(x.rstrip("*")) for x in w.split("/")) for w in words]


def mutated_text(c: Candidate, words) -> str:
    """The record's text with the roll's cell rewritten (kept at least as long, so columns stay put)."""
    a = c.roll.action
    lines = c.path.read_text().split("\n")
    line = lines[a.loc.line - 1]
    start = a.loc.column - 1
    assert line[start:start + len(a.text)] == a.text, (line, a.text)
    cell = f"{a.dice_text}: " + " ".join(words)
    cell = cell.ljust(len(a.text))
    lines[a.loc.line - 1] = line[:start] + cell + line[start + len(a.text):]
    return "\n".join(lines)


def test_every_kind_has_candidates():
    for kind in MUTATIONS:
        assert len(eligible(kind)) >= 5, (kind, len(eligible(kind)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_planted_illegal_play_is_flagged_at_its_line(tmp_path_factory, data):
    kind = data.draw(st.sampled_from(sorted(MUTATIONS)), label="kind")
    pool = eligible(kind)
    c = pool[data.draw(st.integers(0, len(pool) - 1), label="roll")]
    choice = data.draw(st.integers(0, 10_000), label="choice")
    words, rule = MUTATIONS[kind](c, choice)
    steps = parse_words(words)
    assume(confirmed_illegal(c.roll, steps))

    a = c.roll.action
    path = tmp_path_factory.mktemp("mutant") / c.path.name
    path.write_text(mutated_text(c, words))
    run = validate_paths([str(path)])
    findings = run.findings
    what = (f"{kind}: {c.path.name} line {a.loc.line} col {a.loc.column}: {a.text!r} -> {' '.join(words)!r}; "
            f"findings: {[(f.line, f.column, f.rule, f.severity, f.message) for f in findings[:4]]}")
    assert not [f for f in findings if f.rule == "parse-error"], what
    assert len(run.reports) == 1 and len(run.reports[0].games) == len(read_match(c.path).games), what
    errors = [f for f in findings if f.severity == "error"]
    assert not [f for f in errors if f.line < a.loc.line], what
    at = [f for f in errors if f.line == a.loc.line and f.column == a.loc.column]
    assert at, what
    assert at[0].rule == rule, what
    # the left cell of the same row, when the right one was changed, is still fine
    assert not [f for f in errors if f.line == a.loc.line and f.column < a.loc.column], what

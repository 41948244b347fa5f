"""Judge one recorded play against the legal plays of its roll.

A recorded play is a list of written movements ``(src, dst)`` in the mover's numbering, each
possibly spanning several dice (``13/6`` for 61).  Judging is by the position produced: any
order of the written steps and any way of splitting a combined movement into dice is only
spelling.  When the play cannot be made at all, the first written step that cannot be played is
diagnosed with the rule it breaks.
"""
from __future__ import annotations

from dataclasses import field
from ..shapes import dataclass
from .core import BAR, OFF, Dice, PlaySet, Pos, RuleResult, Rules, Side, exact_steps, fmt_point, generate
from ..i18n import _, ngettext, pgettext, roll_text


@dataclass(slots=True)
class Verdict:
    after: Pos                                   # the position as recorded (physically applied)
    playset: PlaySet | None                      # None when the play used every number (no need to list)
    problems: list[RuleResult] = field(default_factory=list)   # the rules broken (worded by problem_text)
    hits: int = 0
    borne_off: int = 0
    used: tuple[int, ...] = ()                   # numbers used, when the play could be made

    @property
    def legal(self) -> bool:
        return not self.problems


def _dice_splits(remaining: tuple[int, ...], src: int, dst: int):
    """Sequences of unused numbers that could carry a checker from src to dst (by sum alone).

    Shortest first, and in the order of the unused numbers; distinct sequences only.  A depth-first
    search pruned by the distance (every number is positive), so that the sixteen numbers of a Gul
    bara chain do not make it explode into permutations.
    """
    dist = src - dst
    found: list[tuple[int, ...]] = []

    def go(prefix: tuple[int, ...], total: int, left: list[int]) -> None:
        tried = set()
        for i, d in enumerate(left):
            if d in tried:
                continue
            tried.add(d)
            t = total + d
            seq = prefix + (d,)
            if dst != OFF:
                if t == dist:
                    found.append(seq)
                elif t < dist:
                    go(seq, t, left[:i] + left[i + 1:])
            elif t >= dist:
                found.append(seq)
            else:
                go(seq, t, left[:i] + left[i + 1:])

    if dist > 0:
        go((), 0, list(remaining))
    found.sort(key=len)
    yield from found


def _remove(remaining: tuple[int, ...], seq: tuple[int, ...]) -> tuple[int, ...]:
    r = list(remaining)
    for d in seq:
        r.remove(d)
    return tuple(r)


def _walk(rules: Rules, me: Side, opp: Side, turn, src: int, dst: int, seq: tuple[int, ...], legal_only: bool):
    """Carry one checker from src along ``seq``; return (me, opp, turn, hits, problem-or-None)."""
    cur, hits = src, 0
    for i, die in enumerate(seq):
        nxt = OFF if (i == len(seq) - 1 and dst == OFF) else (cur - die if cur != BAR else 25 - die)
        if nxt < 0:
            nxt = OFF
        prob = rules.step_problem(me, opp, cur, nxt, die, turn)
        if prob:
            if legal_only:
                return None
            return me, opp, turn, hits, prob
        turn = rules.after_step(turn, me, cur, nxt)
        me, opp, hit = rules.apply(me, opp, cur, nxt)
        hits += hit
        cur = nxt
    return me, opp, turn, hits, None


def _realise(rules, me, opp, remaining, steps, order_free, turn=None):
    """Depth-first: every way to make all written steps legally.  Yields (me, opp, hits, used)."""
    if not steps:
        yield me, opp, 0, ()
        return
    choices = range(len(steps)) if order_free else (0,)
    tried = set()
    for i in choices:
        src, dst = steps[i]
        if (src, dst) in tried:
            continue
        tried.add((src, dst))
        rest = steps[:i] + steps[i + 1:]
        for seq in _dice_splits(remaining, src, dst):
            r = _walk(rules, me, opp, turn, src, dst, seq, legal_only=True)
            if r is None:
                continue
            m2, o2, t2, hits, _ = r
            for m3, o3, h3, used in _realise(rules, m2, o2, _remove(remaining, seq), rest, order_free, t2):
                yield m3, o3, hits + h3, seq + used


def _furthest(rules, me, opp, remaining, steps, turn=None):
    """Written order: how far the steps go legally; (index of failing step, me, opp, remaining, turn)."""
    best = (0, me, opp, remaining, turn)

    def go(i, m, o, rem, t):
        nonlocal best
        if i > best[0]:
            best = (i, m, o, rem, t)
        if i == len(steps):
            return
        src, dst = steps[i]
        for seq in _dice_splits(rem, src, dst):
            r = _walk(rules, m, o, t, src, dst, seq, legal_only=True)
            if r is not None:
                go(i + 1, r[0], r[1], _remove(rem, seq), r[2])

    go(0, me, opp, remaining, turn)
    return best


def _diagnose(rules, me, opp, remaining, src, dst, dice: Dice, turn=None) -> RuleResult:
    """The rule the written step ``src/dst`` breaks, the first that cannot be played in the written order."""
    step = f"{fmt_point(src)}/{fmt_point(dst)}"
    if not remaining:
        return RuleResult("dice-mismatch", "more-steps", {"step": step, "dice": dice})
    splits = list(_dice_splits(remaining, src, dst))
    if not splits:
        return RuleResult("dice-mismatch", "no-number",
                          {"step": step, "n": src - dst, "dice": dice, "unused": "-".join(map(str, remaining))})
    first = None
    for seq in splits:
        r = _walk(rules, me, opp, turn, src, dst, seq, legal_only=False)
        if r[4]:
            first = first or r[4]
    if first:
        return RuleResult(first.rule, "step", {"step": step, "problem": first})
    return RuleResult("dice-mismatch", "cannot", {"step": step, "dice": dice})


def problem_text(rules: Rules, problem: RuleResult) -> str:
    """The message of a rule a recorded play breaks (one of ``Verdict.problems``), in the current language:
    what the replay shows (a written step's own problem worded by the variant: ``Rules.step_text``)."""
    case, p = problem.case, problem.params
    if case == "step":
        return f"{p['step']}: {rules.step_text(p['problem'])}"
    if case == "more-steps":
        # TRANSLATORS: {step}: a written step ("13/7"); {dice}: the roll ("64", or numbers "5-5-5")
        return _("{step}: the play has more steps than the roll {dice} allows").format(
            step=p["step"], dice=_dice_text(p["dice"]))
    if case == "no-number":
        # TRANSLATORS: {unused}: the numbers of the roll not used yet ("6-4")
        return ngettext(
            "{step} moves {n} pips, which no unused number of the roll {dice} makes (unused: {unused})",
            "{step} moves {n} pips, which no unused number of the roll {dice} makes (unused: {unused})",
            p["n"]).format(step=p["step"], n=p["n"], dice=_dice_text(p["dice"]), unused=p["unused"])
    if case == "cannot":
        return _("{step} cannot be played with the roll {dice}").format(step=p["step"], dice=_dice_text(p["dice"]))
    dice, eg = p["dice"], p["examples"]
    if case == "max-dice":
        # TRANSLATORS: {played}: what was played ("played 6 only"); {need}: what the rules required
        # ("6 and 5 could both be played"); {examples}: legal plays ("24/18 18/13; 13/7 13/8")
        return _("{played}; {need}, e.g. {examples}").format(
            played=_describe_used(p["used"]), need=_need(dice, p["most"]), examples=eg)
    if case == "larger-die":
        return _("played the {smaller} only; only one number can be used and the larger "
                 "{larger} can, e.g. {examples}").format(smaller=min(dice.d1, dice.d2), larger=max(dice.d1, dice.d2),
                                                         examples=eg)
    if case == "elsewhere":
        return _("the play reaches a position no legal play of {dice} reaches, e.g. "
                 "{examples}").format(dice=_dice_text(dice), examples=eg)
    return rules.step_text(problem)


def _need(dice: Dice, most: int) -> str:
    """What the maximum-dice rule required of ``dice``, when ``most`` numbers could be played."""
    if dice.plain:
        if most == 2:
            return _("{a} and {b} could both be played").format(a=dice.d1, b=dice.d2)
        return ngettext("{n} numbers could be played", "{n} numbers could be played", most).format(n=most)
    return _could_play(most, len(dice.numbers), dice.d1)


def physical(rules: Rules, me: Side, opp: Side, steps) -> tuple[Pos, int]:
    """Apply the written steps as far as physically possible (for replay after an illegal play)."""
    hits = 0
    for src, dst in steps:
        idx = 24 if src == BAR else src - 1
        if not (0 <= idx <= 24) or me[idx] == 0:
            continue
        if dst != OFF and (dst < 1 or dst > 24 or rules.closed(opp, dst)):
            continue
        me, opp, hit = rules.apply(me, opp, src, dst)
        hits += hit
    return (me, opp), hits


def _describe_used(used: tuple[int, ...]) -> str:
    """What a play used, as the first clause of a ``max-dice`` message ("played 6 only")."""
    if not used:
        return _("played nothing")
    if len(used) == 1:
        # TRANSLATORS: {number}: the one number of the roll played ("played 6 only")
        return _("played {number} only").format(number=used[0])
    if len(set(used)) == 1 and len(used) in (2, 3):
        # TRANSLATORS: {dice}: the numbers of a double as after "four" ("played only two 6s", "только две шестёрки")
        text = _("played only two {dice}") if len(used) == 2 else _("played only three {dice}")
        return text.format(dice=dice_word(used[0], True))
    if len(used) == 2:
        return _("played {a} and {b} only").format(a=used[0], b=used[1])
    # TRANSLATORS: {numbers}: the numbers played, "5-5-5"
    return _("played {numbers} only").format(numbers="-".join(map(str, used)))


def dice_word(d: int, one: bool) -> str:
    """The numbers ``d`` of a double as a word ("5s") for messages: ``one``: after "the one" and "four"
    ("of the one 5s", "four 5s"), else after "of the two/three/four" (Russian puts them in other cases)."""
    if not 1 <= d <= 6:
        return f"{d}s"
    if one:
        return (pgettext("as in 'of the one 1s', 'four 1s'", "1s"),
                pgettext("as in 'of the one 2s', 'four 2s'", "2s"),
                pgettext("as in 'of the one 3s', 'four 3s'", "3s"),
                pgettext("as in 'of the one 4s', 'four 4s'", "4s"),
                pgettext("as in 'of the one 5s', 'four 5s'", "5s"),
                pgettext("as in 'of the one 6s', 'four 6s'", "6s"))[d - 1]
    return (pgettext("as in 'of the four 1s'", "1s"),
            pgettext("as in 'of the four 2s'", "2s"),
            pgettext("as in 'of the four 3s'", "3s"),
            pgettext("as in 'of the four 4s'", "4s"),
            pgettext("as in 'of the four 5s'", "5s"),
            pgettext("as in 'of the four 6s'", "6s"))[d - 1]


def _could_play(n: int, count: int, d: int) -> str:
    """``n`` of the ``count`` numbers ``d`` (a double, a handover of one number) could be played."""
    if count == 1:
        return _("{n} of the one {dice} could be played").format(n=n, dice=dice_word(d, True))
    if count == 2:
        return _("{n} of the two {dice} could be played").format(n=n, dice=dice_word(d, False))
    if count == 3:
        return _("{n} of the three {dice} could be played").format(n=n, dice=dice_word(d, False))
    if count == 4:
        return _("{n} of the four {dice} could be played").format(n=n, dice=dice_word(d, False))
    return _("{n} of the {count} {dice} could be played").format(n=n, count=count, dice=dice_word(d, False))


def _by_counts(rules: Rules, me: Side, opp: Side, steps) -> Pos | None:
    """The position the written steps describe, in any order that has a checker for each step; None if
    no order does.  Hits are made where a step ends (a combined move that hit on its way is settled
    against the legal plays by the caller)."""
    pending = list(steps)
    while pending:
        for i, (src, dst) in enumerate(pending):
            if 1 <= src <= 25 and 0 <= dst <= 24 and me[24 if src == BAR else src - 1]:
                me, opp, _ = rules.apply(me, opp, src, dst)
                del pending[i]
                break
        else:
            return None
    return me, opp


def as_written(rules: Rules, me: Side, opp: Side, numbers: tuple[int, ...], steps, turn, bear_off: bool = False):
    """The recorded play first: when there is one written step per number (a plain roll's two, or numbers
    all alike), each exactly one unused number long (``bear_off``: or bearing off with an unused number at
    least as large) and legal in the written order, ``(me, opp, hits, numbers used)`` after it; None
    otherwise (then the general search decides).  Each such step has exactly one way to be played (a plain
    roll's two numbers together are longer than either; a double's are all alike), so this is what the
    search would find first, without generating anything: the check that ``judge``, ``route`` and the
    replay's quick turn make first.  By the rules object's ``play_exact`` (:func:`core.exact_steps`, or the
    same walk written for its geometry: ``Backgammon.play_exact``, the compiled core)."""
    if len(steps) != len(numbers) or numbers not in _ONE_WAY:
        return None
    return rules.play_exact(me, opp, numbers, steps, turn, bear_off)


# the numbers whose written steps have one way each to be played: none, one or two numbers, or three or four
# alike (asked once per roll of a record: a set lookup, not a count)
_ONE_WAY = frozenset([()] + [(a,) for a in range(1, 7)] + [(a, b) for a in range(1, 7) for b in range(1, 7)]
                     + [(a,) * n for a in range(1, 7) for n in (3, 4)])


def judge(rules: Rules, me: Side, opp: Side, dice: Dice, steps: list[tuple[int, int]],
          playset: PlaySet | None = None, turn=None, hit_marks: list[bool] | None = None) -> Verdict:
    """Judge the written ``steps`` of ``dice`` (a roll, or numbers to play as they are: a Gul bara handover
    or chain segment) from (me, opp); ``turn`` is the variant's turn state.

    ``hit_marks``: the ``*`` written on each step.  A ``*`` that no step's end explains (``41: 8/3*`` with
    the blot on 7) says the combined move hit on its way: a route with that hit is taken when one exists.
    """
    full = dice.numbers
    steps = list(steps)
    if playset is None:
        # the recorded play of nearly every turn.  A bear-off may be made by more than one number: without
        # a "*" written, every way reaches the same position, and the first is taken, as below.
        exact = as_written(rules, me, opp, full, steps, turn, not any(hit_marks or ()))
        if exact is not None:
            m, o, hits, used = exact
            return Verdict((m, o), None, [], hits, _off(me, m), used)
    counted = _by_counts(rules, me, opp, steps)
    # hits the written ends make, and whether more were marked: then prefer a route that hits on its way
    end_hits = counted[1][24] - opp[24] if counted is not None else 0
    marked = len({st for st, h in zip(steps, hit_marks or ()) if h})
    on_way = counted is not None and marked > end_hits
    if playset is None and len(steps) <= 4:
        first = _every_number(rules, me, opp, full, steps, turn, counted, on_way, end_hits)
        if first is not None:
            m, o, hits, used = first
            return Verdict((m, o), None, [], hits, _off(me, m), used)
    ps = playset or generate(rules, me, opp, full, turn)
    # A legal play is judged by the position it produces.
    if counted is not None:
        if on_way:       # a "*" on a combined move: the route that hits on its way, when there is one
            hitting = [pos for pos in ps.plays if pos[0] == counted[0] and pos[1][24] > counted[1][24]]
            if hitting:
                return _ok(me, opp, hitting[0], ps, steps)
        if counted in ps:
            return _ok(me, opp, counted, ps, steps)
        same_mover = [pos for pos in ps.plays if pos[0] == counted[0]]
        if same_mover:   # a combined move that hit on its way
            return _ok(me, opp, same_mover[0], ps, steps)
    return _illegal(rules, me, opp, ps, steps, turn, dice)


def _dice_text(dice: Dice) -> str:
    """The dice as messages spell them: a roll as the language writes it ("64"), numbers as "5-5-5"."""
    if dice.rolled:
        return roll_text(dice.d1, dice.d2)
    return "-".join(map(str, dice.numbers)) or _("(none)")


def _every_number(rules: Rules, me: Side, opp: Side, full, steps, turn, counted, on_way: bool, end_hits: int):
    """Fast path: written steps that legally use every number of the roll form a legal play (nothing can
    use more numbers, and the larger-die rule only matters when one is used): (me, opp, hits, used), or
    None.  A combined move (13/6 for 61) may pass a blot: prefer the way that hits only where written."""
    first = None
    for n, (m, o, hits, used) in enumerate(_realise(rules, me, opp, full, steps, False, turn)):
        if len(used) != len(full):
            break
        if on_way and hits > end_hits:
            return m, o, hits, used
        if counted is None or (m, o) == counted:
            first = (m, o, hits, used)
            if not on_way:
                break
        else:
            first = first or (m, o, hits, used)
        if n >= 16:
            break
    return first


def _illegal(rules: Rules, me: Side, opp: Side, ps: PlaySet, steps, turn, dice: Dice) -> Verdict:
    """The verdict on written steps whose position the checks above did not find among the legal plays:
    a route of the steps that reaches a legal play, else the route using the most numbers and the rule
    the play breaks."""
    numbers = ps.dice
    reached: list[tuple] = []
    for m, o, hits, used in _realise(rules, me, opp, numbers, steps, True, turn):
        if (m, o) in ps:
            return Verdict((m, o), ps, [], hits, _off(me, m), used)
        reached.append((m, o, hits, used))
        if len(reached) > 64:
            break
    if reached:
        m, o, hits, used = max(reached, key=lambda r: len(r[3]))
        eg = "; ".join(ps.example(2))
        if len(used) < ps.max_dice:
            problem = RuleResult("max-dice", "max-dice", {"used": used, "most": ps.max_dice, "dice": dice,
                                                          "examples": eg})
        elif ps.larger_only:
            problem = RuleResult("larger-die", "larger-die", {"dice": dice, "examples": eg})
        else:  # the same number of dice, yet another position: should not happen, say what we know
            problem = RuleResult("max-dice", "elsewhere", {"dice": dice, "examples": eg})
        return Verdict((m, o), ps, [problem], hits, _off(me, m), used)
    i, m, o, rem, t = _furthest(rules, me, opp, numbers, steps, turn)
    src, dst = steps[i] if i < len(steps) else steps[-1]
    problem = _diagnose(rules, m, o, rem, src, dst, dice, t)
    after, hits = physical(rules, me, opp, steps)
    return Verdict(after, ps, [problem], hits, _off(me, after[0]))


def _ok(me: Side, opp: Side, after: Pos, ps: PlaySet, steps) -> Verdict:
    hits = max(0, after[1][24] - opp[24])
    # the numbers used: all of them, or those of a legal way to reach the position (which of a roll's
    # numbers were left unused decides a Gul bara handover)
    used = ps.dice if ps.max_dice == len(ps.dice) else tuple(d for _, _, d in ps.plays[after])
    return Verdict(after, ps, [], hits, _off(me, after[0]), used)


def _off(before: Side, after: Side) -> int:
    return sum(before) - sum(after)


def route(rules: Rules, me: Side, opp: Side, dice: Dice, steps, after: Pos,
          turn=None) -> tuple[tuple[int, int, bool], ...] | None:
    """The play that leads from (me, opp) to ``after`` with ``dice``, one die per step: ``(src, dst, hit)``
    in the mover's numbering (``13/6`` of 61 becomes ``13/7 7/6`` or ``13/12 12/6``, whichever the rules
    allow, hitting where the engine hits).  The written ``steps`` are followed in their order where they
    lead there; otherwise any legal way to reach ``after``.  None when no legal play reaches ``after``."""
    steps = [(s, d) for s, d in steps]
    full = dice.numbers
    # the recorded play first: the first way _realise_route finds
    exact = as_written(rules, me, opp, full, steps, turn, True)
    if exact is not None and (exact[0], exact[1]) == after:
        return with_hits(rules, me, opp, steps)
    # the written steps in their order, split into single steps (the first 33 ways)
    for n, (m, o, _, used) in enumerate(_realise_route(rules, me, opp, full, steps, turn)):
        if (m, o) == after:
            return with_hits(rules, me, opp, used)
        if n >= 32:
            break
    # any legal way to reach it
    path = generate(rules, me, opp, full, turn).plays.get(after)
    if path is None:
        return None
    return with_hits(rules, me, opp, [(s, d) for s, d, _ in path])


def _realise_route(rules, me, opp, remaining, steps, turn):
    """Like _realise in written order, yielding the single steps ``(src, dst)`` taken."""
    if not steps:
        yield me, opp, turn, []
        return
    src, dst = steps[0]
    for seq in _dice_splits(remaining, src, dst):
        cur, m, o, t, path, ok = src, me, opp, turn, [], True
        for i, die in enumerate(seq):
            nxt = OFF if (i == len(seq) - 1 and dst == OFF) else (cur - die if cur != BAR else 25 - die)
            if nxt < 0:
                nxt = OFF
            if rules.step_problem(m, o, cur, nxt, die, t):
                ok = False
                break
            t = rules.after_step(t, m, cur, nxt)
            m, o, _ = rules.apply(m, o, cur, nxt)
            path.append((cur, nxt))
            cur = nxt
        if not ok:
            continue
        for m3, o3, t3, rest in _realise_route(rules, m, o, _remove(remaining, seq), steps[1:], t):
            yield m3, o3, t3, path + rest


def with_hits(rules, me, opp, path) -> tuple[tuple[int, int, bool], ...]:
    return rules.hit_flags(me, opp, path)       # the generic walk, or the same flags without the positions

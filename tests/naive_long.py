"""A deliberately naive second generator of long-nardy and Gul bara plays, written from docs/rules.md
sections 2 and 3 without the engine's code: absolute board squares, every ordering of the numbers,
every checker, the whole board checked for blocks after each step, then the maximum-dice and
larger-die conventions.  Used by the differential tests only.

Board: 24 squares, 0..23.  The mover's point p sits on square 24 - p (their head, 24, on square 0);
the opponent's point q on square (36 - q) % 24 (their head on square 12).  Both move to higher squares.
"""
from __future__ import annotations

import random
from itertools import permutations


def sq_mover(p: int) -> int:
    return 24 - p


def sq_opp(q: int) -> int:
    return (36 - q) % 24


def opponent_on_square(opp, square: int) -> int:
    for q in range(1, 25):
        if sq_opp(q) == square:
            return opp[q - 1]
    raise AssertionError(square)


def opponent_route() -> list[int]:
    """The squares the opponent travels, in order: their 24 first, their 1 last."""
    return [sq_opp(q) for q in range(24, 0, -1)]


def illegal_block(me, opp) -> bool:
    """Some six squares in a row of the opponent's route all held by the mover, with no opposing checker
    after them on the route and none borne off."""
    route = opponent_route()
    held = {sq_mover(p) for p in range(1, 25) if me[p - 1] > 0}
    off = 15 - sum(opp)
    for i in range(0, len(route) - 5):
        if all(route[i + k] in held for k in range(6)):
            past = sum(opponent_on_square(opp, s) for s in route[i + 6:])
            if past == 0 and off == 0:
                return True
    return False


def step_ok(me, opp, src: int, die: int, heads_left: int, heads_allowed: int, gulbara: bool):
    """The new side after moving a checker from src by die, or None if docs/rules.md forbids it."""
    if me[src - 1] == 0:
        return None
    if src == 24 and heads_left >= heads_allowed:
        return None
    dst = src - die
    new = list(me)
    new[src - 1] -= 1
    if dst >= 1:
        if gulbara and src <= 6:
            return None                       # home freeze
        if opponent_on_square(opp, sq_mover(dst)) > 0:
            return None                       # closed point
        new[dst - 1] += 1
    else:
        if any(me[p - 1] for p in range(7, 25)):
            return None                       # not all home
        if dst < 0:
            if gulbara:
                return None                   # exact only
            if any(me[p - 1] for p in range(src + 1, 7)):
                return None                   # a checker stands higher
    new = tuple(new)
    if illegal_block(new, opp):
        return None
    return new


def naive_plays(me, opp, numbers, *, gulbara: bool, heads_left: int = 0, heads_allowed: int = 1):
    """Set of (mover, opponent) results of the legal plays of ``numbers`` (a tuple of numbers to play)."""
    me, opp = tuple(me), tuple(opp)
    plays = []          # (resulting side, numbers used in order)
    for order in set(permutations(numbers)):
        states = {(me, heads_left, ())}
        plays.append((me, ()))
        for die in order:
            nxt = set()
            for side, left, used in states:
                for src in range(1, 25):
                    new = step_ok(side, opp, src, die, left, heads_allowed, gulbara)
                    if new is not None:
                        nxt.add((new, left + (src == 24), used + (die,)))
            for side, _left, used in nxt:
                plays.append((side, used))
            states = nxt
    most = max(len(u) for _, u in plays)
    best = [(s, u) for s, u in plays if len(u) == most]
    if most == 1 and len(set(numbers)) > 1:
        big = max(numbers)
        with_big = [(s, u) for s, u in best if u[0] == big]
        if with_big:
            best = with_big
    return {(s, opp) for s, _ in best}


def first_turn_allowed(d1: int, d2: int, first_turn: bool) -> int:
    return 2 if first_turn and d1 == d2 and d1 in (6, 4, 3) else 1


def naive_legal(variant: str, me, opp, dice, first_turn: bool = False):
    d1, d2 = dice
    numbers = (d1,) * 4 if d1 == d2 else (d1, d2)
    return naive_plays(me, opp, numbers, gulbara=variant == "gulbara",
                       heads_allowed=first_turn_allowed(d1, d2, first_turn))


# -- positions that make the rules bite ----------------------------------------------------------------

def mover_point_of_square(s: int) -> int:
    return 24 - s


def opp_point_of_square(s: int) -> int:
    for q in range(1, 25):
        if sq_opp(q) == s:
            return q
    raise AssertionError(s)


def _fill(rng, side: list, points: list[int], n: int) -> None:
    for _ in range(n):
        side[rng.choice(points) - 1] += 1


def _opponent(rng, me, squares: list[int], n: int, off: int = 0) -> tuple:
    """n opposing checkers on the given squares not held by the mover (15 - n - off go on their head
    when it is free, else on any free square)."""
    free = [s for s in squares if me[mover_point_of_square(s) - 1] == 0]
    opp = [0] * 25
    rest = 15 - off
    if free:
        for _ in range(min(n, rest)):
            opp[opp_point_of_square(rng.choice(free)) - 1] += 1
        rest -= min(n, rest)
    if rest:
        head_sq = sq_opp(24)
        if me[mover_point_of_square(head_sq) - 1] == 0:
            opp[23] += rest
        else:
            anywhere = [s for s in range(24) if me[mover_point_of_square(s) - 1] == 0]
            for _ in range(rest):
                opp[opp_point_of_square(rng.choice(anywhere)) - 1] += 1
    return tuple(opp)


def synthetic(rng, kind: str):
    """A (mover, opponent) position of one of the kinds: run5, run6, cross, bearoff, freeze, head, random.
    The mover never starts with an illegal block (the engine checks blocks through the landing point)."""
    for _ in range(1000):
        me = [0] * 25
        route = opponent_route()
        if kind in ("run5", "run6", "cross"):
            length = 5 if kind != "run6" else 6
            if kind == "cross":
                i = rng.randint(7, 11)            # the window covers route index 11/12: mover's 1 and 24
            else:
                i = rng.randint(0, 24 - length)
            block = route[i:i + length]
            pts = [mover_point_of_square(s) for s in block]
            for p in pts:
                me[p - 1] += 1
            # checkers that can reach either end of the run with one die
            for end in ([route[i - 1]] if i > 0 else []) + ([route[i + length]] if i + length < 24 else []):
                tp = mover_point_of_square(end)
                srcs = [tp + d for d in range(1, 7) if tp + d <= 24]
                if srcs:
                    _fill(rng, me, srcs, rng.randint(1, 2))
            left = 15 - sum(me)
            _fill(rng, me, [24] * 3 + list(range(7, 25)), left)
            before = route[:max(i - 1, 0)]
            after = route[i + length + 1:]
            mode = rng.choice(("none-past", "none-past", "past", "off"))
            if mode == "past" and after:
                opp = list(_opponent(rng, me, before, rng.randint(0, 5)))
                free = [s for s in after if me[mover_point_of_square(s) - 1] == 0]
                if not free or opp[23] == 0:
                    continue
                opp[23] -= 1
                opp[opp_point_of_square(rng.choice(free)) - 1] += 1
                opp = tuple(opp)
            elif mode == "off":
                opp = _opponent(rng, me, before, rng.randint(0, 5), off=rng.randint(1, 3))
            else:
                opp = _opponent(rng, me, before, rng.randint(0, 6))
        elif kind == "bearoff":
            _fill(rng, me, rng.sample(range(1, 7), rng.randint(1, 4)), rng.randint(1, 15))
            opp = _opponent(rng, me, list(range(24)), rng.randint(0, 15), off=rng.randint(0, 14))
        elif kind == "freeze":
            _fill(rng, me, list(range(1, 7)), rng.randint(5, 13))
            _fill(rng, me, list(range(7, 14)), 15 - sum(me) - rng.randint(0, 1))
            opp = _opponent(rng, me, list(range(24)), rng.randint(0, 15))
        elif kind == "head":
            me[23] = rng.randint(8, 14)
            _fill(rng, me, list(range(13, 24)), 15 - me[23])
            opp = _opponent(rng, me, [sq_opp(q) for q in range(13, 25)], rng.randint(0, 6))
        else:
            _fill(rng, me, list(range(1, 25)), 15 - rng.choice((0, 0, 0, 2, 5)))
            opp = _opponent(rng, me, list(range(24)), rng.randint(0, 15), off=rng.choice((0, 0, 3)))
        me = tuple(me)
        if sum(me) > 15 or any(me[p - 1] and opponent_on_square(opp, sq_mover(p)) for p in range(1, 25)):
            continue
        if illegal_block(me, opp):
            continue
        return me, opp
    raise AssertionError(f"could not build a {kind} position")


KINDS = ("run5", "run6", "cross", "bearoff", "freeze", "head", "random")


def walk_segments(rules, match, on_segment):
    """Replay a generated match segment by segment through the variant's turn driver, calling
    ``on_segment(spec, me, opp, after, steps, first_turn, dice)`` for each segment (``after`` the position
    the record reached, the unchanged one when the record has no such segment).  Checks nothing itself."""
    from nardy_analyze.engine import OPPONENT
    from nardy_analyze.record import Kind
    for game in match.games:
        pos = list(rules.initial())
        rolled = [0, 0]
        rolls = 0
        for a in game.actions:
            if a.kind != Kind.ROLL:
                continue
            rolls += 1
            p = a.player
            d1, d2 = max(a.dice), min(a.dice)
            first = rolled[p] == 0
            drv = rules.turn_segments(d1, d2, first, rolls)
            rolled[p] += 1
            parts = [("roll", p, None, a.steps)] + [(s.kind, s.player, s.dice, s.steps) for s in a.segments]
            k = 0
            while (spec := drv.next(pos[p], pos[1 - p])) is not None:
                q = p if spec.player != OPPONENT else 1 - p
                steps = []
                if k < len(parts) and parts[k][0] == spec.kind and parts[k][1] == q and \
                        (parts[k][2] is None or tuple(parts[k][2]) == spec.numbers):
                    steps = parts[k][3]
                    k += 1
                me, opp = pos[q], pos[1 - q]
                m, used = list(me), []
                for s in steps:
                    m[s.src - 1] -= 1
                    if s.dst:
                        m[s.dst - 1] += 1
                    used.append(s.src - s.dst if s.dst else None)
                after = (tuple(m), opp)
                on_segment(spec, me, opp, after, steps, first and spec.kind == "roll", (d1, d2))
                # the die of a bear-off: the smallest unused number that reaches off
                nums = list(spec.numbers)
                real = []
                for s, u in zip(steps, used):
                    if u is None:
                        u = min((n for n in nums if n >= s.src), default=None)
                        if u is None:
                            break
                    nums.remove(u)
                    real.append(u)
                pos[q], pos[1 - q] = after
                drv.played(tuple(real))
            assert k == len(parts), f"game {game.number}: record segments not asked for by the driver"


ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def differential(variant: str, seed: int, games: int, synthetic_n: int) -> int:
    """Compare the engine with the naive generator on positions of generated games (every segment,
    with its turn state; each generated play must be one of the naive legal plays) and on synthetic
    positions; returns how many positions were compared."""
    from nardy_analyze.engine import generate, get_variant, legal_results
    from nardy_analyze.engine.long import START
    from nardy_analyze.generate import generate_match
    rules = get_variant(variant).rules
    n = 0

    def check(spec, me, opp, after, steps, first_turn, dice):
        nonlocal n
        ours = set(generate(rules, me, opp, spec.numbers, spec.turn).plays)
        naive = naive_plays(me, opp, spec.numbers, gulbara=variant == "gulbara",
                            heads_left=spec.turn[0], heads_allowed=spec.turn[1])
        assert ours == naive, (spec, me, opp)
        assert after in naive, ("generated play not legal", spec, me, opp, steps)
        if spec.kind == "roll":
            assert legal_results(variant, me, opp, dice, first_turn=first_turn) == naive
        n += 1

    walk_segments(rules, generate_match(variant, games, seed), check)
    rng = random.Random(seed)
    # first turns, every roll, for the first player and for the second (after any first play)
    for d in ROLLS:
        assert legal_results(variant, START, START, d, first_turn=True) == \
            naive_legal(variant, START, START, d, first_turn=True)
        n += 1
    for _ in range(200):
        first = rng.choice(sorted(legal_results(variant, START, START, rng.choice(ROLLS), first_turn=True)))
        opp = first[0]
        for d in ROLLS:
            for ft in (True, False):
                assert legal_results(variant, START, opp, d, first_turn=ft) == \
                    naive_legal(variant, START, opp, d, first_turn=ft), (opp, d, ft)
                n += 1
        if n > 4000:
            break
    for i in range(synthetic_n):
        kind = KINDS[i % len(KINDS)]
        me, opp = synthetic(rng, kind)
        d = rng.choice(ROLLS)
        ft = kind == "head" and rng.random() < 0.5
        assert legal_results(variant, me, opp, d, first_turn=ft) == naive_legal(variant, me, opp, d, ft), \
            (kind, me, opp, d, ft)
        n += 1
    return n



"""Playing the long games: a whole game through the variant's turn driver, and the players that choose a
play (the evaluator's net at 0-ply, a greedy one-ply heuristic, random legal play).

A *chooser* picks among the legal plays of one part of a turn (``Choice``); every part is chosen by the
player who plays it (in Gul bara a handover is played by the roller's opponent).  After the part, the
player who is on roll next is the roller's opponent, and the positions are judged from there.
"""
from __future__ import annotations

import copy
import random
from typing import Callable

import numpy as np

from ..shapes import dataclass
from ..engine import CHECKERS, OPPONENT, Side, borne_off, generate
from .net import Net, consistent, equity, features, flip

MAX_ROLLS = 1200        # a game with no end in sight stops unfinished


@dataclass
class Choice:
    """One part of a turn to choose: ``results`` the positions the legal plays produce, from the view of the
    player who plays (their side first), sorted; ``next_on_roll``: that player is on roll after it (a Gul
    bara handover), else the opponent is; ``next_first_turn``: whoever is on roll next still has the first
    turn; ``kind``: roll, chain or handover."""

    rules: object
    results: list
    next_on_roll: bool
    next_first_turn: bool
    kind: str = "roll"
    turn: "RollState | None" = None


@dataclass
class RollState:
    """Where a part of a roll was asked for, enough to play the rest of the roll from any of its results
    (:func:`lookahead_chooser`): ``driver`` the roll's turn driver with this part pending, ``roller`` and
    ``mover`` (0 or 1: who rolled, who plays the part), ``pos`` the two sides (by player) before the part,
    ``plays`` the engine's plays (each result's steps, the number of each step last)."""

    driver: object
    roller: int
    mover: int
    pos: tuple
    plays: dict

    def after(self, result) -> tuple[object, list]:
        """A copy of the driver told that ``result`` was played, and the sides by player after it."""
        drv = copy.copy(self.driver)
        drv.played(tuple(d for *_x, d in self.plays[result]))
        pos = list(self.pos)
        pos[self.mover], pos[1 - self.mover] = result
        return drv, pos


Chooser = Callable[[Choice], int]


def terminal_points(rules, me: Side, opp: Side) -> float | None:
    """Points for ``me`` when one side has borne off every checker, else None."""
    if not sum(me[:24]):
        return float(rules.stake(rules.win_level(me, opp), 1, False, None))
    if not sum(opp[:24]):
        return -float(rules.stake(rules.win_level(opp, me), 1, False, None))
    return None


def evaluate_results(net: Net, rules, results: list, next_on_roll: bool, next_first_turn: bool,
                     koks: bool) -> tuple[np.ndarray, np.ndarray]:
    """The equity (points) and the five chances, from the view of the player who chose, of each position
    in ``results``: the net's evaluation of the position with the player on roll next (flipped to the
    chooser's view when that is the opponent); a finished game is its result exactly."""
    return batch_evaluate(net, [Choice(rules, results, next_on_roll, next_first_turn)], koks)[0]


def net_chooser(net: Net, koks: bool | None = None) -> Chooser:
    """The net at 0-ply: the play whose position has the highest equity for the player who plays it
    (``koks``: count koks; None: as the rules say)."""

    def choose(c: Choice) -> int:
        if len(c.results) == 1:
            return 0
        eq, _p = evaluate_results(net, c.rules, c.results, c.next_on_roll, c.next_first_turn,
                                  c.rules.koks if koks is None else koks)
        return int(np.argmax(eq))

    def batch(choices: list[Choice]) -> list[int]:
        """The choices of many games at once: one evaluation of all their positions (the same picks as
        ``choose`` one by one)."""
        return [int(np.argmax(eq)) for eq in batch_equities(net, choices, koks)]

    choose.batch = batch
    return choose


def batch_equities(net: Net, choices: list[Choice], koks: bool | None) -> list[np.ndarray]:
    """The equity of every result of every choice (as :func:`batch_evaluate`)."""
    return [eq for eq, _p in batch_evaluate(net, choices, koks, chances=False)]


def batch_evaluate(net: Net, choices: list[Choice], koks: bool | None,
                   chances: bool = True) -> list[tuple[np.ndarray, np.ndarray]]:
    """The equity (points) and the five chances of every result of every choice, from the view of the
    player who chooses: the net's evaluation of the position with the player on roll next (flipped to the
    chooser's view when that is the opponent), a finished game its result exactly; one evaluation of the
    net for all.  ``koks`` None: as each choice's rules say.  ``chances`` False: the chances of a finished
    game are left as the net gave them (only the equities are wanted)."""
    rows_me, rows_op, first, spans = [], [], [], []
    for c in choices:
        a = len(rows_me)
        for m, o in c.results:
            if c.next_on_roll:
                rows_me.append(m[:24])
                rows_op.append(o[:24])
            else:
                rows_me.append(o[:24])
                rows_op.append(m[:24])
        first.extend([c.next_first_turn] * len(c.results))
        spans.append((a, len(rows_me)))
    me = np.array(rows_me, dtype=np.float64).reshape(-1, 24)
    op = np.array(rows_op, dtype=np.float64).reshape(-1, 24)
    p_all = consistent(net(features(me, op, np.array(first, dtype=np.float64))))
    over_all = (me.sum(axis=1) == 0) | (op.sum(axis=1) == 0)
    out = []
    for c, (a, b) in zip(choices, spans):
        p = p_all[a:b] if c.next_on_roll else flip(p_all[a:b])
        eq = equity(p, c.rules.koks if koks is None else koks)
        for i in np.flatnonzero(over_all[a:b]).tolist():
            pts = terminal_points(c.rules, *c.results[i])
            if pts is not None:
                eq[i] = pts
                if chances:
                    lvl = abs(int(round(pts)))
                    won = pts > 0
                    p[i] = [float(won), float(won and lvl >= 2), float(won and lvl >= 3),
                            float(not won and lvl >= 2), float(not won and lvl >= 3)]
        out.append((eq, p))
    return out


def goes_on(c: Choice, i: int) -> bool:
    """Whether the roll goes on after result ``i`` of choice ``c`` (a chain's next double, a handover)."""
    if c.turn is None:
        return False
    drv, pos = c.turn.after(c.results[i])
    return drv.next(pos[c.turn.roller], pos[1 - c.turn.roller]) is not None


def roll_end(net: Net, items: list[tuple[Choice, int]], koks: bool | None,
             chances: bool = True) -> list[tuple[float, np.ndarray]]:
    """For each ``(choice, result index)``: the equity and chances, from the view of the choice's player, of
    the position at the end of the roll when that result is played and every later part of the roll is
    chosen by the net at 0-ply (the rest of a Gul bara chain and its handovers: no dice are rolled in
    between); a result after which the roll ends is evaluated as it is.  The completions run in step,
    one evaluation of the net per part for all of them."""
    if not items:
        return []
    greedy = net_chooser(net, koks)
    gens = []
    for c, i in items:
        drv, pos = c.turn.after(c.results[i])
        gens.append(roll_steps(c.rules, drv, c.turn.roller, pos, c.next_first_turn))
    finals = in_step(gens, lambda pending: dict(zip(pending, greedy.batch([ch for _q, ch in pending.values()]))))
    ends = [Choice(c.rules, [(f[c.turn.mover], f[1 - c.turn.mover])], c.next_on_roll, c.next_first_turn)
            for (c, _i), f in zip(items, finals)]
    return [(float(eq[0]), p[0]) for eq, p in batch_evaluate(net, ends, koks, chances)]


def lookahead_chooser(net: Net, koks: bool | None = None, width: int | None = None) -> Chooser:
    """The net, looking over the rest of the roll: where a part of a roll is followed by more parts (a
    Gul bara double's chain, a handover), each play (``width``: each of the ``width`` plays the net ranks
    highest at 0-ply) is played out to the end of the roll, every later part chosen by the net at 0-ply
    (the rest of a chain is known: its doubles are not rolled), and the play whose position at the end of
    the roll is worth most to its player is chosen: with every play looked at, the first play of
    :func:`nardy_analyze.evaluator.analysis.hint`.  A position between two rolls is what the net was trained on; a
    position inside a chain, judged as if the opponent rolled next, is not.  Where nothing follows the
    part (every backgammon and long nardy roll, most Gul bara rolls), it is the net at 0-ply."""

    def batch(choices: list[Choice]) -> list[int]:
        eqs = batch_equities(net, choices, koks)
        picks = [int(np.argmax(eq)) for eq in eqs]
        items, owners = [], []
        for ci, (c, eq) in enumerate(zip(choices, eqs)):
            if (c.turn is None or c.rules.one_part_turns or len(c.results) < 2
                    or not (goes_on(c, picks[ci]) or goes_on(c, 0))):
                continue
            for i in np.argsort(-eq, kind="stable")[:width].tolist():
                items.append((c, i))
                owners.append(ci)
        if not items:
            return picks
        best: dict[int, tuple[float, int]] = {}
        for ci, (c, i), (v, _p) in zip(owners, items, roll_end(net, items, koks, chances=False)):
            if ci not in best or v > best[ci][0] or v == best[ci][0] and i < best[ci][1]:
                best[ci] = (v, i)           # of equal ones the first in the engine's order, as hint ranks
        for ci, (_v, i) in best.items():
            picks[ci] = i
        return picks

    def choose(c: Choice) -> int:
        return batch([c])[0]

    choose.batch = batch
    return choose


def random_chooser(rng: random.Random) -> Chooser:
    """Random legal play: every resulting position equally likely."""
    return lambda c: rng.randrange(len(c.results))


_ROUTE = list(range(11, -1, -1)) + list(range(23, 11, -1))       # see net.ROUTE


def heuristic_score(me: Side, opp: Side) -> float:
    """The greedy one-ply heuristic's score of a position for ``me`` (no lookahead): pips gained, checkers
    borne off, home, points held and the longest block in front of the opponent's checkers behind it,
    and checkers left on the head."""
    pips = sum(n * p for p, n in enumerate(me[:24], 1))
    opp_pips = sum(n * p for p, n in enumerate(opp[:24], 1))
    off = CHECKERS - sum(me[:24])
    held = sum(1 for n in me[:24] if n)
    run = best = best_end = 0
    for i, pi in enumerate(_ROUTE):
        run = run + 1 if me[pi] else 0
        if run > best:
            best, best_end = run, i
    start = best_end - best + 1
    behind = sum(opp[23 - j] for j in range(start)) if best else 0     # their checkers before the block
    home = sum(me[:6])
    score = (opp_pips - pips) + 6.0 * off + 1.5 * held - 2.0 * max(0, me[23] - 1)
    score += (best ** 1.5) * (0.5 + behind / 5.0)
    if not any(me[6:24]):
        score += 10.0
    score += 0.5 * home
    pts = None
    if not sum(me[:24]):
        pts = 1000.0
    elif not sum(opp[:24]):
        pts = -1000.0
    return pts if pts is not None else score


_ROUTE_NP = np.array(_ROUTE)
_PIPS = np.arange(1, 25)
_K = np.arange(24)
_POW = np.array([b ** 1.5 for b in range(25)])                # as Python's power gives it, bit for bit


def heuristic_scores(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """:func:`heuristic_score` of many positions at once (``me``, ``opp``: (k, 24) counts), the same
    numbers computed the same way."""
    k = me.shape[0]
    pips = me @ _PIPS
    opp_pips = opp @ _PIPS
    on = me.sum(axis=1)
    off = CHECKERS - on
    held = (me > 0).sum(axis=1)
    occ = me[:, _ROUTE_NP] > 0
    last_gap = np.maximum.accumulate(np.where(occ, -1, _K), axis=1)
    run = _K - last_gap                                       # the run ending at each route index
    best_end = run.argmax(axis=1)                             # the first longest run, as the loop finds it
    best = run[np.arange(k), best_end]
    start = best_end - best + 1
    before = np.cumsum(opp[:, ::-1], axis=1)                  # their checkers at route index <= j
    behind = np.where(start > 0, before[np.arange(k), np.clip(start - 1, 0, 23)], 0) * (best > 0)
    home = me[:, :6].sum(axis=1)
    score = (opp_pips - pips) + 6.0 * off + 1.5 * held - 2.0 * np.maximum(0, me[:, 23] - 1)
    score = score + _POW[best] * (0.5 + behind / 5.0)
    score = score + np.where(me[:, 6:24].any(axis=1), 0.0, 10.0)
    score = score + 0.5 * home
    score = np.where(on == 0, 1000.0, score)
    return np.where((on != 0) & (opp.sum(axis=1) == 0), -1000.0, score)


def heuristic_chooser() -> Chooser:
    """The greedy one-ply heuristic: the play whose position scores highest for the player who plays it
    (the first of equal scores)."""

    def choose(c: Choice) -> int:
        me = np.array([r[0][:24] for r in c.results], dtype=np.int64)
        op = np.array([r[1][:24] for r in c.results], dtype=np.int64)
        return int(np.argmax(heuristic_scores(me, op)))

    def batch(choices: list[Choice]) -> list[int]:
        me = np.array([r[0][:24] for c in choices for r in c.results], dtype=np.int64)
        op = np.array([r[1][:24] for c in choices for r in c.results], dtype=np.int64)
        scores = heuristic_scores(me, op)
        picks, a = [], 0
        for c in choices:
            b = a + len(c.results)
            picks.append(int(np.argmax(scores[a:b])))
            a = b
        return picks

    choose.batch = batch
    return choose


@dataclass
class GameResult:
    winner: int | None        # 0, 1, None: unfinished
    level: int                # 1 oin, 2 mars, 3 koks (of the rules given for the result)
    points: int
    rolls: int
    positions: list           # (player, mover side, opponent side, first turn) at the start of each roll


def play_game(rules, choosers: tuple[Chooser, Chooser], rng: random.Random, keep: bool = False,
              result_rules=None, max_rolls: int = MAX_ROLLS) -> GameResult:
    """One game from the starting position: a coin says who rolls first, then each roll is played part by
    part (the variant's turn driver), each part chosen by its player's chooser.  ``keep``: keep the
    position at the start of every roll.  ``result_rules``: the rules whose result levels are reported
    (e.g. with koks counted), by default ``rules``."""
    steps = game_steps(rules, rng, keep, result_rules, max_rolls)
    try:
        q, choice = next(steps)
        while True:
            q, choice = steps.send(choosers[q](choice))
    except StopIteration as end:
        return end.value


def play_games(rules, pairs: list[tuple[Chooser, Chooser]], rngs: list[random.Random], keep: bool = False,
               result_rules=None, max_rolls: int = MAX_ROLLS) -> list[GameResult]:
    """Many games at once, in step: at each step the pending choices of all the games are put to their
    choosers together (a chooser with ``batch`` answers them in one call: one evaluation of the net for
    all).  Game ``i`` is played by ``pairs[i]`` with the dice of ``rngs[i]``; the games are those
    :func:`play_game` plays (a chooser that draws random numbers draws them in another order)."""
    gens = [game_steps(rules, r, keep, result_rules, max_rolls) for r in rngs]

    def answer(pending: dict[int, tuple[int, Choice]]) -> dict[int, int]:
        groups: dict[int, tuple[Chooser, list[int]]] = {}
        for i, (q, _c) in pending.items():
            ch = pairs[i][q]
            groups.setdefault(id(ch), (ch, []))[1].append(i)
        answers: dict[int, int] = {}
        for ch, idx in groups.values():
            choices = [pending[i][1] for i in idx]
            picks = ch.batch(choices) if hasattr(ch, "batch") else [ch(c) for c in choices]
            answers.update(zip(idx, picks))
        return answers

    return in_step(gens, answer)


def in_step(gens: list, answer: Callable[[dict], dict]) -> list:
    """Run the generators ``gens`` in step: each yields a question and is sent its answer;
    ``answer(pending)`` answers all the pending questions at once (``{index: answer}``).  Returns each
    generator's return value, in order."""
    results: list = [None] * len(gens)
    pending: dict = {}

    def advance(i: int, reply) -> None:
        try:
            pending[i] = next(gens[i]) if reply is None else gens[i].send(reply)
        except StopIteration as end:
            results[i] = end.value
            pending.pop(i, None)

    for i in range(len(gens)):
        advance(i, None)
    while pending:
        for i, a in answer(pending).items():
            advance(i, a)
    return results


def game_steps(rules, rng: random.Random, keep: bool = False, result_rules=None, max_rolls: int = MAX_ROLLS):
    """:func:`play_game` as a generator: yields ``(player, Choice)`` for every part with more than one
    legal play and takes the index of the play chosen; returns the :class:`GameResult`."""
    pos = list(rules.initial())
    rolled = [0, 0]
    p = rng.randrange(2)
    kept: list = []
    result_rules = result_rules or rules
    for n in range(max_rolls):
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if keep:
            kept.append((p, pos[p], pos[1 - p], rolled[p] == 0))
        drv = rules.turn_segments(max(d1, d2), min(d1, d2), rolled[p] == 0, n + 1)
        rolled[p] += 1
        yield from roll_steps(rules, drv, p, pos, rolled[1 - p] == 0)
        for w in (p, 1 - p):
            if borne_off(pos[w]) == CHECKERS:
                level = result_rules.win_level(pos[w], pos[1 - w])
                return GameResult(w, level, rules.stake(rules.win_level(pos[w], pos[1 - w]), 1, False, None),
                                  n + 1, kept)
        p = 1 - p
    return GameResult(None, 0, 0, max_rolls, kept)


def roll_steps(rules, drv, p: int, pos: list, next_first_turn: bool):
    """The parts of one roll of player ``p`` as a generator (as :func:`game_steps`): ``drv`` the roll's turn
    driver, ``pos`` the two sides by player (changed in place); ``next_first_turn``: the roller's opponent
    has not rolled yet.  Returns ``pos`` at the end of the roll."""
    while (spec := drv.next(pos[p], pos[1 - p])) is not None:
        q = 1 - p if spec.player == OPPONENT else p
        ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
        if not ps.plays or ps.max_dice == 0:
            drv.played(())
            continue
        results = sorted(ps.plays)
        i = 0
        if len(results) > 1:
            i = yield q, Choice(rules, results, q != p, next_first_turn, spec.kind,
                                RollState(drv, p, q, tuple(pos), ps.plays))
        after = results[i]
        pos[q], pos[1 - q] = after
        drv.played(tuple(d for *_x, d in ps.plays[after]))
    return pos

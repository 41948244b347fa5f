"""Skill analysis of long nardy and Gul bara records with the shipped evaluator (nardy_analyze.evaluator):
the decision rows of :mod:`.skill` (the same columns and units) for every roll played.

Each roll's legal plays are ranked by the net (the position at the end of the roll, the opponent on roll:
:func:`nardy_analyze.evaluator.analysis.hint`; in long nardy the position after the play, at 0-ply);
the error is the best play's equity minus the played one's, in points of the variant's scoring (oin 1, mars 2,
koks 3 where the rules count koks), cubeless (the long games are played without the cube by default; with
option ``cube`` the cube is not analysed).  Luck is the best play's equity of the roll rolled minus the
average over the 21 rolls.

In Gul bara a turn has more parts than the roll (the doubles chain, handovers): each part with a choice is a
decision row of its own (column ``part``: ``chain`` or ``handover``; ``roll`` for the roller's play of the
roll), its player the one who played it (the roller's opponent for a handover), its legal plays those of
the part's numbers in the position it was played from (the engine's turn driver, as the replay walks it),
each judged like the roll's plays: the position at the end of the roll, the rest of the roll (the chain's
later doubles, handovers) played out by the net at 0-ply from that driver, the roller's opponent on roll
next.  A part has no luck of its own (its numbers follow from the roll): luck 0.  The parts of a turn
are graded up to the first part the replay finds illegal (under a finding of ``validate --analyse``: every
part, each from where the replay went on).
"""
from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Callable

from ..engine import fmt_steps, generate
from ..evaluator.analysis import ROLL_WEIGHT, ROLLS, has_net, hint, load_net
from ..evaluator.play import Choice, RollState, batch_evaluate, evaluate_results, goes_on, roll_end
from ..evaluator.posid import NardyPosition, encode
from ..events import TurnRow
from ..replay.turns import walk_turn, written_parts

TRIVIAL = 0.001


def available(rules) -> bool:
    """Whether an evaluator is shipped for the variant of ``rules``."""
    return has_net(rules)


def _written(action) -> str:
    return _steps_text([(st.src, st.dst) for st in getattr(action, "steps", None) or ()])


def _steps_text(steps) -> str:
    if not steps:
        return "(no move)"
    return " ".join(f"{src}/{'off' if dst == 0 else dst}" for src, dst in steps)


def played_position(rules, before, action):
    """The position after the roller's own play of the roll (the record's steps applied to ``before``)."""
    m, o = before
    for st in getattr(action, "steps", None) or ():
        m, o, _hit = rules.apply(m, o, st.src, st.dst)
    return m, o


def checker_rows(rules, path: str, mid: str, turns: list[TurnRow], names_of: Callable[[int], tuple],
                 grade: Callable[[float], str], spots: list | None = None, top: int = 5,
                 only: set | None = None, parts: dict | None = None) -> list[tuple]:
    """The decision rows (skill.DECISION_COLUMNS order) of every roll of ``turns``.  ``spots``: a list that
    also gets a plain summary of each roll's decision (as ``skill.position_analysis`` gives them, with its
    ``chances``): the best ``top`` plays with their equities, the play made, its rank, error, grade, luck, and
    ``win``, the evaluator's win chance of the play made (the mover's view).  ``only``: the turns to analyse,
    as ``(game, move)`` pairs (None: every turn); their parts are then every part of the turn, from where
    the replay went on (``validate --analyse``: a finding's own decision), else up to the first illegal one.

    A written roll play that is not legal is judged as the legal play the replay went on from, when the
    replay put the game on one (as backgammon's analysis does); ``parts``: the parts of the Gul bara turns
    of several as the replay played them (``ActionState.parts`` by (game, move)), which tell it for a roll
    followed by a chain or a handover and for those parts."""
    net = load_net(rules)
    rows: list[tuple] = []
    rolls_in_game: dict[int, int] = {}
    for t in turns:
        n = rolls_in_game.get(t.game, 0)
        if t.dice is None:
            continue
        rolls_in_game[t.game] = n + 1
        if t.after is None or t.spec is None or only is not None and (t.game, t.move) not in only:
            continue
        me, opp = t.before
        pos = NardyPosition(rules.name, me, opp, t.side, min(n, 255))
        roll = (max(t.dice), min(t.dice))
        by_roll = {}
        for r in ROLLS:
            by_roll[r] = hint(rules, pos, r[0], r[1], net)
        average = sum(w * by_roll[r][0].equity for r, w in zip(ROLLS, ROLL_WEIGHT)) / 36.0
        legal = by_roll[roll]
        best = legal[0]
        after = played_position(rules, t.before, t.action)
        idx = next((i for i, p in enumerate(by_roll[roll]) if p.after == after), None)
        walked = (parts or {}).get((t.game, t.move))
        if idx is None:
            # the replay's continuation (a later part of a Gul bara turn would have moved a checker: no match)
            went = t.after if not walked else (walked[0].after[t.side], walked[0].after[1 - t.side])
            idx = next((i for i, p in enumerate(by_roll[roll]) if p.after == went), None)
        played = by_roll[roll][idx].equity if idx is not None else math.nan
        forced = len(legal) <= 1
        trivial = not forced and all(best.equity - p.equity <= TRIVIAL for p in legal)
        error = max(best.equity - played, 0.0) if played == played else math.nan
        play_text = _written(t.action)
        best_text = play_text if best.after == after else best.play
        names = names_of(t.game)
        rows.append((path, mid, t.game, t.turn, t.move, t.line, names[t.side], names[1 - t.side], t.side, 0, 0, 0, False, 1,
                     "centered", "checker", encode(pos), "", f"{roll[0]}{roll[1]}", play_text, best_text,
                     float(played), float(best.equity), float(error), grade(error) if error == error else "",
                     forced, trivial, not forced, len(legal), float(best.equity - average), float(average),
                     math.nan, math.nan, math.nan, "roll"))
        if spots is not None:
            r = rows[-1]
            spots.append(dict(game=t.game, line=t.line, side=t.side, kind="checker", dice=r[18],
                              plays=[dict(play=p.play, equity=round(p.equity, 6)) for p in legal[:top]],
                              played=play_text, replayed=None if idx is None else legal[idx].play,
                              rank=None if idx is None else idx + 1, moves=len(legal),
                              equity_played=None if idx is None else round(played, 6),
                              equity_best=round(best.equity, 6), error=None if error != error else round(error, 6),
                              grade=r[24], luck=round(best.equity - average, 6), move=t.move,
                              loc=None if t.action is None else (t.action.loc.line, t.action.loc.column),
                              win=None if idx is None else round(legal[idx].chances[0], 6), mwc=None))
        if not rules.one_part_turns and t.action is not None:
            for part in turn_parts(rules, net, t, pos, walked=None if only is None else (walked or [])):
                k, side, before, spec, played_after, plays, written, line, part_loc = part
                if not plays or written is None and only is None:
                    continue              # nothing to choose, or a part the record leaves out: no decision
                eq = [p[1] for p in plays]
                i_best = max(range(len(plays)), key=eq.__getitem__)
                best_after, best_eq, best_steps, _w = plays[i_best]
                i_played = next((i for i, p in enumerate(plays) if p[0] == played_after), None)
                if i_played is None and walked and k < len(walked):
                    w = walked[k].after           # where the replay went on from after this part
                    i_played = next((i for i, p in enumerate(plays) if p[0] == (w[side], w[1 - side])), None)
                played = math.nan if i_played is None else plays[i_played][1]
                forced = len(plays) <= 1
                trivial = not forced and all(best_eq - e <= TRIVIAL for e in eq)
                error = max(best_eq - played, 0.0) if played == played else math.nan
                play_text = _steps_text(written or ())
                best_text = play_text if best_after == played_after else fmt_steps(best_steps)
                ppos = NardyPosition(rules.name, before[0], before[1], side, min(n, 255))
                numbers = "".join(map(str, sorted(spec.numbers, reverse=True)))
                rows.append((path, mid, t.game, t.turn, t.move, line, names[side], names[1 - side], side, 0, 0, 0,
                             False, 1, "centered", "checker", encode(ppos), "", numbers,
                             play_text, best_text, float(played), float(best_eq), float(error),
                             grade(error) if error == error else "", forced, trivial, not forced, len(plays),
                             0.0, math.nan, math.nan, math.nan, math.nan, spec.kind))
                if spots is not None:
                    spots.append(_part_spot(rows[-1], t, k, side, plays, i_played, top, part_loc))
    return rows


def _part_spot(r: tuple, t: TurnRow, k: int, side: int, plays: list, i_played: int | None, top: int,
               loc: tuple | None) -> dict:
    """The replayer's summary (as :func:`checker_rows`' ``spots``) of a part's decision row ``r``: on the
    step ``M.K`` (the turn's move, the part's number after the roll)."""
    ranked = sorted(range(len(plays)), key=lambda i: -plays[i][1])
    rank = None if i_played is None else ranked.index(i_played) + 1
    err = r[23]
    return dict(game=t.game, line=r[5], side=side, kind="checker", dice=r[18],
                plays=[dict(play=fmt_steps(plays[i][2]), equity=round(plays[i][1], 6)) for i in ranked[:top]],
                played=r[19], replayed=None if i_played is None else fmt_steps(plays[i_played][2]),
                rank=rank, moves=len(plays), equity_played=None if i_played is None else round(r[21], 6),
                equity_best=round(r[22], 6), error=None if err != err else round(err, 6), grade=r[24],
                luck=0.0, move=f"{t.move}.{k}", part=r[-1], loc=loc,
                win=None if i_played is None else round(plays[i_played][3], 6), mwc=None)


def turn_parts(rules, net, t: TurnRow, pos: NardyPosition, walked: list | None = None):
    """The parts after the roll of a Gul bara turn, as the replay walks them (up to the first illegal part):
    ``(k, side, before, spec, after, plays, written steps, line, loc)``, ``k`` the written part's number after
    the roll (1, 2, ...: the step ``M.K`` of the replay and of ``show --move``; a part the record leaves out
    has none of its own), ``before`` and ``after`` from the view of ``side`` (who played it, or was to)
    and ``plays`` every legal play of the part as ``(position after, equity for side, steps, win chance for
    side)`` (empty: nothing could be played); ``written`` None for a part the record leaves out.

    ``walked``: the parts as the replay played them (``ActionState.parts``; ``validate --analyse``): every
    part then, the illegal ones and those after them too, each from where the replay went on (its
    ``after``), counted as the replay counts them (a part the record leaves out where that is a finding
    has a number), and a part where nothing can be played has its one play, no move."""
    roller = t.side
    me, opp = t.before
    sides = [me, opp] if roller == 0 else [opp, me]
    d1, d2 = max(t.dice), min(t.dice)
    opp_first = pos.opponent_first_turn
    every = walked is not None
    outs = walk_turn(rules, sides, roller, d1, d2, written_parts(t.action), pos.mover_first_turn, pos.rolls + 1,
                     diagnose=every)
    k = 0
    j = -1                                    # the replay's count of the parts (0: the roll, when counted)
    for out in outs:
        counted = out.part is not None or bool(out.problems)
        if counted:
            j += 1
        if out.problems and not every:
            return
        if every and counted and j < len(walked):
            _repl(rules, out, walked[j])      # on where the replay went on from
        if out.spec is None or out.spec.kind == "roll":
            continue
        if every:
            if not counted:
                continue                      # a part left out that is no finding: nothing to analyse
            k = j
        elif out.part is not None:
            k += 1                              # the part's number: the replay's step M.K (written parts)
        side = out.side
        before = out.before
        spec = out.spec
        if every and j < len(walked) and walked[j].numbers and tuple(walked[j].numbers) != spec.numbers:
            spec = replace(spec, numbers=tuple(walked[j].numbers))     # the numbers the replay gave the part
        ps = generate(rules, before[0], before[1], spec.numbers, spec.turn)
        plays = []
        if ps.plays and ps.max_dice:
            results = sorted(ps.plays)
            # the walk's driver asked for the part's own numbers: where the replay gave it others, the roll
            # is judged as ending with the part (the driver cannot be told numbers it did not ask for)
            drv = out.driver if spec is out.spec else None
            eq, probs = part_values(net, rules, out, drv, roller, results, ps.plays, side != roller, opp_first)
            plays = [(r, float(e), ps.plays[r], float(pr[0])) for r, e, pr in zip(results, eq, probs)]
        elif every:
            eq, probs = evaluate_results(net, rules, [before], side != roller, opp_first, rules.koks)
            plays = [(before, float(eq[0]), (), float(probs[0][0]))]
        after = (out.after[side], out.after[1 - side])
        part = out.part
        line = part.loc.line if part is not None and part.loc is not None else t.line
        loc = None if part is None or part.loc is None else (part.loc.line, part.loc.column)
        yield k, side, before, spec, after, plays, (part.steps if part is not None else None), line, loc


def part_values(net, rules, out, driver, roller: int, results: list, plays: dict, next_on_roll: bool,
                opp_first: bool):
    """The equities and chances of a part's plays ``results`` (from the view of ``out.side``, who plays it):
    each judged at the end of the roll, the rest of the roll played out by the net at 0-ply from ``driver``,
    the turn driver the walk was at with this part pending (as ``hint`` ranks a part's plays); ``driver``
    None: judged as ending the roll."""
    c = Choice(rules, results, next_on_roll, opp_first)
    eq, probs = batch_evaluate(net, [c], rules.koks)[0]
    if driver is not None:
        sides = [None, None]
        sides[out.side], sides[1 - out.side] = out.before
        c.turn = RollState(copy.copy(driver), roller, out.side, tuple(sides), plays)
        items = [(c, i) for i in range(len(results)) if goes_on(c, i)]
        for (_c, i), (v, pi) in zip(items, roll_end(net, items, rules.koks)):
            eq[i], probs[i] = v, pi
    return eq, probs


def _repl(rules, out, state) -> None:
    """Put the walk of a turn on the position the replay went on from after the part ``out`` (its
    ``PartState``), and a part the record leaves out on the numbers of the play the replay chose for it."""
    if state.after is None or out.after is None:
        return
    if tuple(out.after) != tuple(state.after):
        out.after = [state.after[0], state.after[1]]
        if out.part is None and out.spec is not None:
            s = out.side
            ps = generate(rules, out.before[0], out.before[1], out.spec.numbers, out.spec.turn)
            path = ps.plays.get((state.after[s], state.after[1 - s]))
            if path is not None:
                out.used = tuple(st[-1] for st in path)

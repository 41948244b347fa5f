"""The last-roll draw (option ``last_roll``, docs/rules.md "Rule options of clubs and federations").

When the player who rolled first in the game bears off the last checker and the other player could still
bear off every checker left with one roll, the game is not over: the other player rolls once more
(:func:`play_last_roll`); all off draws the game.  These functions work on the game state (``gr``,
:class:`.state.GameState`): its position, its ``owed`` last roll, its ``ended`` state and its findings.
"""
from __future__ import annotations

from ..engine.core import Dice
from ..engine.judge import judge, problem_text
from ..i18n import _
from ..record import Action
from ..events import WARNING, How, how_text
from .state import Ended, GameState


def owes_last_roll(gr: GameState, w: int) -> bool:
    """Whether ``w``, who has just borne off the last checker, must let the other player roll once more:
    ``w`` rolled first in the game and the other could still bear off every checker with one roll."""
    o = 1 - w
    return (gr.last_roll and w == gr.first_roller and gr.rolled[o] < gr.rolled[w]
            and gr.rules.can_finish(gr.pos[o], gr.pos[w]))


def play_last_roll(gr: GameState, a: Action, p: int, d1: int, d2: int) -> None:
    """The second player's last roll: one roll (four numbers for a double; no chain, no handover: the
    opponent has no checker left), judged on its own; all off is a draw, else the first player won."""
    me, opp = gr.pos[p], gr.pos[1 - p]
    turn = gr.rules.start_turn(me, opp, False, (d1, d2))
    v = judge(gr.rules, me, opp, Dice.roll(d1, d2), [(s.src, s.dst) for s in a.steps], turn=turn,
              hit_marks=[s.hit for s in a.steps])
    for problem in v.problems:
        gr.find(problem.rule, problem_text(gr.rules, problem), a, position=(me, opp), dice=a.dice,
                alternatives=v.playset.example(6) if v.playset is not None else [])
    gr.pos[p], gr.pos[1 - p] = v.after
    w, stake = gr.owed
    gr.owed = None
    gr.ended = Ended(How.DRAW, None, 0) if not sum(gr.pos[p]) else Ended(How.BEAROFF, w, stake)


def settle_owed(gr: GameState, warn: Action | None = None) -> None:
    """The owed last roll was not written: the first player won."""
    w, stake = gr.owed
    gr.owed = None
    gr.ended = Ended(How.BEAROFF, w, stake)
    if warn is not None:
        gr.find("result-mismatch", _("{player} is owed a last roll that could draw (the last-roll rule) and the "
                                     "record writes none; the game is scored as {winner}'s win").format(
            player=gr.name(1 - w), winner=gr.name(w)), warn, severity=WARNING)


def on_draw(gr: GameState, a: Action) -> None:
    """A ``draw`` cell: kept for the end of the game (a draw written after the first player finished settles
    the owed last roll)."""
    if gr.owed is not None:
        settle_owed(gr)
    if gr.draw_cell is None:
        gr.draw_cell = a


def finish_draw(gr: GameState, last: Action | None) -> bool:
    """The result of a drawn game (the last roll bore off every checker), or of a draw written when the
    game was not drawn.  True when the result is settled."""
    cell = gr.draw_cell
    if gr.ended and gr.ended.how is How.DRAW:
        if gr.declared is not None:
            w, _pts, decl = gr.declared
            gr.find("result-mismatch", _("{player} is declared the winner, but the game is drawn: the last roll "
                                         "bore off every checker (the last-roll rule)").format(player=gr.name(w)),
                    decl)
        elif cell is None:
            gr.find("result-mismatch", _("the game ended in a draw (the last roll bore off every checker) but no "
                                         "result is written"), last, severity=WARNING)
        gr.set_result(None, 0, How.DRAW)
        return True
    if gr.ended:
        how, w, pts = gr.ended
        why = _("{player} won ({how})").format(player=gr.name(w), how=how_text(how))
    elif gr.last_roll:
        why = _("the game is not over")
    else:
        why = _("these rules have no draw (the last-roll draw is option last_roll)")
    # TRANSLATORS: {why}: why there is no draw ("Ann won (bearoff)", "the game is not over")
    gr.find("result-mismatch", _("a draw is declared, but {why}").format(why=why), cell)
    if gr.ended and gr.declared is None:     # one slip, one finding: the game's own result
        gr.set_result(w, pts, how)
        return True
    return False

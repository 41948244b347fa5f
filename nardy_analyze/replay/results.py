"""Results under replay: ``Wins`` cells, resignations (and their answers), timeouts, the game's end and
the points it is worth (handlers of the game state, :class:`.state.GameState`).

The declared result is checked against the board: a bear-off or a dropped double ends the game with the
stake the variant's scoring gives (``Variant.stake``, ``drop_stake``), a resignation must be a level the
loser could still lose (``Variant.resign_stakes``); in match play a record may write the points the
winner needed instead (docs/rules.md).
"""
from __future__ import annotations

from ..engine import roll_plays
from ..record import LEVELS, Action, Kind
from . import draw
from ..events import WARNING, How, how_text
from .state import Declared, GameState
from ..i18n import _, ngettext, pgettext


def level_text(level) -> str:
    """A resignation's level (``Action.level``: 1-3) in words: single, gammon, backgammon."""
    if level == 1:
        return pgettext("resignation level", "single")
    if level == 2:
        return pgettext("resignation level", "gammon")
    if level == 3:
        return pgettext("resignation level", "backgammon")
    return LEVELS.get(level, str(level))


def on_win(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    if st.declared is None:
        pts = a.value if a.value is not None else 0
        st.declared = Declared(winner_of(st, a, pts), pts, a)


def winner_of(st: GameState, a: Action, pts: int) -> int:
    """The side a ``Wins`` cell names.  Its column, unless it says ``and the match`` and only the other
    side's score reaches the match length with these points (some sites write every unnumbered
    ``Wins`` line in the left column)."""
    if a.and_match and st.need is not None:
        reach = [s for s in (0, 1) if pts >= st.need[s]]
        if len(reach) == 1:
            return reach[0]
    return a.player


def on_resign(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    if nxt is not None and nxt.kind == Kind.REJECT and nxt.player != a.player:
        return                  # an offer the opponent rejects: the game goes on (on_reject)
    if st.pending is not None and st.pending.player != a.player:
        st.pending = None     # giving up answers the opponent's double, as a drop does
    if nxt is not None and nxt.kind == Kind.ACCEPT:   # the cell after the acceptance says the result
        nxt = st.actions[i + 2] if i + 2 < len(st.actions) else None
    if st.declared is None:
        w = 1 - a.player
        if a.level is not None:
            check_level(st, a)
        if nxt is not None and nxt.kind == Kind.WIN:
            # the Wins cell that follows says who won and how much; it may not name the resigning side
            if winner_of(st, nxt, nxt.value or 0) == a.player:
                # TRANSLATORS: {text}: the record's cell, quoted ('Resigns')
                st.find("result-mismatch", _("{player} gives up ({text}), but the result that follows "
                                             "declares {player} the winner").format(
                    player=st.name(a.player), text=repr(a.text)), nxt)
            return
        pts = a.value
        if pts is None and a.level is not None and st.variant.cube_in_play:
            pts = st.stake(a.level)       # "resign gammon": the level's points at this cube
        st.declared = Declared(w, pts, a)   # points None: no points written


def check_level(st: GameState, a: Action) -> None:
    """A resignation offer's level (1-3) against the position and its written points."""
    w = 1 - a.player
    top = st.rules.max_level(st.pos[w], st.pos[a.player])
    name = level_text(a.level)
    if a.level > top:
        # TRANSLATORS: {level}, {top}: resignation levels (single, gammon, backgammon)
        st.find("result-mismatch", _("{player} resigns a {level}, more than can still be lost (at most a "
                                     "{top} in this position)").format(
            player=st.name(a.player), level=name, top=level_text(top)), a, **final_board(st, w))
    elif a.value is not None and st.variant.cube_in_play and a.value != st.stake(a.level):
        st.find("result-mismatch", ngettext(
            "{player} resigns a {level} for {points} point(s); with the cube at {cube} a {level} gives {stake}",
            "{player} resigns a {level} for {points} point(s); with the cube at {cube} a {level} gives {stake}",
            a.value).format(player=st.name(a.player), level=name, points=a.value, cube=st.cube,
                          stake=st.stake(a.level)), a)


def _offer(st: GameState, a: Action, word: str) -> None:
    r = st.last
    if r is None or r.kind != Kind.RESIGN or r.player == a.player:
        msg = (_("{player} accepts a resignation, but the opponent offered none just before") if word == "accepts"
               else _("{player} rejects a resignation, but the opponent offered none just before"))
        st.find("result-mismatch", msg.format(player=st.name(a.player)), a)


def on_draw(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    draw.on_draw(st, a)


def on_accept(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    _offer(st, a, "accepts")


def on_reject(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    _offer(st, a, "rejects")


def on_timeout(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    """The actor ran out of time: the game ends, scored as a resignation (docs/rules.md, Backgammon, 7.
    Scoring and 10. Resignations; nardy500: 500).  Points written with the timeout (or on a ``Wins`` cell
    after it) are checked as a resignation's; a timeout with no points gives the lowest resignation."""
    st.how_resigned = How.TIMEOUT
    st.clock.run_out(a)
    if st.declared is None:
        w = 1 - a.player
        if nxt is not None and nxt.kind == Kind.WIN:
            return
        if a.value is None:
            top = st.rules.max_level(st.pos[w], st.pos[1 - w])
            st.declared = Declared(w, min(st.variant.resign_stakes(top, st.cube, st.cube_turned)), a)
        else:
            st.declared = Declared(w, a.value, a)


def scored(st: GameState) -> int | None:
    """Points the variant's scoring credits the winner: the declared points where the rules accept them;
    otherwise the stake of the game's end on the board, or for a resignation the largest stake the
    position allowed that does not exceed the declared points (else the smallest), in match play at
    most the points the winner needed; a conceded match (``Wins N points and the match`` with the
    points the winner needed) credits those points."""
    r = st.report
    if r.winner is None or r.points is None:
        return None
    w = r.winner
    if st.conceded:
        return r.points                    # the match conceded: what the winner needed
    if st.ended:
        full = st.ended.points
        if credited(st, r.points, full, w):
            return r.points
    else:
        stakes = sorted({st.stake(k) for k in range(1, st.rules.max_level(st.pos[w], st.pos[1 - w]) + 1)})
        if any(credited(st, r.points, full, w) for full in stakes):
            return r.points
        full = max((x for x in stakes if x <= r.points), default=stakes[0])
    # match play: never more than the winner needed to win the match
    return min(full, st.need[w]) if st.need is not None and st.need[w] > 0 else full


# -- end of game ----------------------------------------------------------------------------------
def final_board(st: GameState, w: int) -> dict:
    """--explain data for a result finding: the final position from the side of ``w``."""
    title = (_("final position, cube {cube}").format(cube=st.cube) if st.owner is None else
             _("final position, cube {cube} owned by {player}").format(cube=st.cube,
                                                                      player=st.name(st.owner)))
    return {"position": (st.pos[w], st.pos[1 - w]), "board_side": w, "board_title": title}


def finish(st: GameState, actions: list[Action]) -> None:
    """Settle the game's result: the declared one (a ``Wins`` cell, a resignation, a timeout) checked
    against how the game ended on the board, or the end reached when nothing is declared."""
    if st.pending is not None and not st.ended:
        st.find("cube-response", _("{player} doubled to {value} and the double was neither taken nor "
                                   "dropped").format(player=st.name(st.pending.player),
                                                     value=st.pending.value), st.pending)
    last = actions[-1] if actions else None
    if st.owed is not None:
        draw.settle_owed(st, st.declared.cell if st.declared is not None else last)
    if st.ended and st.ended.how is How.DRAW or st.draw_cell is not None:
        if draw.finish_draw(st, last):
            return
    decl, ended = st.declared, st.ended
    if decl is None:
        undeclared(st, last)
        return
    w, pts, cell = decl
    if cell.kind is Kind.WIN and cell.margin:
        w = margin_winner(st, w)
    if pts is None and ended:
        pts = ended.points                 # gave up after the game was over: the game's result
    if pts is None:
        # "Resigns" / "Concedes" with no points and no "Wins" after it: the record does not say what
        # was resigned; the next score line is trusted
        st.find("result-mismatch", _("{player} gives up ({text}) and no points are written; the next game's "
                                     "score line is taken as it is").format(player=st.name(1 - w),
                                                                            text=repr(cell.text)),
                cell, severity=WARNING)
        st.set_result(w, None, How.RESIGN)
        return
    if ended:
        declared_after_end(st, w, pts, cell)
    elif not wrong_column(st, w, pts, cell):
        resigned(st, w, pts, cell)


def margin_winner(st: GameState, w: int) -> int:
    """The winner of a ``Wins`` written at the left margin, in neither player's column: the one the game's
    end shows (the bear-off or the drop that ended it; the player on roll who bears off with any roll;
    the opponent of a player who ran out of time); ``w``, the column's guess, when nothing shows one."""
    if st.ended and st.ended.how is not How.DRAW:
        return st.ended.winner
    if st.clock.timed_out is not None:
        return 1 - st.clock.timed_out
    if st.last_roller is not None and sure_bear_off(st, 1 - st.last_roller):
        return 1 - st.last_roller
    return w


def undeclared(st: GameState, last: Action | None) -> None:
    """No result written: the end reached on the board, if any."""
    if st.ended:
        how, w, pts = st.ended
        st.set_result(w, pts, how)
        if not st.game.broken:
            # TRANSLATORS: {how}: how the game ended (bearoff, drop); {points}: what the winner scores
            st.find("result-mismatch", _("the game ended ({how}: {player} wins {points}) but no result is "
                                         "written").format(how=how_text(how), player=st.name(w), points=pts),
                    last, severity=WARNING)
    elif last is not None and not st.game.broken:
        st.find("result-mismatch", _("the game ends without a result (unfinished record?)"), last,
                severity=WARNING)


def declared_after_end(st: GameState, w: int, pts: int, cell: Action) -> None:
    """A result written after the game ended on the board (bear-off or drop): who and how much."""
    how, ew, epts = st.ended
    if w != ew:
        st.find("result-mismatch", _("{player} is declared the winner, but {winner} won ({how})").format(
            player=st.name(w), winner=st.name(ew), how=how_text(how)), cell, **final_board(st, ew))
        st.slips = [(w, pts), (ew, epts)]
    elif not credited(st, pts, epts, w):
        # TRANSLATORS: {result}: the game's result ("a gammon at cube 2"); {full}: the points it gives
        st.find("result-mismatch", ngettext("declared {points} point(s); {result} gives {full}",
                                            "declared {points} point(s); {result} gives {full}", pts).format(
            points=pts, result=_explain_stake(st, how, ew), full=epts), cell, **final_board(st, ew))
        st.slips = [(ew, epts)]
    st.set_result(ew, pts, how)


def wrong_column(st: GameState, w: int, pts: int, cell: Action) -> bool:
    """``Wins`` in the column of the player who cannot have won (the opponent is on roll and bears off
    with any roll): reported and settled; False when that is not the case."""
    if cell.kind != Kind.WIN or st.last_roller != w or st.clock.timed_out is not None:
        return False
    sure = sure_bear_off(st, 1 - w)
    if not sure:
        return False
    o = 1 - w
    full = st.stake(st.rules.win_level(tuple([0] * 25), st.pos[w]))
    # TRANSLATORS: {checkers}: how the other player's last checkers stand ("one checker on the 1-point")
    st.find("result-mismatch", _("{player} is declared the winner, but {other} is on roll with {checkers} and "
                                 "bears off with any roll: {other} must have won (the result is written in "
                                 "the wrong column?)").format(player=st.name(w), other=st.name(o),
                                                              checkers=sure), cell, **final_board(st, o))
    st.slips = [(w, pts), (o, full)]
    st.set_result(o, pts, How.BEAROFF)
    return True


def resigned(st: GameState, w: int, pts: int, cell: Action) -> None:
    """A resignation (or a timeout): the points must be a level the loser could still lose."""
    loser = 1 - w
    win_side, lose_side = st.pos[w], st.pos[loser]
    top = st.rules.max_level(win_side, lose_side)
    levels = st.variant.resign_stakes(top, st.cube, st.cube_turned)
    how = st.how_resigned
    if st.clock.timed_out == w:
        st.find("result-mismatch", _("{player} is declared the winner, but ran out of time (a timeout loses "
                                     "the game)").format(player=st.name(w)), cell, **final_board(st, w))
        w = 1 - w
    elif not any(credited(st, pts, full, w) for full in levels):
        allowed = ", ".join(str(x) for x in sorted(levels))
        if cell.and_match and st.need is not None and pts == st.need[w] > max(levels):
            # Sites let a player resign the whole match: the winner is credited what they needed.
            st.conceded = True
            # TRANSLATORS: {allowed}: the points a resignation could give ("1, 2")
            st.find("result-mismatch", ngettext(
                "the match was conceded: {points} point(s) credited, more than a resignation of this game "
                "gives ({allowed} with the cube at {cube})",
                "the match was conceded: {points} point(s) credited, more than a resignation of this game "
                "gives ({allowed} with the cube at {cube})", pts).format(points=pts, allowed=allowed,
                                                                       cube=st.cube),
                cell, severity=WARNING, **final_board(st, w))
        else:
            if how is How.TIMEOUT and st.variant.cube_in_play:
                msg = ngettext("declared {points} point(s) for a timeout; with the cube at {cube} and the "
                               "position on the board the possible results are {allowed}",
                               "declared {points} point(s) for a timeout; with the cube at {cube} and the "
                               "position on the board the possible results are {allowed}", pts)
            elif how is How.TIMEOUT:
                msg = ngettext("declared {points} point(s) for a timeout; with the position on the board and "
                               "this scoring the possible results are {allowed}",
                               "declared {points} point(s) for a timeout; with the position on the board and "
                               "this scoring the possible results are {allowed}", pts)
            elif st.variant.cube_in_play:
                msg = ngettext("declared {points} point(s) for a resignation; with the cube at {cube} and the "
                               "position on the board the possible results are {allowed}",
                               "declared {points} point(s) for a resignation; with the cube at {cube} and the "
                               "position on the board the possible results are {allowed}", pts)
            else:
                msg = ngettext("declared {points} point(s) for a resignation; with the position on the board "
                               "and this scoring the possible results are {allowed}",
                               "declared {points} point(s) for a resignation; with the position on the board "
                               "and this scoring the possible results are {allowed}", pts)
            st.find("result-mismatch", msg.format(points=pts, cube=st.cube, allowed=allowed), cell,
                    **final_board(st, w))
            st.slips = [(w, x) for x in sorted(levels)]
    st.set_result(w, pts, how)


def sure_bear_off(st: GameState, s: int) -> str:
    """How ``s``'s last checkers stand ("one checker on the 1-point") when ``s``, on roll, bears them all
    off with every roll; "" otherwise (or when more than four checkers are left)."""
    me, opp = st.pos[s], st.pos[1 - s]
    left = sum(me)
    if not 0 < left <= 4 or me[24]:
        return ""
    if not all(ps.bears_all_off() for _, ps in roll_plays(st.rules, me, opp)):
        return ""
    where = [(n, i + 1) for i, n in enumerate(me[:24]) if n]
    if where == [(1, 1)]:
        return _("one checker on the 1-point")
    # TRANSLATORS: {n} checkers on a point ("2 on the 3-point"), listed after "N checkers left"
    spots = ", ".join(_("{n} on the {point}-point").format(n=n, point=q) for n, q in where)
    return ngettext("{n} checkers left ({where})", "{n} checkers left ({where})", left).format(
        n=left, where=spots)


def possible_results(st: GameState) -> list[tuple[int, int]]:
    """(winner, points) of every way the game could still end from here: a resignation at any level
    the position allows (or its win), or a double dropped."""
    out = set()
    for w in (0, 1):
        top = st.rules.max_level(st.pos[w], st.pos[1 - w])
        out.update((w, x) for x in st.variant.resign_stakes(top, st.cube, st.cube_turned))
        if st.variant.cube_in_play:
            out.add((w, st.variant.drop_stake(st.cube, st.cube_turned)))
    return sorted(out)


def credited(st: GameState, declared: int, full: int, w: int) -> bool:
    """Declared points agree with the full result.  In match play, when the win ends the match, records
    may write instead the points the winner needed (``Wins 3 point and the match`` for a gammon at
    cube 2 from 2-away) or the match length (BackgammonGalaxy writes ``Wins 3 point and the match`` in
    a 3-point match whatever the score; other exporters ``Wins 9 point and the match`` at 7-7 of a
    9-point match with cube 2, a game worth 2).  See docs/rules.md."""
    if declared == full:
        return True
    if st.need is None or full < st.need[w]:
        return False
    length = st.need[w] + st.score[w]
    return declared == length or (declared == st.need[w] and declared < full)


def _explain_stake(st: GameState, how: How, w: int) -> str:
    if how is How.DROP:
        return _("a dropped double at cube {cube}").format(cube=st.cube)
    level = st.rules.win_level(st.pos[w], st.pos[1 - w])
    name = st.variant.level_name(level)
    # TRANSLATORS: {result}: a game's result ("a gammon")
    return _("{result} at cube {cube}").format(result=name, cube=st.cube) if st.variant.cube_in_play else name

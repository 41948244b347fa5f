"""Results under replay: ``Wins`` cells, resignations (and their answers), timeouts, the game's end and
the points it is worth (a mixin of :class:`.game.GameReplay`).

The declared result is checked against the board: a bear-off or a dropped double ends the game with the
stake the variant's scoring gives (``Variant.stake``, ``drop_stake``), a resignation must be a level the
loser could still lose (``Variant.resign_stakes``); in match play a record may write the points the
winner needed instead (docs/rules.md).
"""
from __future__ import annotations

from ..engine import roll_plays
from ..record import LEVELS, Action, Kind
from . import draw
from .model import WARNING, how_text
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


class Results:
    """The results' handlers and checks of :class:`.game.GameReplay` (its state and ``find`` come from
    there)."""

    def on_win(self, a: Action, nxt: Action | None) -> None:
        if self.declared is None:
            pts = a.value if a.value is not None else 0
            self.declared = (self.winner_of(a, pts), pts, a)

    def winner_of(self, a: Action, pts: int) -> int:
        """The side a ``Wins`` cell names.  Its column, unless it says ``and the match`` and only the other
        side's score reaches the match length with these points (some sites write every unnumbered
        ``Wins`` line in the left column)."""
        if a.and_match and self.need is not None:
            reach = [s for s in (0, 1) if pts >= self.need[s]]
            if len(reach) == 1:
                return reach[0]
        return a.player

    def on_resign(self, a: Action, nxt: Action | None) -> None:
        if nxt is not None and nxt.kind == Kind.REJECT and nxt.player != a.player:
            return                  # an offer the opponent rejects: the game goes on (on_reject)
        if self.pending is not None and self.pending.player != a.player:
            self.pending = None     # giving up answers the opponent's double, as a drop does
        if nxt is not None and nxt.kind == Kind.ACCEPT:   # the cell after the acceptance says the result
            nxt = self.actions[self.index + 2] if self.index + 2 < len(self.actions) else None
        if self.declared is None:
            w = 1 - a.player
            if a.level is not None:
                self.check_level(a)
            if nxt is not None and nxt.kind == Kind.WIN:
                # the Wins cell that follows says who won and how much; it may not name the resigning side
                if self.winner_of(nxt, nxt.value or 0) == a.player:
                    # TRANSLATORS: {text}: the record's cell, quoted ('Resigns')
                    self.find("result-mismatch", _("{player} gives up ({text}), but the result that follows "
                                                   "declares {player} the winner").format(
                        player=self.name(a.player), text=repr(a.text)), nxt)
                return
            pts = a.value
            if pts is None and a.level is not None and self.v.cube_in_play:
                pts = self.stake(a.level)       # "resign gammon": the level's points at this cube
            self.declared = (w, pts, a)         # None: no points written

    def check_level(self, a: Action) -> None:
        """A resignation offer's level (1-3) against the position and its written points."""
        w = 1 - a.player
        top = self.rules.max_level(self.pos[w], self.pos[a.player])
        name = level_text(a.level)
        if a.level > top:
            # TRANSLATORS: {level}, {top}: resignation levels (single, gammon, backgammon)
            self.find("result-mismatch", _("{player} resigns a {level}, more than can still be lost (at most a "
                                           "{top} in this position)").format(
                player=self.name(a.player), level=name, top=level_text(top)), a, **self.final_board(w))
        elif a.value is not None and self.v.cube_in_play and a.value != self.stake(a.level):
            self.find("result-mismatch", ngettext(
                "{player} resigns a {level} for {points} point(s); with the cube at {cube} a {level} gives {stake}",
                "{player} resigns a {level} for {points} point(s); with the cube at {cube} a {level} gives {stake}",
                a.value).format(player=self.name(a.player), level=name, points=a.value, cube=self.cube,
                                stake=self.stake(a.level)), a)

    def _offer(self, a: Action, word: str) -> None:
        r = self.last
        if r is None or r.kind != Kind.RESIGN or r.player == a.player:
            msg = (_("{player} accepts a resignation, but the opponent offered none just before") if word == "accepts"
                   else _("{player} rejects a resignation, but the opponent offered none just before"))
            self.find("result-mismatch", msg.format(player=self.name(a.player)), a)

    def on_draw(self, a: Action, nxt: Action | None) -> None:
        draw.on_draw(self, a)

    def on_accept(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "accepts")

    def on_reject(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "rejects")

    def on_timeout(self, a: Action, nxt: Action | None) -> None:
        """The actor ran out of time: the game ends, scored as a resignation (docs/rules.md, Backgammon, 7.
        Scoring and 10. Resignations; nardy500: 500).  Points written with the timeout (or on a ``Wins`` cell
        after it) are checked as a resignation's; a timeout with no points gives the lowest resignation."""
        self.how_resigned = "timeout"
        self.clock.run_out(a)
        if self.declared is None:
            w = 1 - a.player
            if nxt is not None and nxt.kind == Kind.WIN:
                return
            if a.value is None:
                top = self.rules.max_level(self.pos[w], self.pos[1 - w])
                self.declared = (w, min(self.v.resign_stakes(top, self.cube, self.cube_turned)), a)
            else:
                self.declared = (w, a.value, a)

    def scored(self) -> int | None:
        """Points the variant's scoring credits the winner: the declared points where the rules accept them;
        otherwise the stake of the game's end on the board, or for a resignation the largest stake the
        position allowed that does not exceed the declared points (else the smallest), in match play at
        most the points the winner needed; a conceded match (``Wins N points and the match`` with the
        points the winner needed) credits those points."""
        r = self.report
        if r.winner is None or r.points is None:
            return None
        w = r.winner
        if self.conceded:
            return r.points                    # the match conceded: what the winner needed
        if self.ended:
            full = self.ended[2]
            if self.credited(r.points, full, w):
                return r.points
        else:
            stakes = sorted({self.stake(k) for k in range(1, self.rules.max_level(self.pos[w], self.pos[1 - w]) + 1)})
            if any(self.credited(r.points, full, w) for full in stakes):
                return r.points
            full = max((x for x in stakes if x <= r.points), default=stakes[0])
        # match play: never more than the winner needed to win the match
        return min(full, self.need[w]) if self.need is not None and self.need[w] > 0 else full

    # -- end of game ----------------------------------------------------------------------------------
    def final_board(self, w: int) -> dict:
        """--explain data for a result finding: the final position from the side of ``w``."""
        title = (_("final position, cube {cube}").format(cube=self.cube) if self.owner is None else
                 _("final position, cube {cube} owned by {player}").format(cube=self.cube,
                                                                          player=self.name(self.owner)))
        return {"position": (self.pos[w], self.pos[1 - w]), "board_side": w, "board_title": title}

    def finish(self, actions: list[Action]) -> None:
        """Settle the game's result: the declared one (a ``Wins`` cell, a resignation, a timeout) checked
        against how the game ended on the board, or the end reached when nothing is declared."""
        if self.pending is not None and not self.ended:
            self.find("cube-response", _("{player} doubled to {value} and the double was neither taken nor "
                                         "dropped").format(player=self.name(self.pending.player),
                                                           value=self.pending.value), self.pending)
        last = actions[-1] if actions else None
        if self.owed is not None:
            draw.settle_owed(self, self.declared[2] if self.declared is not None else last)
        if self.ended and self.ended[0] == "draw" or self.draw_cell is not None:
            if draw.finish_draw(self, last):
                return
        decl, ended = self.declared, self.ended
        if decl is None:
            self.undeclared(last)
            return
        w, pts, cell = decl
        if cell.kind is Kind.WIN and cell.margin:
            w = self.margin_winner(w)
        if pts is None and ended:
            pts = ended[2]                     # gave up after the game was over: the game's result
        if pts is None:
            # "Resigns" / "Concedes" with no points and no "Wins" after it: the record does not say what
            # was resigned; the next score line is trusted
            self.find("result-mismatch", _("{player} gives up ({text}) and no points are written; the next game's "
                                           "score line is taken as it is").format(player=self.name(1 - w),
                                                                                  text=repr(cell.text)),
                      cell, severity=WARNING)
            self.set_result(w, None, "resign")
            return
        if ended:
            self.declared_after_end(w, pts, cell)
        elif not self.wrong_column(w, pts, cell):
            self.resigned(w, pts, cell)

    def margin_winner(self, w: int) -> int:
        """The winner of a ``Wins`` written at the left margin, in neither player's column: the one the game's
        end shows (the bear-off or the drop that ended it; the player on roll who bears off with any roll;
        the opponent of a player who ran out of time); ``w``, the column's guess, when nothing shows one."""
        if self.ended and self.ended[0] != "draw":
            return self.ended[1]
        if self.clock.timed_out is not None:
            return 1 - self.clock.timed_out
        if self.last_roller is not None and self.sure_bear_off(1 - self.last_roller):
            return 1 - self.last_roller
        return w

    def undeclared(self, last: Action | None) -> None:
        """No result written: the end reached on the board, if any."""
        if self.ended:
            how, w, pts = self.ended
            self.set_result(w, pts, how)
            if not self.g.broken:
                # TRANSLATORS: {how}: how the game ended (bearoff, drop); {points}: what the winner scores
                self.find("result-mismatch", _("the game ended ({how}: {player} wins {points}) but no result is "
                                               "written").format(how=how_text(how), player=self.name(w), points=pts),
                          last, severity=WARNING)
        elif last is not None and not self.g.broken:
            self.find("result-mismatch", _("the game ends without a result (unfinished record?)"), last,
                      severity=WARNING)

    def declared_after_end(self, w: int, pts: int, cell: Action) -> None:
        """A result written after the game ended on the board (bear-off or drop): who and how much."""
        how, ew, epts = self.ended
        if w != ew:
            self.find("result-mismatch", _("{player} is declared the winner, but {winner} won ({how})").format(
                player=self.name(w), winner=self.name(ew), how=how_text(how)), cell, **self.final_board(ew))
            self.slips = [(w, pts), (ew, epts)]
        elif not self.credited(pts, epts, w):
            # TRANSLATORS: {result}: the game's result ("a gammon at cube 2"); {full}: the points it gives
            self.find("result-mismatch", ngettext("declared {points} point(s); {result} gives {full}",
                                                  "declared {points} point(s); {result} gives {full}", pts).format(
                points=pts, result=self._explain_stake(how, ew), full=epts), cell, **self.final_board(ew))
            self.slips = [(ew, epts)]
        self.set_result(ew, pts, how)

    def wrong_column(self, w: int, pts: int, cell: Action) -> bool:
        """``Wins`` in the column of the player who cannot have won (the opponent is on roll and bears off
        with any roll): reported and settled; False when that is not the case."""
        if cell.kind != Kind.WIN or self.last_roller != w or self.clock.timed_out is not None:
            return False
        sure = self.sure_bear_off(1 - w)
        if not sure:
            return False
        o = 1 - w
        full = self.stake(self.rules.win_level(tuple([0] * 25), self.pos[w]))
        # TRANSLATORS: {checkers}: how the other player's last checkers stand ("one checker on the 1-point")
        self.find("result-mismatch", _("{player} is declared the winner, but {other} is on roll with {checkers} and "
                                       "bears off with any roll: {other} must have won (the result is written in "
                                       "the wrong column?)").format(player=self.name(w), other=self.name(o),
                                                                    checkers=sure), cell, **self.final_board(o))
        self.slips = [(w, pts), (o, full)]
        self.set_result(o, pts, "bearoff")
        return True

    def resigned(self, w: int, pts: int, cell: Action) -> None:
        """A resignation (or a timeout): the points must be a level the loser could still lose."""
        loser = 1 - w
        win_side, lose_side = self.pos[w], self.pos[loser]
        top = self.rules.max_level(win_side, lose_side)
        levels = self.v.resign_stakes(top, self.cube, self.cube_turned)
        how = self.how_resigned
        if self.clock.timed_out == w:
            self.find("result-mismatch", _("{player} is declared the winner, but ran out of time (a timeout loses "
                                           "the game)").format(player=self.name(w)), cell, **self.final_board(w))
            w = 1 - w
        elif not any(self.credited(pts, full, w) for full in levels):
            allowed = ", ".join(str(x) for x in sorted(levels))
            if cell.and_match and self.need is not None and pts == self.need[w] > max(levels):
                # Sites let a player resign the whole match: the winner is credited what they needed.
                self.conceded = True
                # TRANSLATORS: {allowed}: the points a resignation could give ("1, 2")
                self.find("result-mismatch", ngettext(
                    "the match was conceded: {points} point(s) credited, more than a resignation of this game "
                    "gives ({allowed} with the cube at {cube})",
                    "the match was conceded: {points} point(s) credited, more than a resignation of this game "
                    "gives ({allowed} with the cube at {cube})", pts).format(points=pts, allowed=allowed,
                                                                             cube=self.cube),
                    cell, severity=WARNING, **self.final_board(w))
            else:
                if how == "timeout" and self.v.cube_in_play:
                    msg = ngettext("declared {points} point(s) for a timeout; with the cube at {cube} and the "
                                   "position on the board the possible results are {allowed}",
                                   "declared {points} point(s) for a timeout; with the cube at {cube} and the "
                                   "position on the board the possible results are {allowed}", pts)
                elif how == "timeout":
                    msg = ngettext("declared {points} point(s) for a timeout; with the position on the board and "
                                   "this scoring the possible results are {allowed}",
                                   "declared {points} point(s) for a timeout; with the position on the board and "
                                   "this scoring the possible results are {allowed}", pts)
                elif self.v.cube_in_play:
                    msg = ngettext("declared {points} point(s) for a resignation; with the cube at {cube} and the "
                                   "position on the board the possible results are {allowed}",
                                   "declared {points} point(s) for a resignation; with the cube at {cube} and the "
                                   "position on the board the possible results are {allowed}", pts)
                else:
                    msg = ngettext("declared {points} point(s) for a resignation; with the position on the board "
                                   "and this scoring the possible results are {allowed}",
                                   "declared {points} point(s) for a resignation; with the position on the board "
                                   "and this scoring the possible results are {allowed}", pts)
                self.find("result-mismatch", msg.format(points=pts, cube=self.cube, allowed=allowed), cell,
                          **self.final_board(w))
                self.slips = [(w, x) for x in sorted(levels)]
        self.set_result(w, pts, how)

    def sure_bear_off(self, s: int) -> str:
        """How ``s``'s last checkers stand ("one checker on the 1-point") when ``s``, on roll, bears them all
        off with every roll; "" otherwise (or when more than four checkers are left)."""
        me, opp = self.pos[s], self.pos[1 - s]
        left = sum(me)
        if not 0 < left <= 4 or me[24]:
            return ""
        if not all(ps.bears_all_off() for _, ps in roll_plays(self.rules, me, opp)):
            return ""
        where = [(n, i + 1) for i, n in enumerate(me[:24]) if n]
        if where == [(1, 1)]:
            return _("one checker on the 1-point")
        # TRANSLATORS: {n} checkers on a point ("2 on the 3-point"), listed after "N checkers left"
        spots = ", ".join(_("{n} on the {point}-point").format(n=n, point=q) for n, q in where)
        return ngettext("{n} checkers left ({where})", "{n} checkers left ({where})", left).format(
            n=left, where=spots)

    def possible_results(self) -> list[tuple[int, int]]:
        """(winner, points) of every way the game could still end from here: a resignation at any level
        the position allows (or its win), or a double dropped."""
        out = set()
        for w in (0, 1):
            top = self.rules.max_level(self.pos[w], self.pos[1 - w])
            out.update((w, x) for x in self.v.resign_stakes(top, self.cube, self.cube_turned))
            if self.v.cube_in_play:
                out.add((w, self.v.drop_stake(self.cube, self.cube_turned)))
        return sorted(out)

    def credited(self, declared: int, full: int, w: int) -> bool:
        """Declared points agree with the full result.  In match play, when the win ends the match, records
        may write instead the points the winner needed (``Wins 3 point and the match`` for a gammon at
        cube 2 from 2-away) or the match length (BackgammonGalaxy writes ``Wins 3 point and the match`` in
        a 3-point match whatever the score; other exporters ``Wins 9 point and the match`` at 7-7 of a
        9-point match with cube 2, a game worth 2).  See docs/rules.md."""
        if declared == full:
            return True
        if self.need is None or full < self.need[w]:
            return False
        length = self.need[w] + self.rep_score[w]
        return declared == length or (declared == self.need[w] and declared < full)

    def _explain_stake(self, how: str, w: int) -> str:
        if how == "drop":
            return _("a dropped double at cube {cube}").format(cube=self.cube)
        level = self.rules.win_level(self.pos[w], self.pos[1 - w])
        name = self.v.level_name(level)
        # TRANSLATORS: {result}: a game's result ("a gammon")
        return _("{result} at cube {cube}").format(result=name, cube=self.cube) if self.v.cube_in_play else name

    def set_result(self, w: int | None, pts: int | None, how: str) -> None:
        r = self.report
        r.winner, r.points, r.how = w, pts, how

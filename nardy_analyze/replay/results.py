"""Results under replay: ``Wins`` cells, resignations (and their answers), timeouts, the game's end and
the points it is worth (a mixin of :class:`.game.GameReplay`).

The declared result is checked against the board: a bear-off or a dropped double ends the game with the
stake the variant's scoring gives (``Variant.stake``, ``drop_stake``), a resignation must be a level the
loser could still lose (``Variant.resign_stakes``); in match play a record may write the points the
winner needed instead (docs/rules.md).
"""
from __future__ import annotations

from ..engine import generate
from ..record import LEVELS, Action, Kind
from . import draw
from .model import WARNING


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
                    self.find("result-mismatch", f"{self.name(a.player)} gives up ({a.text!r}), but the result "
                              f"that follows declares {self.name(a.player)} the winner", nxt)
                return
            pts = a.value
            if pts is None and a.level is not None and self.v.cube_in_play:
                pts = self.stake(a.level)       # "resign gammon": the level's points at this cube
            self.declared = (w, pts, a)         # None: no points written

    def check_level(self, a: Action) -> None:
        """A resignation offer's level (1-3) against the position and its written points."""
        w = 1 - a.player
        top = self.rules.max_level(self.pos[w], self.pos[a.player])
        name = LEVELS.get(a.level, str(a.level))
        if a.level > top:
            self.find("result-mismatch", f"{self.name(a.player)} resigns a {name}, more than can still be lost "
                      f"(at most a {LEVELS.get(top, top)} in this position)", a, **self.final_board(w))
        elif a.value is not None and self.v.cube_in_play and a.value != self.stake(a.level):
            self.find("result-mismatch", f"{self.name(a.player)} resigns a {name} for {a.value} point(s); with the "
                      f"cube at {self.cube} a {name} gives {self.stake(a.level)}", a)

    def _offer(self, a: Action, word: str) -> None:
        r = self.last
        if r is None or r.kind != Kind.RESIGN or r.player == a.player:
            self.find("result-mismatch", f"{self.name(a.player)} {word} a resignation, but the opponent offered "
                      f"none just before", a)

    def on_draw(self, a: Action, nxt: Action | None) -> None:
        draw.on_draw(self, a)

    def on_accept(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "accepts")

    def on_reject(self, a: Action, nxt: Action | None) -> None:
        self._offer(a, "rejects")

    def on_timeout(self, a: Action, nxt: Action | None) -> None:
        """The actor ran out of time: the game ends, scored as a resignation (RULES.md 1.7, 1.10; nardy500:
        500).  Points written with the timeout (or on a ``Wins`` cell after it) are checked as a
        resignation's; a timeout with no points gives the lowest resignation."""
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
        most the points the winner needed."""
        r = self.report
        if r.winner is None or r.points is None:
            return None
        w = r.winner
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
        return {"position": (self.pos[w], self.pos[1 - w]), "board_side": w,
                "board_title": f"final position, cube {self.cube}"
                               + (f" owned by {self.name(self.owner)}" if self.owner is not None else "")}

    def finish(self, actions: list[Action]) -> None:
        """Settle the game's result: the declared one (a ``Wins`` cell, a resignation, a timeout) checked
        against how the game ended on the board, or the end reached when nothing is declared."""
        if self.pending is not None and not self.ended:
            self.find("cube-response", f"{self.name(self.pending.player)} doubled to {self.pending.value} "
                      f"and the double was neither taken nor dropped", self.pending)
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
        if pts is None and ended:
            pts = ended[2]                     # gave up after the game was over: the game's result
        if pts is None:
            # "Resigns" / "Concedes" with no points and no "Wins" after it: the record does not say what
            # was resigned; the next score line is trusted
            self.find("result-mismatch", f"{self.name(1 - w)} gives up ({cell.text!r}) and no points are written; "
                      f"the next game's score line is taken as it is", cell, severity=WARNING)
            self.set_result(w, None, "resign")
            return
        if ended:
            self.declared_after_end(w, pts, cell)
        elif not self.wrong_column(w, pts, cell):
            self.resigned(w, pts, cell)

    def undeclared(self, last: Action | None) -> None:
        """No result written: the end reached on the board, if any."""
        if self.ended:
            how, w, pts = self.ended
            self.set_result(w, pts, how)
            if not self.g.broken:
                self.find("result-mismatch", f"the game ended ({how}: {self.name(w)} wins {pts}) "
                          f"but no result is written", last, severity=WARNING)
        elif last is not None and not self.g.broken:
            self.find("result-mismatch", "the game ends without a result (unfinished record?)", last,
                      severity=WARNING)

    def declared_after_end(self, w: int, pts: int, cell: Action) -> None:
        """A result written after the game ended on the board (bear-off or drop): who and how much."""
        how, ew, epts = self.ended
        if w != ew:
            self.find("result-mismatch", f"{self.name(w)} is declared the winner, but {self.name(ew)} "
                      f"won ({how})", cell, **self.final_board(ew))
            self.slips = [(w, pts), (ew, epts)]
        elif not self.credited(pts, epts, w):
            self.find("result-mismatch", f"declared {pts} point(s); {self._explain_stake(how, ew)} "
                      f"gives {epts}", cell, **self.final_board(ew))
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
        self.find("result-mismatch", f"{self.name(w)} is declared the winner, but {self.name(o)} is on "
                  f"roll with {sure} and bears off with any roll: {self.name(o)} must have won (the "
                  f"result is written in the wrong column?)", cell, **self.final_board(o))
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
            self.find("result-mismatch", f"{self.name(w)} is declared the winner, but ran out of time "
                      f"(a timeout loses the game)", cell, **self.final_board(w))
            w = 1 - w
        elif not any(self.credited(pts, full, w) for full in levels):
            allowed = ", ".join(str(x) for x in sorted(levels))
            if cell.and_match and self.need is not None and pts == self.need[w] > max(levels):
                # Sites let a player resign the whole match: the winner is credited what they needed.
                self.find("result-mismatch", f"the match was conceded: {pts} point(s) credited, more than a "
                          f"resignation of this game gives ({allowed} with the cube at {self.cube})", cell,
                          severity=WARNING, **self.final_board(w))
            else:
                what = "a timeout" if how == "timeout" else "a resignation"
                where = (f"with the cube at {self.cube} and the position on the board" if self.v.cube_in_play
                         else "with the position on the board and this scoring")
                self.find("result-mismatch", f"declared {pts} point(s) for {what}; {where} the possible "
                          f"results are {allowed}", cell, **self.final_board(w))
                self.slips = [(w, x) for x in sorted(levels)]
        self.set_result(w, pts, how)

    def sure_bear_off(self, s: int) -> str:
        """How ``s``'s last checkers stand ("one checker on the 1-point") when ``s``, on roll, bears them all
        off with every roll; "" otherwise (or when more than four checkers are left)."""
        me, opp = self.pos[s], self.pos[1 - s]
        left = sum(me)
        if not 0 < left <= 4 or me[24]:
            return ""
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                turn = self.rules.start_turn(me, opp, False, (d1, d2))
                if not any(not sum(p[0]) for p in generate(self.rules, me, opp, d1, d2, turn).plays):
                    return ""
        where = [f"{n} on the {i + 1}-point" for i, n in enumerate(me[:24]) if n]
        return ("one checker on the 1-point" if where == ["1 on the 1-point"]
                else f"{left} checkers left ({', '.join(where)})")

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
            return f"a dropped double at cube {self.cube}"
        level = self.rules.win_level(self.pos[w], self.pos[1 - w])
        name = self.v.level_name(level)
        return f"{name} at cube {self.cube}" if self.v.cube_in_play else name

    def set_result(self, w: int | None, pts: int | None, how: str) -> None:
        r = self.report
        r.winner, r.points, r.how = w, pts, how

"""The doubling cube under replay: doubles, takes, drops and beavers (a mixin of :class:`.game.GameReplay`).

The variant says whether the cube is in play, its limit and the stakes (``Variant.stake``,
``drop_stake``); the game replay's state holds the cube value, its owner and the double waiting for an
answer (``pending``).
"""
from __future__ import annotations

from ..engine import generate
from ..record import Action, Kind
from .model import WARNING
from ..i18n import _


class CubeActions:
    """The cube's handlers of :class:`.game.GameReplay` (its state and ``find`` come from there)."""

    def stake(self, level: int) -> int:
        """Points of a game won at ``level``: the variant's scoring (rules object), the cube."""
        return self.v.stake(level, self.cube, self.cube_turned)

    def on_double(self, a: Action, nxt: Action | None) -> None:
        p = a.player
        why = None
        last = self.last
        if (p == 1 and last is not None and last.kind == Kind.ROLL and last.player == p and self.last_roller == p
                and a.move is not None and last.move is not None and a.move > last.move
                and self.pending is None and self.v.cube_in_play and self.could_dance(1 - p)):
            # "  8)                 Doubles => 2": the second player's double on a later move than their
            # last roll, the first player's cell of that move empty while that player is on the bar and
            # could dance: the roll was not written (a dance, typed as nothing), so the double comes
            # before p's roll as usual
            q = 1 - p
            # TRANSLATORS: {player} did not roll (on the bar); {doubler}: the other player, who doubles
            self.find("parse-error", _("{player}'s roll of move {move} is not written (the cell before the double "
                                       "is empty, and {player} has a checker on the bar: a dance?); read as a roll "
                                       "that could not be played, so {doubler} doubles before rolling as "
                                       "usual").format(player=self.name(q), move=a.move, doubler=self.name(p)),
                      a, severity=WARNING)
            self.last_roller = q
            self.last = None
        if not self.v.cube_in_play:
            why = _("this game is played without the doubling cube")
        elif self.crawford:
            why = _("this is the Crawford game: nobody may double")
        elif self.owner is not None and self.owner != p:
            why = _("{player} owns the cube at {cube}").format(player=self.name(self.owner), cube=self.cube)
        elif self.pending is not None:
            why = _("a double is already waiting for an answer")
        elif self.last is not None and self.last.kind == Kind.ROLL and self.last.player == p:
            why = _("a double comes before rolling, not after")
        elif self.last_roller is None:
            why = _("nobody may double before the opening roll")
        elif self.last_roller == p:
            why = _("{player} is to roll: a player doubles only at the start of their own turn").format(
                player=self.name(1 - p))
        limit = self.v.get("cube_limit")
        if why is None and limit and self.cube * 2 > limit:
            why = _("the cube limit is {limit}").format(limit=limit)
        if why is None and self.crawford is None:
            # TRANSLATORS: {score}: the score the record starts at, "6-3"
            self.find("cube-illegal", _("{player} doubles to {value} in a game that may be the Crawford game: the "
                                        "record starts mid-match at {score} and does not say whether the Crawford "
                                        "game was already played; read as a later game, where doubling is "
                                        "allowed").format(player=self.name(p), value=a.value,
                                                          score=f"{self.rep_score[0]}-{self.rep_score[1]}"),
                      a, severity=WARNING)
        if why:
            # TRANSLATORS: {why}: why the double is not allowed
            self.find("cube-illegal", _("{player} doubles to {value}: {why}").format(
                player=self.name(p), value=a.value, why=why), a)
        elif a.value is not None and a.value != self.cube * 2:
            self.find("cube-illegal", _("{player} doubles to {value}, but the cube stands at {cube}: a double "
                                        "offers {offer}").format(player=self.name(p), value=a.value, cube=self.cube,
                                                                 offer=self.cube * 2), a)
        self.pending = a

    def could_dance(self, s: int) -> bool:
        """Whether ``s`` has a checker on the bar and some roll cannot enter it (nothing can be played)."""
        me, opp = self.pos[s], self.pos[1 - s]
        if not self.rules.has_bar or not me[24]:
            return False
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                turn = self.rules.start_turn(me, opp, False, (d1, d2))
                if generate(self.rules, me, opp, d1, d2, turn).max_dice == 0:
                    return True
        return False

    def _answer(self, a: Action, word: str) -> Action | None:
        d = self.pending
        if d is None or d.player == a.player:
            msg = (_("{player} takes but no double was offered") if word == "takes" else
                   _("{player} drops but no double was offered"))
            self.find("cube-response", msg.format(player=self.name(a.player)), a)
            return None
        self.pending = None
        return d

    def on_take(self, a: Action, nxt: Action | None) -> None:
        if self._answer(a, "takes"):
            self.cube *= 2
            self.owner = a.player
            self.cube_turned = True

    def on_drop(self, a: Action, nxt: Action | None) -> None:
        if self.pending is None:
            # Some sites write a resignation as "Drops" with no double before it
            self.find("cube-response", _("{player} drops but no double was offered: read as a resignation, as "
                                         "some sites write one").format(player=self.name(a.player)), a,
                      severity=WARNING)
            self.on_resign(a, nxt)
            return
        d = self._answer(a, "drops")
        if d:
            if not self.ended:
                self.ended = ("drop", d.player, self.v.drop_stake(self.cube, self.cube_turned))

    def on_beaver(self, a: Action, nxt: Action | None) -> None:
        """A beaver (docs/rules.md, backgammon rule 8, option ``beaver``, money play): the doubled player takes and at once
        redoubles, keeping the cube; the doubler must take or drop the new value (a raccoon is a beaver of
        a beaver).  Judged as written: a take of the double before it, then a double."""
        p, d = a.player, self.pending
        why = None
        if d is None or d.player == p:
            why = _("no double of the opponent is waiting for an answer")
        elif not self.money:
            why = _("beavers belong to money play, not to a match")
        elif not self.v.get("beaver"):
            why = _('the beaver rule is off (a "Beaver" tag or --rule beaver=on allows it)')
        if d is not None and d.player != p:
            self.pending = None
            self.cube *= 2
            self.owner = p
            self.cube_turned = True
        if why:
            # TRANSLATORS: {why}: why the beaver is not allowed
            self.find("cube-illegal", _("{player} beavers to {value}: {why}").format(
                player=self.name(p), value=a.value, why=why), a)
        elif a.value is not None and a.value != self.cube * 2:
            self.find("cube-illegal", _("{player} beavers to {value}, but the double made the cube {cube}: a "
                                        "beaver offers {offer}").format(player=self.name(p), value=a.value,
                                                                        cube=self.cube, offer=self.cube * 2), a)
        self.pending = a

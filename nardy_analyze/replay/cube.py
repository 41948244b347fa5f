"""The doubling cube under replay: doubles, takes, drops and beavers (handlers of the game state,
:class:`.state.GameState`).

The variant says whether the cube is in play, its limit and the stakes (``Variant.stake``,
``drop_stake``); the game state holds the cube value, its owner and the double waiting for an answer
(``pending``).
"""
from __future__ import annotations

from ..engine import roll_plays
from ..record import Action, Kind
from ..events import WARNING, How
from ..i18n import _
from .results import on_resign
from .state import Ended, GameState


def on_double(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    p = a.player
    why = None
    last = st.last
    if (p == 1 and last is not None and last.kind == Kind.ROLL and last.player == p and st.last_roller == p
            and a.move is not None and last.move is not None and a.move > last.move
            and st.pending is None and st.variant.cube_in_play and could_dance(st, 1 - p)):
        # "  8)                 Doubles => 2": the second player's double on a later move than their
        # last roll, the first player's cell of that move empty while that player is on the bar and
        # could dance: the roll was not written (a dance, typed as nothing), so the double comes
        # before p's roll as usual
        q = 1 - p
        # TRANSLATORS: {player} did not roll (on the bar); {doubler}: the other player, who doubles
        st.find("parse-error", _("{player}'s roll of move {move} is not written (the cell before the double "
                                 "is empty, and {player} has a checker on the bar: a dance?); read as a roll "
                                 "that could not be played, so {doubler} doubles before rolling as "
                                 "usual").format(player=st.name(q), move=a.move, doubler=st.name(p)),
                a, severity=WARNING)
        st.last_roller = q
        st.last = None
    if not st.variant.cube_in_play:
        why = _("this game is played without the doubling cube")
    elif st.crawford:
        why = _("this is the Crawford game: nobody may double")
    elif st.owner is not None and st.owner != p:
        why = _("{player} owns the cube at {cube}").format(player=st.name(st.owner), cube=st.cube)
    elif st.pending is not None:
        why = _("a double is already waiting for an answer")
    elif st.last is not None and st.last.kind == Kind.ROLL and st.last.player == p:
        why = _("a double comes before rolling, not after")
    elif st.last_roller is None:
        why = _("nobody may double before the opening roll")
    elif st.last_roller == p:
        why = _("{player} is to roll: a player doubles only at the start of their own turn").format(
            player=st.name(1 - p))
    limit = st.variant.get("cube_limit")
    if why is None and limit and st.cube * 2 > limit:
        why = _("the cube limit is {limit}").format(limit=limit)
    if why is None and st.crawford is None:
        # TRANSLATORS: {score}: the score the record starts at, "6-3"
        st.find("cube-illegal", _("{player} doubles to {value} in a game that may be the Crawford game: the "
                                  "record starts mid-match at {score} and does not say whether the Crawford "
                                  "game was already played; read as a later game, where doubling is "
                                  "allowed").format(player=st.name(p), value=a.value,
                                                    score=f"{st.score[0]}-{st.score[1]}"),
                a, severity=WARNING)
    if why:
        # TRANSLATORS: {why}: why the double is not allowed
        st.find("cube-illegal", _("{player} doubles to {value}: {why}").format(
            player=st.name(p), value=a.value, why=why), a)
    elif a.value is not None and a.value != st.cube * 2:
        st.find("cube-illegal", _("{player} doubles to {value}, but the cube stands at {cube}: a double "
                                  "offers {offer}").format(player=st.name(p), value=a.value, cube=st.cube,
                                                           offer=st.cube * 2), a)
    st.pending = a


def could_dance(st: GameState, s: int) -> bool:
    """Whether ``s`` has a checker on the bar and some roll cannot enter it (nothing can be played)."""
    me, opp = st.pos[s], st.pos[1 - s]
    if not st.rules.has_bar or not me[24]:
        return False
    return any(ps.max_dice == 0 for _, ps in roll_plays(st.rules, me, opp))


def _answer(st: GameState, a: Action, word: str) -> Action | None:
    d = st.pending
    if d is None or d.player == a.player:
        msg = (_("{player} takes but no double was offered") if word == "takes" else
               _("{player} drops but no double was offered"))
        st.find("cube-response", msg.format(player=st.name(a.player)), a)
        return None
    st.pending = None
    return d


def on_take(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    if _answer(st, a, "takes"):
        st.cube *= 2
        st.owner = a.player
        st.cube_turned = True


def on_drop(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    if st.pending is None:
        # Some sites write a resignation as "Drops" with no double before it
        st.find("cube-response", _("{player} drops but no double was offered: read as a resignation, as "
                                   "some sites write one").format(player=st.name(a.player)), a,
                severity=WARNING)
        on_resign(st, a, nxt, i)
        return
    d = _answer(st, a, "drops")
    if d:
        if not st.ended:
            st.ended = Ended(How.DROP, d.player, st.variant.drop_stake(st.cube, st.cube_turned))


def on_beaver(st: GameState, a: Action, nxt: Action | None, i: int) -> None:
    """A beaver (docs/rules.md, backgammon rule 8, option ``beaver``, money play): the doubled player
    takes and at once redoubles, keeping the cube; the doubler must take or drop the new value (a raccoon is a beaver of
    a beaver).  Judged as written: a take of the double before it, then a double."""
    p, d = a.player, st.pending
    why = None
    if d is None or d.player == p:
        why = _("no double of the opponent is waiting for an answer")
    elif not st.money:
        why = _("beavers belong to money play, not to a match")
    elif not st.variant.get("beaver"):
        why = _('the beaver rule is off (a "Beaver" tag or --rule beaver=on allows it)')
    if d is not None and d.player != p:
        st.pending = None
        st.cube *= 2
        st.owner = p
        st.cube_turned = True
    if why:
        # TRANSLATORS: {why}: why the beaver is not allowed
        st.find("cube-illegal", _("{player} beavers to {value}: {why}").format(
            player=st.name(p), value=a.value, why=why), a)
    elif a.value is not None and a.value != st.cube * 2:
        st.find("cube-illegal", _("{player} beavers to {value}, but the double made the cube {cube}: a "
                                  "beaver offers {offer}").format(player=st.name(p), value=a.value,
                                                                  cube=st.cube, offer=st.cube * 2), a)
    st.pending = a

"""Back onto the game's course after an illegal play (functions of the game state, :class:`.state.GameState`).

After an illegal play the replay goes on from the position as recorded, unless the rolls that follow fit
one of the legal plays and not the recorded position (a step left out or mistyped in the transcript):
a look-ahead (:func:`fits`) walks the rolls after the action at index ``i`` with the same turn function
as the replay.  An exporter's mark that a play was illegal and not given (Snowie) is resolved the same way, or by the
position record inside the mark.
"""
from __future__ import annotations

from collections import Counter

from ..engine import Dice, borne_off, fmt_steps, generate, valid_dice
from ..engine.core import Pos
from ..engine.judge import judge, physical, problem_text
from ..record import Action, Kind
from ..events import WARNING, How
from .state import Ended, GameState
from ..i18n import _, ngettext
from .turns import Part, quick_turn, walk_turn, written_parts

MARK_CANDIDATES = 400  # legal plays tried after an exporter's "Illegal play" mark (nothing written to sort by)
LOOKAHEAD = 40         # rolls checked after an illegal play to choose where the replay goes on
CANDIDATES = 120       # legal plays tried as the real one
RESYNCS = 10           # illegal plays per game after which the replay just follows the record


def on_illegal_mark(st: GameState, i: int, a: Action, p: int, d1: int, d2: int, turn) -> None:
    """An exporter's mark that the play was illegal and is not given (Snowie ``Illegal play (...)``).
    The mark's position record (``snowie.decode``) gives the board after the refused play: the replay
    goes on from it when it follows from the position before (``snowie.follows``).  Otherwise (no
    record in the mark, or one that does not fit) nothing can be judged and the replay goes on from
    the legal play of the roll that the most following rolls fit."""
    me, opp = st.pos[p], st.pos[1 - p]
    ps = generate(st.rules, me, opp, Dice.roll(d1, d2).numbers, turn)
    mark = a.illegal_mark
    short = mark if len(mark) <= 40 else mark[:36] + "...)"
    from ..notation import snowie       # only for a record with an exporter's illegal-play mark (start-up)
    decoded = snowie.decode(mark)
    board = None
    same = False              # the mark shows the board before the play
    if decoded is not None:
        mine = decoded.names[0].strip().lower() != st.name(1 - p).strip().lower() or \
            decoded.names[0].strip().lower() == st.name(p).strip().lower()
        for own, other in snowie.boards(decoded):
            for after in (((own, other), (other, own)) if mine else ((other, own), (own, other))):
                same = same or after == (me, opp)
                if snowie.follows(me, opp, after[0], after[1]):
                    board = after
                    break
            if board is not None:
                break
    if board is not None:
        shown = snowie.describe(me, opp, board[0])
        legal = ps.plays.get(board)
        if legal is not None:
            # TRANSLATORS: {mark}: the exporter's mark, "Illegal play (...)"; {shown}: the play the board in
            # the mark shows ("10/6(2)"); {roll}: "54"; {play}: the legal play
            msg = _("the record marks this play as refused ({mark}) and does not give it; the board in the "
                    "mark shows {shown}, which a legal {roll} reaches ({play}); the replay goes on from that "
                    "board").format(mark=short, shown=shown, roll=f"{d1}{d2}", play=fmt_steps(legal))
            st.find("parse-error", msg, a, severity=WARNING,
                    position=(me, opp), dice=(d1, d2), alternatives=ps.example(6))
        else:
            illegal_mark_stood(st, a, d1, d2, turn, ps, board, short, shown)
        best = board
    else:
        rest = rest_rolls(st, i)      # the most rolls a play could fit
        best, best_n, chosen = None, -1, ""
        for pos, path in list(ps.plays.items())[:MARK_CANDIDATES]:
            n = fits(st, i, p, pos)
            if n > best_n:
                best, best_n, chosen = pos, n, fmt_steps(path)
                if n >= min(LOOKAHEAD, rest):
                    break
        if best is None:
            best = (me, opp)
        why = (_("the position in the mark is the board before the play") if same else
               _("the position in the mark does not follow from the board before the play")
               if decoded is not None else _("the mark holds no position record"))
        rolls = min(LOOKAHEAD, rest)
        # TRANSLATORS: {play}: a legal play; {n} of the next {rolls} rolls fit it
        how = (ngettext("the plays that follow fit {play} best ({n} of the next {rolls} rolls), and the "
                        "replay goes on from there",
                        "the plays that follow fit {play} best ({n} of the next {rolls} rolls), and the "
                        "replay goes on from there", rolls).format(play=chosen, n=best_n, rolls=rolls)
               if chosen
               else _("the roll has no legal play, and the replay goes on from the position before it"))
        # TRANSLATORS: {mark}: the exporter's mark; {why}: why the play is not judged; {how}: where the
        # replay goes on
        st.find("parse-error", _("the record marks this play as illegal ({mark}) and does not give it: the "
                                 "play is not judged ({why}); {how}").format(mark=short, why=why, how=how),
                a, severity=WARNING, position=(me, opp), dice=(d1, d2), alternatives=ps.example(6))
    st.pos[p], st.pos[1 - p] = best
    if borne_off(best[0]) == 15 and not st.ended:
        st.ended = Ended(How.BEAROFF, p, st.stake(st.rules.win_level(best[0], best[1])))


def illegal_mark_stood(st: GameState, a: Action, d1: int, d2: int, turn, ps, board: Pos, mark: str, shown: str) -> None:
    """An exporter's mark whose board no legal play of the roll reaches: the illegal play stood (the game
    went on from that board, as the replay does).  An error under the rule the play breaks, judged by
    the engine as if the play the board shows had been written, saying that the record marks it."""
    from ..notation.snowie import movements   # (as in on_illegal_mark: only for a record with such a mark)

    me, opp = board_before = (st.pos[a.player], st.pos[1 - a.player])
    verdict = judge(st.rules, me, opp, Dice.roll(d1, d2), movements(me, board[0]), playset=ps, turn=turn)
    if verdict.problems:
        rule, why = verdict.problems[0].rule, problem_text(st.rules, verdict.problems[0])
    else:      # (the engine finds a legal route to another board: the board shown is still none of them)
        rule = "max-dice"
        why = _("the play reaches a position no legal play of {dice} reaches, e.g. {examples}").format(
            dice=f"{d1}{d2}", examples="; ".join(ps.example(2)))
    # TRANSLATORS: {message}: what is wrong with the play (as for a written play); {shown}: the play the
    # board in the mark shows ("10/6(2)"); {mark}: the exporter's mark, "Illegal play (...)"
    msg = _("{message} (the play {shown} that the board in the record's mark shows: the record marks it as "
            "illegal, {mark}, and the game went on from that board, as the replay does)").format(
                message=why, shown=shown, mark=mark)
    st.find(rule, msg, a, position=board_before, dice=(d1, d2), alternatives=ps.example(6))
    st.first_error = None           # the board is the game's own: later positions are not off


def resync(st: GameState, i: int, p: int, verdict, steps: list[tuple[int, int]], rest: list[Part] = ()) -> tuple[Pos, str]:
    """Where the replay goes on after an illegal play: the position as recorded, unless the rolls that
    follow are legal from one of the legal plays and not from the recorded position (a step left out
    or mistyped in the transcript).  Among legal plays that fit equally far, the one sharing most
    steps with what was written wins.  Returns (position, the legal play chosen or "")."""
    recorded = verdict.after
    st.resyncs += 1
    if st.resyncs > RESYNCS:
        return recorded, ""
    best, best_n = recorded, fits(st, i, p, recorded, rest)
    limit = LOOKAHEAD
    if best_n >= limit:
        # The recorded position fits as far as the lookahead goes.  A step left out can show only
        # later (the checker that was not moved is needed 30 rolls on): look to the end of the game,
        # and keep the recorded position only when the rest of the game fits it.
        limit = rest_rolls(st, i)
        best_n = fits(st, i, p, recorded, rest, limit)
        if best_n >= limit:
            return recorded, ""
    written = Counter(steps)

    def overlap(item) -> int:
        return sum((written & Counter((s, d) for s, d, _ in item[1])).values())

    chosen = ""
    # every legal play is ranked by what it shares with the written play before the cut (for a double
    # the real play is often far down the generation order)
    candidates = sorted(verdict.playset.plays.items(), key=overlap, reverse=True)[:CANDIDATES]
    for pos, path in candidates:
        n = fits(st, i, p, pos, rest, limit)
        if n > best_n:
            best, best_n, chosen = pos, n, fmt_steps(path)
            if n >= limit:
                break
    return best, chosen


def rest_rolls(st: GameState, i: int) -> int:
    """The rolls after the action at index ``i`` up to the end of the game that :func:`fits` can judge."""
    rest = 0
    for b in st.actions[i + 1:]:
        if b.kind in (Kind.WIN, Kind.RESIGN, Kind.DROP, Kind.TIMEOUT, Kind.SETUP):
            break
        rest += b.kind == Kind.ROLL and not b.unplayed and b.dice is not None
    return rest


def fits(st: GameState, i: int, p: int, pos: Pos, rest: list[Part] = (), limit: int | None = None) -> int:
    """How many of the rolls after the action at index ``i`` (up to ``limit``, default LOOKAHEAD) are legal
    turns if ``p``'s play left ``pos``.  Each later turn is walked by the same turn function as the replay
    (``turns.walk_turn``).  ``rest``: parts written after this play in the same turn (Gul bara),
    applied as written first."""
    limit = LOOKAHEAD if limit is None else limit
    sides = [pos[0], pos[1]] if p == 0 else [pos[1], pos[0]]
    for part in rest:
        q = part.player
        (sides[q], sides[1 - q]), _ = physical(st.rules, sides[q], sides[1 - q], part.steps)
    n = 0
    rolled = list(st.rolled)
    rolls = st.rolls
    for a in st.actions[i + 1:]:
        if a.kind in (Kind.WIN, Kind.RESIGN, Kind.DROP, Kind.TIMEOUT, Kind.SETUP):
            break
        if a.kind != Kind.ROLL or a.unplayed or a.dice is None or not valid_dice(a.dice):
            continue
        q = a.player
        rolls += 1
        first_turn = rolled[q] == 0
        rolled[q] += 1
        d1, d2 = max(a.dice), min(a.dice)
        after = quick_turn(st.rules, sides[q], sides[1 - q], a, d1, d2, first_turn) \
            if st.one_part and not a.segments else None
        if after is not None:
            sides[q], sides[1 - q] = after
        elif not all(out.legal for out in walk_turn(st.rules, sides, q, d1, d2, written_parts(a),
                                                    first_turn, rolls, diagnose=False)):
            break
        n += 1
        if n >= limit:
            break
    return n


def rest_steps(st: GameState, p: int, pos: Pos, rest: list[Part]) -> int:
    """How many steps of the parts ``rest`` can be made one after the other from ``pos`` (``p``'s side
    first): a checker on the starting point and the landing point not closed."""
    sides = [pos[0], pos[1]] if p == 0 else [pos[1], pos[0]]
    rules, n = st.rules, 0
    for part in rest:
        q = part.player
        me, opp = sides[q], sides[1 - q]
        for src, dst in part.steps:
            idx = 24 if src == 25 else src - 1
            if not (0 <= idx <= 24) or not me[idx] or (dst != 0 and (not 1 <= dst <= 24 or rules.closed(opp, dst))):
                continue
            me, opp, _ = rules.apply(me, opp, src, dst)
            n += 1
        sides[q], sides[1 - q] = me, opp
    return n

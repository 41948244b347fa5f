"""Positions of a record: the board before a move as a text diagram, GNU Backgammon IDs, XGID or SVG.

``snapshots(match)`` lists, game by game, the state before every roll (and the final position of each
game) as the replay knows it: the board, whose roll, the dice, the cube and its owner, the score and the
match length.  The renderers turn one snapshot into text; nothing here re-derives what the replay says.
"""
from __future__ import annotations


from ..shapes import dataclass
from .board import diagram
from .svg import svg_board
from ..engine import rules_named
from ..engine.core import Pos
from ..engine.posid import match_id, position_id
from ..i18n import _, ngettext, pgettext, roll_text
from ..replay.normal import normalise
from ..record import Kind, Match

__all__ = ["Snapshot", "snapshots", "pick", "parse_move", "as_text", "as_gnubg", "as_xgid", "as_svg"]


@dataclass(slots=True)
class Snapshot:
    game: int                    # the game's number (record.game_numbers: its own Game N, else the order)
    move: int | None             # the roll's number in the game (1 = the opening roll); None = final position
    player: int                  # who is on roll (for the final position: whoever rolled last)
    names: tuple[str, str]
    sides: tuple                 # (player 0's side, player 1's side), each in its owner's numbering
    dice: tuple[int, int] | None
    cube: int
    owner: int | None
    score: tuple[int, int]
    length: int
    crawford: bool
    line: int                    # where the roll is written
    text: str = ""
    jacoby: bool = True          # the Jacoby bit of the Match ID (gnubg sets it in match play)
    variant: str = "backgammon"
    written_move: int | None = None   # the move number the record writes on the roll's row
    part: int | None = None      # Gul bara: the K-th later part of the roll's turn (move M.K); None: the roll
    step: str = "roll"           # what the part is: "roll", "chain" or "handover"

    @property
    def address(self) -> str | None:
        """The move as ``--move`` takes it: ``"M"``, ``"M.K"`` for a later part of a turn; None: final."""
        if self.move is None:
            return None
        return f"{self.move}.{self.part}" if self.part else str(self.move)

    @property
    def rules(self):
        """The rules object of the snapshot's variant (default options)."""
        return rules_named(self.variant)

    def opp_point(self, p: int) -> int:
        """The opponent's own number for the mover's point ``p`` (the variant's geometry: backgammon
        25 - p; long nardy and Gul bara run both sides the same way, half a board apart)."""
        return self.rules.opp_point(p)

    @property
    def pos(self) -> Pos:
        """(player on roll, opponent)."""
        return self.sides[self.player], self.sides[1 - self.player]


def snapshots(match: Match) -> list[Snapshot]:
    """Every position ``show`` can print, in order: before each roll the replay counted (``move``: its
    number in the game, as findings and the replayer's address give it) and each game's final position
    (``move`` None); ``game`` is the game's number as every command gives it (record.game_numbers)."""
    norm = normalise(match)
    out: list[Snapshot] = []
    length = match.match_length or 0
    jacoby = bool(norm.options.get("jacoby", False)) if length == 0 else True
    for ng in norm.games:
        g = ng.game
        n = ng.report.number
        score = g.score or (0, 0)
        crawford = bool(ng.report.crawford) and length > 1
        last = None
        for na in ng.actions:
            st = na.state
            if st is None:
                continue
            a = na.action
            last = (a, st)
            if st.roll is None:
                continue
            out.append(Snapshot(n, st.roll, a.player, g.players, st.before, a.dice, st.cube, st.owner,
                                score, length, crawford, a.loc.line, a.text, jacoby, norm.variant, a.move))
            # Gul bara: each later part of the turn (a chain double, a handover, a part the record leaves
            # out where that is a finding), as the replayer's move=M.K and findings' M.K address it
            for k, part in enumerate(st.parts or ()):
                if k:
                    out.append(Snapshot(n, st.roll, part.player, g.players, part.before, tuple(part.numbers),
                                        st.cube, st.owner, score, length, crawford, part.line, part.text, jacoby,
                                        norm.variant, a.move, k, part.kind))
        if last is not None:
            a, st = last
            out.append(Snapshot(n, None, a.player, g.players, st.after, None, st.cube, st.owner, score,
                                length, crawford, a.loc.line, "final position", jacoby, norm.variant))
    return out


def parse_move(text: str) -> tuple[int, int | None]:
    """``--move``'s value: ``"M"`` (the M-th roll) or ``"M.K"`` (the K-th later part of that roll's turn in
    Gul bara, as the replayer's address and findings give it).  Raises ValueError with a message."""
    m, dot, k = text.strip().partition(".")
    if m.isdigit() and int(m) >= 1 and (not dot or (k.isdigit() and int(k) >= 1)):
        return int(m), int(k) if dot else None
    # TRANSLATORS: --move's value is not a move; keep M and M.K as they are (the forms the option takes)
    raise ValueError(_("{value!r} is not a move: give M (the game's M-th roll, 1 = the opening roll) or M.K "
                       "(a later part of that roll's turn in Gul bara)").format(value=text))


def pick(match: Match, game: int | None = None, move: int | str | None = None) -> Snapshot:
    """The snapshot before roll ``move`` of ``game`` (default: the last game; no move: its final position).
    ``game`` and ``move`` are numbered as findings number them (a finding's ``game``/``move`` opens its
    position); ``move`` may be ``"M.K"``, the K-th later part of roll M's turn (Gul bara: a chain double,
    a handover).  Raises LookupError with a message when there is no such game or move (ValueError when
    ``move`` is not a move at all)."""
    move, part = parse_move(str(move)) if isinstance(move, str) else (move, None)
    snaps = snapshots(match)
    if not snaps:
        raise LookupError(_("the record has no game that could be replayed"))
    games = list(dict.fromkeys(s.game for s in snaps))
    g = games[-1] if game is None else game
    if g not in games:
        if games == list(range(games[0], games[-1] + 1)):
            raise LookupError(_("there is no game {game}; the record has games {first}-{last}").format(
                game=g, first=games[0], last=games[-1]))
        # TRANSLATORS: {games}: the record's game numbers ("1, 2, 6")
        raise LookupError(_("there is no game {game}; the record has games {games}").format(
            game=g, games=", ".join(map(str, games))))
    mine = [s for s in snaps if s.game == g]
    if move is None:
        return mine[-1]
    rolls = [s for s in mine if s.move is not None and s.part is None]
    for s in rolls:
        if s.move == move:
            if part is None:
                return s
            later = [t for t in mine if t.move == move and t.part is not None]
            for t in later:
                if t.part == part:
                    return t
            if not later:
                # TRANSLATORS: --move M.K names a later part of a turn that has none (only Gul bara turns have)
                raise LookupError(_("move {move} of game {game} is one part (its roll); {move}.{part} does not "
                                    "exist").format(move=move, game=g, part=part))
            # TRANSLATORS: {move}: the roll's number; its turn has the parts {move}.1 to {move}.{last}
            raise LookupError(_("move {move} of game {game} has parts {move}.1-{move}.{last}, not {move}.{part}")
                              .format(move=move, game=g, last=len(later), part=part))
    if not rolls:
        # TRANSLATORS: a game whose replay reached no roll: only its final position can be shown
        raise LookupError(_("game {game} has no roll to show; without --move, show gives its final "
                            "position").format(game=g))
    raise LookupError(_("game {game} has rolls 1-{last}, not {move}").format(game=g, last=len(rolls), move=move))


def _player(number: int) -> str:
    # TRANSLATORS: a player the record gives no name, {number} is 1 or 2
    return _("player {number}").format(number=number)


def _title(s: Snapshot) -> str:
    who = s.names[s.player] or _player(s.player + 1)
    if s.move is None:
        return _("game {game}, final position").format(game=s.game)
    dice = "".join(map(str, s.dice or ()))
    if s.part:
        step = pgettext("replayer step", s.step) if s.step in ("chain", "handover") else s.step
        # TRANSLATORS: a later part of a Gul bara turn; {move}: its address M.K (12.1: the first part after
        # roll 12's own play); {step}: "chain" or "handover"; {dice}: the numbers to play
        return _("game {game}, move {move}, {step}: {player} to play {dice} (line {line})").format(
            game=s.game, move=s.address, step=step, player=who, dice=dice, line=s.line)
    fields = dict(game=s.game, move=s.move, player=who, dice=roll_text(s.dice[0], s.dice[1]), row=s.written_move,
                  line=s.line)
    if s.written_move is not None:
        # TRANSLATORS: {move}: the roll's number in the game (1 = the opening roll: what --move takes and
        # findings give); {row}: the move number the record writes on the row ("22)" of a .mat row)
        return _("game {game}, move {move}: {player} to play {dice} (row {row}, line {line})").format(**fields)
    # TRANSLATORS: {move}: the roll's number in the game (1 = the opening roll)
    return _("game {game}, move {move}: {player} to play {dice} (line {line})").format(**fields)


class NotBackgammon(LookupError):
    """GNU Backgammon IDs and XGIDs describe backgammon positions only."""


def _backgammon_only(s: Snapshot, what: str) -> None:
    if not s.rules.position_id:
        if what == "gnubg":
            # TRANSLATORS: {variant}: the variant's name in the genitive ("a game of long nardy")
            text = _("a GNU Backgammon Position ID describes backgammon positions only; this is a game of {variant} "
                     "(use --as text or --as svg)")
        else:
            text = _("an XGID describes backgammon positions only; this is a game of {variant} "
                     "(use --as text or --as svg)")
        raise NotBackgammon(text.format(variant=s.rules.display_title("gen")))


def as_gnubg(s: Snapshot) -> str:
    """``Position ID:Match ID`` as GNU Backgammon shows them before the move."""
    _backgammon_only(s, "gnubg")
    # GNU Backgammon shows a roll's dice larger first whatever order the record writes them in (it
    # does so after `import mat` and after loading an SGF alike: "16: 13/7 8/7" is 6 and 1)
    dice = (max(s.dice), min(s.dice)) if s.dice else (0, 0)
    mid = match_id(cube=s.cube, owner=s.owner, on_roll=s.player, crawford=s.crawford,
                   dice=dice, length=s.length, score=s.score, jacoby=s.jacoby)
    return f"{position_id(*s.pos)}:{mid}"


def as_xgid(s: Snapshot) -> str:
    """eXtreme Gammon's XGID, from the first player's side (upper case, moving 24 -> 1)."""
    _backgammon_only(s, "xgid")
    me, opp = s.sides
    chars = []

    def cell(n: int, upper: bool) -> str:
        if n == 0:
            return "-"
        return chr((ord("A") if upper else ord("a")) + n - 1)

    chars.append(cell(opp[24], False))                      # the second player's bar
    for p in range(1, 25):
        if me[p - 1]:
            chars.append(cell(me[p - 1], True))
        else:
            chars.append(cell(opp[24 - p], False))
    chars.append(cell(me[24], True))                        # the first player's bar
    cube_log = max(s.cube, 1).bit_length() - 1
    owner = 0 if s.owner is None else (1 if s.owner == 0 else -1)
    turn = 1 if s.player == 0 else -1
    dice = f"{s.dice[0]}{s.dice[1]}" if s.dice else "00"
    return (f"XGID={''.join(chars)}:{cube_log}:{owner}:{turn}:{dice}:{s.score[0]}:{s.score[1]}:"
            f"{int(s.crawford)}:{s.length}:10")


def as_text(s: Snapshot) -> str:
    names = [n or _player(i + 1) for i, n in enumerate(s.names)]
    lines = [_title(s)]
    bg = s.rules.position_id
    # TRANSLATORS: the role of the player whose checkers are X on the final position's board
    role = _("to play") if s.move is not None else _("rolled last")
    lines += diagram(s.pos, names[s.player], names[1 - s.player], role, variant=s.variant)
    if s.owner is not None:
        cube = _("cube {value} owned by {player}").format(value=s.cube, player=names[s.owner])
    else:
        cube = _("cube {value} centred").format(value=s.cube)
    fields = dict(first=names[0], first_score=s.score[0], second=names[1], second_score=s.score[1],
                  length=s.length)
    if s.length:
        score = ngettext("score {first} {first_score} - {second} {second_score} in a {length}-point match",
                         "score {first} {first_score} - {second} {second_score} in a {length}-point match",
                         s.length).format(**fields)
    else:
        # TRANSLATORS: the score of a money game
        score = _("score {first} {first_score} - {second} {second_score} (money)").format(**fields)
    parts = [cube, score] + ([_("Crawford game")] if s.crawford else [])
    lines.append("; ".join(parts))
    if bg:
        gid = as_gnubg(s)
        # TRANSLATORS: GNU Backgammon's two IDs of a position, as gnubg names them
        lines.append(_("Position ID: {position_id}   Match ID: {match_id}").format(
            position_id=gid.split(":")[0], match_id=gid.split(":")[1]))
        lines.append(as_xgid(s))
    return "\n".join(lines)


def as_svg(s: Snapshot) -> str:
    names = [n or _player(i + 1) for i, n in enumerate(s.names)]
    owner = None if s.owner is None else (0 if s.owner == s.player else 1)
    # the final position: the player drawn at the bottom rolled last (as the text's legend says)
    role = None if s.move is not None else _("(numbering, rolled last)")
    return svg_board(s.pos, s.dice, (names[s.player], names[1 - s.player]), _title(s), s.cube, owner,
                     s.rules.opp_point, show_cube=s.rules.board_cube, role=role)

"""GNU Backgammon's Smart Game Format (``.sgf``, ``GM[6]``): reader and writer (docs/convert.md,
"GNU Backgammon `.sgf`").

One file holds one match: a game tree per game.  The reader parses the text with the Lark grammar
``grammars/sgf.lark`` and follows each tree's main line; the writer writes what gnubg writes
(``save match``), so gnubg loads it as the same match:

* root node: ``FF[4]GM[6]CA[UTF-8]AP[...]MI[length:L][game:i][ws:a][bs:b]PW[first player]PB[second]``,
  ``DT``/``EV``/``RO``/``PC`` from the tags, ``RU[Crawford]`` (``Crawford:CrawfordGame`` in the Crawford
  game, ``Jacoby`` in money play with the Jacoby rule), ``RE[W+2]`` / ``RE[B+4R]`` (R: resignation);
* move nodes ``;W[42hdfd]`` (dice as written, then from/to letters, one die per step, in the mover's
  numbering for W and mirrored for B: ``a``..``x`` = W's points 1..24, ``y`` the bar, ``z`` off),
  ``;B[double]``, ``;W[take]``, ``;W[drop]``; comments ``C[...]``.

W is the first player named in the record (the left column of a ``.mat``), B the second.

Set-ups are read and written as gnubg writes them (``;PL[B]AE[a:y]AW[..]AB[..]``, ``;PL[B]DI[31]``,
``;CV[2]``, ``;CP[w]``: a SETUP action of the record), a beaver as a double answering the opponent's double.
gnubg's analysis and annotation properties (``A``, ``DA``, ``LU``, ``BM``, ...) and unknown properties are
never an error: they are counted in ``Match.ignored`` (``convert`` reports them in a note); comments are kept.

What a ``.mat`` record says that gnubg's SGF has no property for is kept in private properties, which
gnubg ignores: ``NT[Key:Value]`` (every tag, in order, on the first game's root), ``NC[...]`` (the
match's comments), ``NK[seconds]`` (clock time of a move), and nodes without a move ``;NX[...]`` for a
result cell written differently from what ``RE`` implies (``win:W:2:match``, ``resign:B:2:losses``,
``resign:B``, with a level ``resign:B::gammon``), the answer to a resignation (``accept:W``,
``reject:W``), a roll never played (``unplayed:W:61``), a loss on time (``timeout:B``) and a drawn game
(``draw:W``).  The clock after a move (a running clock) is SGF's own time-left property, ``WL[seconds]`` /
``BL[seconds]`` on the move's node.
"""
from __future__ import annotations

import re
from functools import cache, lru_cache

from .. import __version__
from ..engine.compiled import PURE
from .normal import NormalAction, NormalMatch, gnubg_result_losses, resign_cube
from ..record import BAR, CENTRED, LEVELS, OFF, Action, Game, Kind, Loc, Match, Problem, Setup, Step, game_numbers, split_rating
from ..i18n import _, ngettext
from . import Notation, expected_found, guarded_read, quoted, register
from .grammar import grammar_text
from .sniffs import looks_like_sgf

__all__ = ["read", "write", "own_losses", "looks_like_sgf"]


@cache
def _parser():
    """The SGF parser (a Lark LALR parser), built on first use: writing SGF needs none, nor Lark at all.
    Lark keeps the grammar's analysis in the temporary folder (``cache=True``), keyed by the grammar's text.
    Its transformer runs inside the parser: properties become _Prop, nodes lists of them, game trees
    ``(nodes, variations)``."""
    from lark import Lark, Transformer    # Lark only when SGF is read (start-up: writing needs none)

    class _Build(Transformer):
        def prop(self, ch: list) -> "_Prop":
            ident = ch[0]
            return _Prop(ident.value, [v.value[1:-1] for v in ch[1:]], Loc(ident.line, ident.column))

        def node(self, ch: list) -> list:
            return ch[1:]

        def gametree(self, ch: list) -> tuple:
            nodes = [c for c in ch if isinstance(c, list)]
            trees = [c for c in ch if isinstance(c, tuple)]
            return nodes, trees

        def collection(self, ch: list) -> list:
            return ch

    return Lark(grammar_text("sgf"), parser="lalr", lexer="contextual", start="collection",
                maybe_placeholders=False, transformer=_Build(), cache=True)


_SIDE = {"W": 0, "B": 1}
_LETTER = {0: "W", 1: "B"}
_ROOT_HEAD = f"FF[4]GM[6]CA[UTF-8]AP[nardy-analyze:{__version__}]"    # every game's root begins with it
_TAG_PROPS = (("EventDate", "DT"), ("Event", "EV"), ("Round", "RO"), ("Site", "PC"), ("Annotator", "AN"))
_TAGS, _PROPS = tuple(t for t, _p in _TAG_PROPS), tuple(p for _t, p in _TAG_PROPS)
_SETUP = {"AE", "AB", "AW", "PL", "DI", "CP", "CV"}
# Properties read for what they say; every other property (gnubg's analysis: A, DA, LU, GB/GW, BM/DO/IT/TE,
# BC/DC/IC/TC, GS, and anything unknown) is ignored and counted in Match.ignored
_ROOT_KNOWN = {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "RE", "RU", "C", "NT", "NC", "GC", "SZ",
               "DT", "EV", "RO", "PC", "AN"} | _SETUP
_NODE_KNOWN = {"W", "B", "NX", "NK", "WL", "BL", "C"} | _SETUP
_LEVEL_NAMES = {v: k for k, v in LEVELS.items()}


# ----------------------------------------------------------------------------- text level


def _unescape(raw: str) -> str:
    """A value without its brackets: soft line breaks removed, backslash escapes resolved."""
    return re.sub(r"\\(\n|.)", lambda m: "" if m.group(1) == "\n" else m.group(1), raw, flags=re.S)


def _escape(text: str) -> str:
    if "\\" not in text and "]" not in text:     # (nearly every text: nothing to escape)
        return text
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _split_compose(raw: str) -> tuple[str, str]:
    """``key:value`` at the first unescaped colon (both unescaped)."""
    m = re.match(r"((?:[^\\:]|\\.)*):(.*)", raw, flags=re.S)
    if not m:
        return _unescape(raw), ""
    return _unescape(m.group(1)), _unescape(m.group(2))


class _Prop:
    __slots__ = ("name", "values", "loc")

    def __init__(self, name: str, values: list[str], loc: Loc) -> None:
        self.name, self.values, self.loc = name, values, loc


def _tree_nodes(tree: tuple) -> list[list[_Prop]]:
    """The main line of a game tree: its nodes, then those of its first variation, and so on."""
    nodes: list[list[_Prop]] = []
    while tree is not None:
        own, variations = tree
        nodes.extend(own)
        tree = variations[0] if variations else None
    return nodes


# ----------------------------------------------------------------------------- reader


def _point(ch: str, side: int) -> int | None:
    if ch == "y":
        return BAR
    if ch == "z":
        return OFF
    if "a" <= ch <= "x":
        i = ord(ch) - ord("a")
        return i + 1 if side == 0 else 24 - i
    return None


class _Reader:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.match = Match(path=path, notation="sgf")

    def run(self) -> Match:
        from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken   # Lark only when reading

        try:
            tree = _parser().parse(self.text)
        except UnexpectedInput as e:
            line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
            lines = self.text.splitlines()
            found = lines[line - 1][col - 1: col + 19].strip() if 0 < line <= len(lines) else ""
            if isinstance(e, UnexpectedToken) and e.token.type == "$END" or isinstance(e, UnexpectedEOF):
                found = ""
                line = max(len(lines), 1)
                col = len(lines[-1]) + 1 if lines else 1
            what = quoted(found) if found else _("the end of the text")
            expected = set(getattr(e, "expected", None) or getattr(e, "allowed", None) or ())
            if found.startswith("["):
                want = _('a property value "[...]" closed by "]"')
            elif not found and "RPAR" in expected:
                want = _('")" closing the game tree')
            elif self.match.games or self.text.lstrip().startswith("("):
                want = _('a node ";", a property like "W[31hefe]", "(" or ")"')
            else:
                want = _('SGF: game trees like "(;FF[4]GM[6]...;W[31hefe]...)"')
            self.match.problems.append(Problem(Loc(max(line, 1), max(col, 1)), expected_found(want, what)))
            return self.match
        for number, gt in enumerate(tree, start=1):
            self._game(number, _tree_nodes(gt))
        if not self.match.games:
            self.match.problems.append(Problem(Loc(1, 1), _("expected a game tree, found none")))
        return self.match

    def _game(self, number: int, nodes: list[list[_Prop]]) -> None:
        root = nodes[0]
        loc = root[0].loc if root else Loc(1, 1)
        game = Game(number=number, loc=loc, players=("", ""))
        props = {p.name: p for p in root}
        winner, points = self._root(game, root, props, number == 1)
        self.cube = 1
        self.turn = 0                 # the player on roll as far as the record says (PL, the last roll)
        self.doubled: int | None = None   # who made the double waiting for an answer
        explicit_end = False
        setup_props = [p for p in root if p.name in _SETUP and not (p.name == "CV" and p.values[0].strip() == "1")]
        self.last_setup = None
        if setup_props:               # a set-up on the root node: the game starts from it
            self._setup(game, setup_props, [], None)
        for node in nodes[1:]:
            explicit_end = self._node(game, node) or explicit_end
        if winner is not None and not explicit_end:
            re_loc = props["RE"].loc
            game.actions.append(Action(Kind.WIN, winner, re_loc, None, f"RE[{props['RE'].values[0]}]",
                                       value=points))
        last = game.actions[-1].loc if game.actions else loc
        game.end_loc = last
        self.match.games.append(game)

    def _root(self, game: Game, root: list[_Prop], props: dict[str, _Prop], first: bool) -> tuple:
        """Read a game's root node into ``game`` (and, for the first game, the match's tags and comments);
        returns the result ``RE[]`` gives: (winner, points), or (None, None)."""
        number = game.number
        m = self.match
        gm = props.get("GM")
        if gm is None or gm.values[0].strip() != "6":
            if gm:
                text = _("expected GM[6] (backgammon) on the root node, found {found}").format(
                    found="GM[" + gm.values[0] + "]")
            else:
                text = _("expected GM[6] (backgammon) on the root node, found none")
            game.problems.append(Problem(gm.loc if gm else game.loc, text, number))
        names = ["", ""]
        ratings: list[str | None] = [None, None]
        score: list[int | None] = [None, None]
        winner = points = None
        rules = ""
        for p in root:
            v = p.values[0]
            if p.name == "MI":
                self._match_info(game, p, first, score)
            elif p.name in ("PW", "PB"):
                names[p.name == "PB"] = _unescape(v).strip()
            elif p.name in ("WR", "BR"):
                ratings[p.name == "BR"] = _unescape(v).strip() or None
            elif p.name == "RE":
                r = re.match(r"\s*([WB])\+(\d+)(R?)", v, re.I)
                if r:
                    # the result cell; whether it was a resignation (R) the replay tells from the board
                    winner, points = _SIDE[r.group(1).upper()], int(r.group(2))
            elif p.name == "RU":
                rules = v
            elif p.name == "C":
                game.comments.extend(_unescape(x) for x in p.values)
            elif first and p.name == "NT":
                for x in p.values:
                    key, val = _split_compose(x)
                    m.tag_items.append((key, val))
                    m.tags.setdefault(key, val)
                    m.tag_locs.setdefault(key, p.loc)
            elif first and p.name == "NC":
                m.comments.extend(_unescape(x) for x in p.values)
            if p.name not in _ROOT_KNOWN:
                m.ignored[p.name] = m.ignored.get(p.name, 0) + 1
        if first and not any(n == "NT" for n in props):
            self._tags_from_root(root, rules)
        if first and "GC" in props and not m.comments:
            m.comments.append(_unescape(props["GC"].values[0]))
        for side in (0, 1):          # "name,1796" (a .mat name written as it was): the rating split out
            name, rating = split_rating(names[side])
            if ratings[side] is None and rating is not None:
                names[side], ratings[side] = name, rating
        game.players = (names[0], names[1])
        if ratings[0] is not None or ratings[1] is not None:
            game.ratings = (ratings[0], ratings[1])
        if score[0] is not None or score[1] is not None:
            game.score = (score[0] or 0, score[1] or 0)
            game.score_loc = props["MI"].loc
        return winner, points

    def _match_info(self, game: Game, p: _Prop, first: bool, score: list[int | None]) -> None:
        """``MI[length:N][game:N][ws:N][bs:N]``: the match length (first game), the game's written number
        and the score before it (into ``score``, by side)."""
        m = self.match
        for item in p.values:
            key, _sep, val = item.partition(":")
            if not val.strip().lstrip("-").isdigit():
                continue
            n = int(val)
            if key == "length" and first:
                m.match_length, m.match_loc = max(n, 0), p.loc
            elif key == "game":
                game.written_number = n + 1
            elif key in ("ws", "bs"):
                score[key == "bs"] = n

    def _node(self, game: Game, node: list[_Prop]) -> bool:
        """Read one node after the root into ``game``: a move, a set-up or a private ``NX`` action, with its
        comments and clock.  True when it is an explicit end of the game (a win, resignation or timeout)."""
        m = self.match
        number = game.number
        action = None
        explicit_end = False
        private = any(p.name == "NX" for p in node)    # DI beside NX: the dice of an unplayed roll
        moves = any(p.name in _SIDE or p.name == "NX" for p in node)
        for p in node:
            if p.name not in _NODE_KNOWN:
                m.ignored[p.name] = m.ignored.get(p.name, 0) + 1
            if p.name in _SIDE:
                action = self._move(game, _SIDE[p.name], p)
            elif p.name == "NX":
                action = self._private(game, p)
                if action is not None and action.kind in (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT, Kind.DRAW):
                    explicit_end = True
            elif p.name in _SETUP and moves and not (private and p.name == "DI"):
                game.problems.append(Problem(p.loc, _("set-up property {property} in a node with a move: put the "
                                                      "set-up in a node of its own").format(
                                                          property=f"{p.name}[{p.values[0]}]"), number))
        if not moves and any(p.name in _SETUP for p in node):
            self._setup(game, [p for p in node if p.name in _SETUP], node,
                        game.actions[-1] if game.actions else None)
            return explicit_end
        self.last_setup = None        # any other node ends a set-up written over several nodes
        if action is None:
            return explicit_end
        if action.kind is Kind.ROLL:
            self.turn = 1 - action.player
        if action.kind not in (Kind.DOUBLE, Kind.BEAVER):
            self.doubled = None       # a beaver answers the double just before it, nothing later
        for p in node:
            if p.name == "C":
                action.comments.extend(_unescape(x) for x in p.values)
            elif p.name == "NK":
                try:
                    action.clock = float(p.values[0])
                except ValueError:
                    game.problems.append(Problem(p.loc, _("expected seconds in {property}[], found \"{found}\"").format(
                        property="NK", found=p.values[0]), number))
            elif p.name in ("WL", "BL"):      # SGF's time left after the move: the clock of a running clock
                try:
                    action.clock_left = float(p.values[0])
                except ValueError:
                    game.problems.append(Problem(p.loc, _("expected seconds in {property}[], found \"{found}\"").format(
                        property=p.name, found=p.values[0]), number))
        game.actions.append(action)
        return explicit_end

    def _tags_from_root(self, root: list[_Prop], rules: str) -> None:
        m = self.match
        props = {p.name: p for p in root}
        for tag, prop in _TAG_PROPS:
            if prop in props:
                val = _unescape(props[prop].values[0])
                if prop == "DT":
                    val = val.replace("-", ".")
                m.tag_items.append((tag, val))
                m.tags[tag] = val
                m.tag_locs[tag] = props[prop].loc
        parts = set(rules.split(":")) if rules else set()
        extra = []
        if m.match_length and "Crawford" not in parts:
            extra.append(("Crawford", "Off"))
        if "Jacoby" in parts:
            extra.append(("Jacoby", "On"))
        for key, val in extra:
            m.tag_items.append((key, val))
            m.tags[key] = val
            m.tag_locs[key] = props["RU"].loc if "RU" in props else Loc(1, 1)

    def _move(self, game: Game, side: int, p: _Prop) -> Action | None:
        v = p.values[0].strip()
        text = f"{p.name}[{v}]"
        low = v.lower()
        if low == "double":
            if self.doubled is not None and self.doubled != side:
                # gnubg writes a beaver as a double answering the double: the taker redoubles at once
                self.cube *= 2
                self.doubled = side
                return Action(Kind.BEAVER, side, p.loc, None, text, value=self.cube * 2)
            self.doubled = side
            return Action(Kind.DOUBLE, side, p.loc, None, text, value=self.cube * 2)
        if low == "take":
            self.cube *= 2
            self.doubled = None
            return Action(Kind.TAKE, side, p.loc, None, text)
        if low == "drop":
            self.doubled = None
            return Action(Kind.DROP, side, p.loc, None, text)
        if len(v) < 2 or not v[:2].isdigit() or len(v) % 2:
            game.problems.append(Problem(p.loc, _("expected a move like W[31hefe], W[double], W[take] or "
                                                  "W[drop], found \"{found}\"").format(found=text), game.number))
            return None
        a = Action(Kind.ROLL, side, p.loc, None, text, dice_text=v[:2], dice_loc=p.loc)
        d1, d2 = int(v[0]), int(v[1])
        if 1 <= d1 <= 6 and 1 <= d2 <= 6:
            a.dice = (d1, d2)
        for i in range(2, len(v), 2):
            src, dst = _point(v[i], side), _point(v[i + 1], side)
            if src is None or dst is None or src == OFF or dst == BAR:
                game.problems.append(Problem(Loc(p.loc.line, p.loc.column + len(p.name) + 1 + i),
                                             _("expected a step of two letters a-x, y (bar) or z (off), found "
                                               "\"{found}\" in \"{move}\"").format(found=v[i:i + 2], move=text),
                                             game.number))
                return None
            a.steps.append(Step(src, dst))
        return a

    def _setup(self, game: Game, props: list[_Prop], node: list[_Prop], last: Action | None) -> None:
        """Set-up properties (docs/convert.md, "GNU Backgammon `.sgf`"; as gnubg writes them:
        ``PL[W]AE[a:y]AW[f]...AB[s]...`` for the board, ``PL[W]DI[31]`` for the dice, ``CV[2]`` the cube,
        ``CP[w|b|c]`` its owner) become a
        SETUP action; consecutive set-up nodes for the board, then the dice, cube and owner (in that order)
        are one SETUP action."""
        read = self._setup_fields(game, props)
        if read is None:
            return
        fields, turn = read
        if turn is not None:
            self.turn = turn
        if "cube" in fields:
            self.cube = fields["cube"]
        comments = [_unescape(x) for p in node if p.name == "C" for x in p.values]
        prev = getattr(self, "last_setup", None)
        # joined only in the order the writer writes a set-up's nodes (board, dice, cube, owner), so that
        # the nodes come back in the order they were written
        order = ("checkers", "dice", "cube", "owner")
        done = [order.index(k) for k in order if prev is not None and getattr(prev.setup, k) is not None]
        if (prev is not None and last is prev and (turn is None or turn == prev.player) and fields
                and min(order.index(k) for k in fields) > max(done, default=-1)):
            for k, val in fields.items():          # one set-up written over several nodes
                setattr(prev.setup, k, val)
            prev.comments.extend(comments)
            return
        loc = props[0].loc
        a = Action(Kind.SETUP, self.turn, loc, None, "".join(f"{p.name}[{p.values[0]}]" for p in props)[:60],
                   setup=Setup(**fields), comments=comments)
        game.actions.append(a)
        self.last_setup = a

    def _setup_fields(self, game: Game, props: list[_Prop]) -> tuple[dict, int | None] | None:
        """The fields of a ``Setup`` that set-up properties give, and the player on roll they name (None
        when no PL); None, with the problem reported, when the set-up cannot be read."""
        number = game.number
        fields: dict = {}
        turn = None
        cleared = False
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        board = False
        for p in props:
            v = p.values[0].strip()
            where = f"{p.name}[{p.values[0]}]"
            problem = None
            if p.name == "PL":
                if v.upper() not in _SIDE:
                    problem = _("expected PL[W] or PL[B], found \"{found}\"").format(found=where)
                else:
                    turn = _SIDE[v.upper()]
            elif p.name == "AE":
                cleared = cleared or any(x.strip() in ("a:y", "a:z") for x in p.values)
                board = True
                if not cleared:
                    game.problems.append(Problem(p.loc, _("expected AE[a:y] (the whole board cleared) before the "
                                                          "checkers of a set-up, found \"{found}\": a partial set-up "
                                                          "is not supported").format(found=where), number))
                    return None
            elif p.name in ("AW", "AB"):
                board = True
                side = 0 if p.name == "AW" else 1
                for x in p.values:
                    pt = _point(x.strip(), side) if len(x.strip()) == 1 else None
                    if pt is None or pt == OFF:
                        game.problems.append(Problem(p.loc, _("expected points a-x or y (the bar) in {property}, "
                                                              "found \"{found}\"").format(property=p.name, found=x),
                                                     number))
                        return None
                    sides[side][24 if pt == BAR else pt - 1] += 1
            elif p.name == "DI":
                if len(v) != 2 or not all("1" <= c <= "6" for c in v):
                    problem = _("expected two dice 1-6 in DI, found \"{found}\"").format(found=where)
                else:
                    fields["dice"] = (int(v[0]), int(v[1]))
            elif p.name == "CV":
                if not v.isdigit() or int(v) < 1 or int(v) & (int(v) - 1):
                    problem = _("expected a cube value 1, 2, 4, ... in CV, found \"{found}\"").format(found=where)
                else:
                    fields["cube"] = int(v)
            elif p.name == "CP":
                owner = {"c": CENTRED, "w": 0, "b": 1}.get(v.lower())
                if owner is None:
                    problem = _("expected CP[c], CP[w] or CP[b], found \"{found}\"").format(found=where)
                else:
                    fields["owner"] = owner
            if problem is not None:
                game.problems.append(Problem(p.loc, problem, number))
        if board:
            if not cleared:
                game.problems.append(Problem(props[0].loc, _("expected AE[a:y] (the whole board cleared) before the "
                                                             "checkers of a set-up: a partial set-up is not "
                                                             "supported"), number))
                return None
            for side in (0, 1):
                if sum(sides[side]) > 15:
                    n = sum(sides[side])
                    # TRANSLATORS: {side}: W or B (the notation's letters); {n}: more than 15
                    game.problems.append(Problem(props[0].loc, ngettext(
                        "the set-up gives {side} {n} checkers, more than 15",
                        "the set-up gives {side} {n} checkers, more than 15", n).format(side="WB"[side], n=n), number))
                    return None
            fields["checkers"] = (tuple(sides[0]), tuple(sides[1]))
        return fields, turn

    def _private(self, game: Game, p: _Prop) -> Action | None:
        parts = [_unescape(x) for x in re.split(r"(?<!\\):", p.values[0])]
        kind = parts[0]
        side = _SIDE.get(parts[1].upper()) if len(parts) > 1 else None
        text = f"NX[{p.values[0]}]"
        if side is None:
            game.problems.append(Problem(p.loc, _("expected NX[kind:W|B...], found \"{found}\"").format(found=text),
                                         game.number))
            return None
        value = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        flags = set(parts[3:])
        if kind == "win":
            return Action(Kind.WIN, side, p.loc, None, "Wins", value=value, and_match="match" in flags)
        if kind == "resign":
            level = next((_LEVEL_NAMES[f] for f in flags if f in _LEVEL_NAMES), None)
            return Action(Kind.RESIGN, side, p.loc, None, "Losses" if "losses" in flags else "Resigns",
                          value=value, level=level)
        if kind in ("accept", "reject"):
            return Action(Kind.ACCEPT if kind == "accept" else Kind.REJECT, side, p.loc, None, kind.capitalize() + "s")
        if kind == "timeout":
            return Action(Kind.TIMEOUT, side, p.loc, None, "Timeout")
        if kind == "draw":
            return Action(Kind.DRAW, side, p.loc, None, "Draw")
        if kind == "illegal" and len(parts) > 3 and parts[3]:
            dice = parts[2]
            mark = ":".join(parts[3:])
            a = Action(Kind.ROLL, side, p.loc, None, f"{dice}: {mark}" if dice else mark, dice_text=dice,
                       dice_loc=p.loc, illegal_mark=mark)
            if len(dice) == 2 and all("1" <= c <= "6" for c in dice):
                a.dice = (int(dice[0]), int(dice[1]))
            return a
        if kind == "unplayed":
            dice = parts[2] if len(parts) > 2 else ""
            a = Action(Kind.ROLL, side, p.loc, None, f"{dice}: ????" if dice else "????", dice_text=dice,
                       dice_loc=p.loc, unplayed=True)
            if len(dice) == 2 and all("1" <= c <= "6" for c in dice):
                a.dice = (int(dice[0]), int(dice[1]))
            return a
        game.problems.append(Problem(p.loc, _("unknown private property value \"{found}\"").format(found=text),
                                     game.number))
        return None


def read(text: str, path: str = "") -> Match:
    """Read SGF text.  Never raises: what cannot be read becomes a Problem."""
    return guarded_read("sgf", path, lambda: _Reader(text, path).run())


# ----------------------------------------------------------------------------- writer


def _kinds_in(actions: list, kinds: tuple, stop: int = -1) -> int:
    """A mask of the ``kinds`` (a tuple of :class:`~nardy_analyze.record.Kind` members, at most 30) found among
    ``actions[:stop]`` (``stop`` < 0: all of them): bit ``k`` set when ``kinds[k]`` is the kind of one of them.
    The reference of the compiled twin (``notation/_matrows.c``), which the writers use where it is built: one
    pass over a game's actions at C speed for the questions they ask of every game (a beaver, a result before
    the last action)."""
    if len(kinds) > 30:
        raise ValueError("kinds_in: at most 30 kinds")
    mask = 0
    for a in (actions if stop < 0 else actions[:stop]):
        for k, kind in enumerate(kinds):
            if a.kind is kind:
                mask |= 1 << k
                break
    return mask


try:        # the compiled twin (notation/_matrows.c: kinds_in)
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._matrows import kinds_in
except ImportError:                  # not built (no C compiler at install) or turned off
    kinds_in = _kinds_in


try:        # the compiled twin of _game_tree's loop over plain rolls (notation/_matrows.c: sgf_rolls)
    if PURE:
        raise ImportError("NARDY_ANALYZE_PURE is set")
    from ._matrows import PackedActions, sgf_rolls as _SGF_ROLLS
except ImportError:                  # not built (no C compiler at install) or turned off
    _SGF_ROLLS = PackedActions = None


def _letter(p: int, side: int) -> str:
    if p == BAR:
        return "y"
    if p == OFF:
        return "z"
    return chr(ord("a") + p - 1) if side == 0 else chr(ord("x") - (p - 1))


# the two letters of a step src/dst on the board, per side: _PAIRS[side][src][dst] (a step written off the
# board is a KeyError here and falls back on _letter)
_PAIRS = tuple({a: {b: letters[a] + letters[b] for b in range(OFF, BAR + 1)} for a in range(OFF, BAR + 1)}
               for letters in ({p: _letter(p, side) for p in range(OFF, BAR + 1)} for side in (0, 1)))


def _move_letters(steps, side: int) -> str:
    """The letters of a move's steps ``(src, dst[, hit])``: two per step."""
    table = _PAIRS[side]
    try:
        return "".join([table[st[0]][st[1]] for st in steps])
    except KeyError:
        return "".join([_letter(st[0], side) + _letter(st[1], side) for st in steps])


def _written_letters(steps, side: int) -> str:
    """:func:`_move_letters` of a record's own steps (``Step`` objects: a play written exactly)."""
    table = _PAIRS[side]
    try:
        return "".join([table[st.src][st.dst] for st in steps])
    except KeyError:
        return "".join([_letter(st.src, side) + _letter(st.dst, side) for st in steps])


def _setup_nodes(a: Action, turn: int) -> str:
    """A SETUP action as gnubg writes set-ups: one node per thing set (gnubg reads a board and dice in one
    node as the dice only): ``;PL[W]AE[a:y]AW[..]AB[..]``, ``;PL[W]DI[31]``, ``;CV[2]``, ``;CP[w]``; ``PL``
    where the player on roll is not the one the reader infers."""
    s = a.setup
    w = _LETTER[a.player]
    nodes: list[str] = []
    if s is not None and s.checkers is not None:
        node = f";PL[{w}]AE[a:y]"
        for prop, side in (("AW", 0), ("AB", 1)):
            vals = "".join(f"[{_letter(BAR if i == 24 else i + 1, side)}]" * n for i, n in enumerate(s.checkers[side]))
            if vals:
                node += prop + vals
        nodes.append(node)
    if s is not None and s.dice is not None:
        nodes.append(f";PL[{w}]DI[{s.dice[0]}{s.dice[1]}]")
    if s is not None and s.cube is not None:
        nodes.append(f";CV[{s.cube}]")
    if s is not None and s.owner is not None:
        nodes.append(f";CP[{'c' if s.owner == CENTRED else 'wb'[s.owner]}]")
    if not nodes:
        nodes.append(f";PL[{w}]")
    elif not nodes[0].startswith(";PL[") and a.player != turn:
        nodes[0] = f";PL[{w}]" + nodes[0][1:]
    return "\n".join(nodes)


def _resign_points(ng) -> int:
    """``n`` of ``RE[W+nR]``: gnubg keeps a resignation as a level (1 single, 2 gammon, 3 backgammon) times
    the cube, and reads ``RE[W+nR]`` as level ``n // cube``.  A credit that is not such a multiple (sites
    credit at most what the winner needs: ``Losses 3 point`` for a gammon at cube 2 in a 3-point match) is
    written as the smallest level that covers it, which is how gnubg reads the original ``.mat``; the credit
    as written is kept in the game's ``NX[resign..]`` / ``NX[win..]`` nodes, which our reader prefers to RE."""
    points = max(ng.report.points, 1)
    cube = resign_cube(ng)
    level = -(-points // cube)
    return level * cube if points % cube and level <= 3 else points


def _analysis_props(analysis: dict, a: Action) -> str:
    """gnubg's analysis properties of the node of ``a`` (:mod:`.sgf_analysis`), "" when it has none."""
    from .sgf_analysis import properties    # (only with --analyse: not at every command's start)

    return properties(analysis.get((a.loc.line, a.loc.column)), a.player, _move_letters)


def write(match: Match, normal: NormalMatch, analysis: dict | None = None) -> str:
    """SGF text of ``match``; ``normal``: the replay's view of it (:mod:`.normal`), computed by the caller;
    ``analysis``: gnubg's analysis properties to write, per record cell ``(line, column)``
    (:mod:`nardy_analyze.notation.sgf_analysis`)."""
    norm = normal
    fixed = _MatchProps(match, norm.options)   # (what every game's root repeats, and the first game's: once)
    return "\n".join(_game_tree(match, ng, fixed, analysis) for ng in norm.games) + "\n"


def _game_tree(match: Match, ng, fixed: "_MatchProps", analysis: dict | None = None) -> str:
    """One game's tree: the root node, then a node per action (set-ups as gnubg writes them)."""
    nodes = ["(;" + _root_text(match, ng, fixed)]
    turn = 0                      # the player on roll as the reader will infer it (PL, the last roll)
    prev_setup = False
    derived = _result_derived(ng)
    roll = Kind.ROLL
    known = ng.known if ng.known is not None else dict(enumerate(ng.actions))
    routes = ng.routes if ng.known is not None and ng.routes else None    # (a sparse view's rolls by route)
    actions = ng.game.actions
    rolls = _SGF_ROLLS if not analysis and (type(actions) is list or type(actions) is PackedActions) else None
    n = len(actions)
    i = -1
    while i + 1 < n:
        i += 1
        if rolls is not None:     # (the run of plain rolls and cube actions from here, written as the loop
            j, last = rolls(actions, i, known, nodes, roll, derived, routes)     # below writes them)
            if j > i:
                if last >= 0:
                    turn = 1 - last
                prev_setup = False
                i = j - 1         # (the next action is the first one not written)
                continue
        a = actions[i]
        na = known.get(i)
        if na is None and routes is not None and i in routes:
            na = NormalAction(a, None, routes[i])
        if a.kind is roll and a.dice is not None and not a.unplayed and not a.illegal_mark \
                and not analysis and a.clock is None and a.clock_left is None and not a.comments:
            # (the most common node, inline: a roll played, nothing else on it; _roll_node's text)
            p = a.player
            turn, prev_setup = 1 - p, False
            route = na.route if na is not None else None
            nodes.append(f";{'WB'[p]}[{a.dice[0]}{a.dice[1]}"
                         f"{_written_letters(a.steps, p) if route is None else _move_letters(route, p)}]")
            continue
        if na is None:
            na = NormalAction(a, None)
        if a.kind is Kind.SETUP:
            if prev_setup:
                nodes.append(";")     # two set-ups in a row stay two (the reader joins adjacent nodes)
            node = _setup_nodes(a, turn)
            turn, prev_setup = a.player, True
        else:
            prev_setup = False
            if a.kind is Kind.ROLL:
                turn = 1 - a.player
            node = _action_node(na, derived)
            if node is None:
                continue
            if analysis:
                node += _analysis_props(analysis, a)
        if a.clock is not None:
            node += f"NK[{a.clock:g}]"
        if a.clock_left is not None:
            node += f"{_LETTER[a.player]}L[{a.clock_left:g}]"
        if a.comments:
            node += "C" + "".join(f"[{_escape(c)}]" for c in a.comments)
        nodes.append(node)
    return "\n".join(nodes) + ")"


class _MatchProps:
    """The root properties every game of a match repeats (its tags: event, date, round, place, annotator) and
    those of its first game alone (all its tags in ``NT``, its comments in ``NC``), made once per match; the
    rules' words (``RU``) by match length and options."""

    __slots__ = ("tags", "first", "length", "ru", "ru_crawford")

    def __init__(self, match: Match, opts: dict):
        self.tags = "".join(_tag_props(match))
        items = match.tag_items or list(match.tags.items())
        first = []
        if items:
            keys, text = "".join([k for k, _v in items]), "".join(map("".join, items))
            if ":" in keys or "\\" in text or "]" in text:
                first.append("NT" + "".join(f"[{_escape(k).replace(':', chr(92) + ':')}:{_escape(v)}]"
                                            for k, v in items))
            else:                # (nearly every record: nothing to escape) each tag as [key:value]
                first.append("NT[" + "][".join(map(":".join, items)) + "]")
        if match.comments:
            first.append("NC" + "".join(f"[{_escape(c)}]" for c in match.comments))
        self.first = "".join(first)
        length = self.length = match.match_length
        if length:
            crawford = opts.get("crawford", True)
            self.ru = "RU[Crawford]" if crawford else ""
            self.ru_crawford = ("RU[Crawford:CrawfordGame]" if length > 1 else "RU[Crawford]") if crawford else ""
        else:
            self.ru = self.ru_crawford = "RU[Jacoby]" if opts.get("jacoby") else ""


def _root_text(match: Match, ng, fixed: _MatchProps) -> str:
    """The properties of a game's root node: application, match information, players, tags, rules, result
    (the match's tags and comments on the first game's)."""
    g, rep = ng.game, ng.report
    length = fixed.length
    mi = f"[length:{length}]" if length is not None else ""
    mi += f"[game:{(g.written_number if g.written_number is not None else g.number) - 1}]"
    if g.score is not None:
        mi += f"[ws:{g.score[0]}][bs:{g.score[1]}]"
    re_ = ""
    if rep.winner is not None and rep.points is not None:
        pts = _resign_points(ng) if rep.how == "resign" else max(rep.points, 1)
        re_ = f"RE[{_LETTER[rep.winner]}+{pts}{'R' if rep.how == 'resign' else ''}]"
    text = (f"{_ROOT_HEAD}MI{mi}{_player_props(tuple(g.players), tuple(g.ratings))}{fixed.tags}"
            f"{fixed.ru_crawford if length and rep.crawford else fixed.ru}{re_}")
    if g.number == 1:
        text += fixed.first
    if g.comments:
        text += "C" + "".join(f"[{_escape(c)}]" for c in g.comments)
    return text


@lru_cache(maxsize=256)
def _player_props(players: tuple[str, str], ratings: tuple) -> str:
    """The players' and their ratings' root properties (the same for every game of a match: written once)."""
    return f"PW[{_escape(players[0])}]PB[{_escape(players[1])}]" + "".join(
        f"{prop}[{_escape(r)}]" for prop, r in zip(("WR", "BR"), ratings) if r is not None)


def _tag_props(match: Match) -> list[str]:
    """The root properties of the match's tags (event, date, round, place, annotator)."""
    return [f"{prop}[{_escape(val.replace('.', '-') if prop == 'DT' else val)}]"
            for prop, val in zip(_PROPS, match.tag_values(_TAGS)) if val]


_ENDS = (Kind.WIN, Kind.RESIGN, Kind.TIMEOUT)
_BEAVER = (Kind.BEAVER,)


def _result_derived(ng) -> bool:
    """True when the game's one result action is what ``RE[]`` says (a plain win as the last action): it is
    then written by ``RE[]`` alone, without an ``NX[win..]`` node."""
    rep = ng.report
    actions = ng.game.actions
    if not actions:
        return False
    end = actions[-1]
    return (end.kind is Kind.WIN
            and not end.and_match and (end.player == rep.winner or end.margin)   # (margin: no column)
            and end.value == rep.points
            and rep.points is not None and rep.points >= 1 and not end.comments
            and not kinds_in(actions, _ENDS, len(actions) - 1))


def _roll_node(a: Action, dice: str, route) -> str:
    """The node of a roll played: its dice and the letters of its route (None: its written steps)."""
    p = a.player
    letters = _written_letters(a.steps, p) if route is None else _move_letters(route, p)
    return f";{_LETTER[p]}[{dice}{letters}]"


def _action_node(na, derived: bool) -> str | None:
    """The node of an action other than a set-up, without its clock and comments (None: a result that
    ``RE[]`` already writes, ``derived``)."""
    a = na.action
    w = _LETTER[a.player]
    k = a.kind
    if k is Kind.ROLL and a.unplayed:
        node = f";NX[unplayed:{w}:{_escape(a.dice_text)}]"
        if a.dice is not None:       # gnubg reads the dice that were rolled and never played
            node += f"DI[{a.dice[0]}{a.dice[1]}]"
        return node
    if k is Kind.ROLL and a.illegal_mark:   # a refused play: the mark as written, no move
        dt = a.dice_text or (f"{a.dice[0]}{a.dice[1]}" if a.dice is not None else "")
        node = f";NX[illegal:{w}:{_escape(dt)}:{_escape(a.illegal_mark)}]"
        if a.dice is not None:
            node += f"DI[{a.dice[0]}{a.dice[1]}]"
        return node
    if k is Kind.ROLL:
        return _roll_node(a, f"{a.dice[0]}{a.dice[1]}" if a.dice is not None else a.dice_text, na.route)
    if k in (Kind.DOUBLE, Kind.BEAVER):   # gnubg writes a beaver as a double answering the double
        return f";{w}[double]"
    if k in (Kind.ACCEPT, Kind.REJECT):
        return f";NX[{k.value}:{w}]"
    if k is Kind.TAKE:
        return f";{w}[take]"
    if k is Kind.DROP:
        return f";{w}[drop]"
    if derived:
        return None
    if k is Kind.WIN:
        return f";NX[win:{w}:{a.value if a.value is not None else ''}{':match' if a.and_match else ''}]"
    if k is Kind.RESIGN:
        flags = ([LEVELS[a.level]] if a.level in LEVELS else []) + \
            (["losses"] if a.text[:6].lower() == "losses" else [])
        value = str(a.value) if a.value is not None else ""
        return f";NX[resign:{w}" + (f":{value}" if value or flags else "") + "".join(":" + f for f in flags) + "]"
    if k is Kind.DRAW:
        return f";NX[draw:{w}]"
    return f";NX[timeout:{w}]"


def own_losses(match: Match) -> list[str]:
    """What an .sgf file cannot hold of ``match`` beyond its ``cannot_hold``: a beaver that answers no double."""
    out: list[str] = []
    # SGF (gnubg) writes a beaver as a double answering the opponent's double: one that answers none
    # would read back as a double
    odd = []
    for g, n in zip(match.games, game_numbers(match.games)):
        if not kinds_in(g.actions, _BEAVER):         # (the common case, looked for at C speed)
            continue
        for prev, a in zip([None] + g.actions, g.actions):
            if a.kind is Kind.BEAVER and not (prev is not None and prev.kind in (Kind.DOUBLE, Kind.BEAVER)
                                              and prev.player != a.player):
                odd.append(n)
                break
    if odd:
        # TRANSLATORS: {numbers}: the games' numbers ("1, 4")
        out.append(ngettext("game {numbers}: a beaver that answers no double just before it cannot be written in "
                            "sgf (it would read back as a double)",
                            "games {numbers}: a beaver that answers no double just before it cannot be written in "
                            "sgf (it would read back as a double)", len(odd)).format(numbers=", ".join(map(str, odd))))
    return out


def result_losses(normal: NormalMatch) -> list[str]:
    """The results of ``normal`` that GNU Backgammon would read otherwise from an .sgf (notation.normal)."""
    return gnubg_result_losses(normal, "sgf")


register(Notation("sgf", (".sgf",), looks_like_sgf, read, write, own_losses=own_losses, needs_replay=True,
                  exact_routes=False, result_losses=result_losses, cannot_hold=frozenset({"other_variants"}),
                  writes_analysis=True))

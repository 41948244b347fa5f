"""``show FILE --as html``: one self-contained page that replays every game of a record on a board.

The page holds the record's positions as data and a small script of its own that draws them; nothing
is loaded from anywhere else (no network, no framework), so the file can be mailed or put on a web page.

Where the data come from (data flow: record -> replay -> this page):

* every position is the replay's (``normal.normalise``: the trace of the state around each action; for
  a Gul bara roll with a doubles chain or handovers, ``ActionState.parts``: the board before and after
  each written part), stored as the GNU Backgammon Position ID of the player to act (14 characters for
  both sides' 25 counts: for backgammon exactly what ``show --as gnubg`` prints before that roll, for
  long nardy and Gul bara the same encoding, as ``.ngn`` set-ups write it);
* the geometry of the board is :func:`nardy_analyze.report.svg.board_geometry`, the numbers ``show --as svg``
  draws with, and the opponent's numbering of each point comes from the variant's rules object
  (``opp_point``); the script builds the same SVG elements as :func:`nardy_analyze.report.svg.svg_board`;
* the findings are the replay's, each placed on the step that caused it (the last step written at or
  before the finding's line and column).

The same script serves ``validate --format html`` (:mod:`nardy_analyze.report.html`), which embeds the
records that have findings and links each finding to its step: :func:`record_data` gives one record's
data, :func:`script_block` the data and the script for a page.
"""
from __future__ import annotations

import gettext
import json
import re
from typing import Any

from ..engine import DEFAULT_VARIANT, get_variant, variant_title
from ..engine.posid import position_id
from ..i18n import _, language, ngettext, pgettext, roll_text
from ..replay.normal import normalise
from ..record import Kind, Match
from ..replay import MatchReport
from ..safetext import markup as escape, visible   # control characters from the files shown as escapes
from .show import Snapshot, as_gnubg
from .svg import board_geometry
from . import cube_action_word

__all__ = ["record_data", "page", "script_block", "script", "address", "frame_at", "finding_frame", "step_address",
           "CSS",
           "body"]


def frame_at(frames: list[list], line: int, column: int) -> int:
    """The index of the last frame written at or before ``line:column`` (0 when none is).  A part of a Gul
    bara turn that the record leaves out shares the place of the part before it and is never chosen here
    (only a finding that names it, :func:`finding_frame`, opens it)."""
    best = 0
    for i, fr in enumerate(frames):
        if fr[8] is None or (i and "." in fr[0] and frames[i - 1][8:10] == fr[8:10]):
            continue
        if (fr[8], fr[9]) <= (line, column):
            best = i
    return best


def finding_frame(frames: list[list], finding) -> int:
    """The index of the step a finding (:class:`~nardy_analyze.replay.Finding`) is about: the later part of a
    Gul bara turn it names (``move=M.K``, its ``address``), else the last step written at or before its line
    and column (:func:`frame_at`)."""
    key = finding.address if finding.part else None
    if key is not None:
        for i, fr in enumerate(frames):
            if fr[0] == key:
                return i
    return frame_at(frames, finding.line, finding.column)


def address(data: dict, finding: list) -> str | None:
    """The address (``game=G&move=KEY`` or ``game=G&step=I``) of a finding of :func:`record_data`."""
    if finding[5] is None:
        return None
    return step_address(data["games"][finding[5] - 1], finding[6])


def step_address(game: dict, i: int) -> str:
    """The address of the ``i``-th step of a game of :func:`record_data` (``game=G&move=KEY``, or
    ``game=G&step=I`` for a step without a roll number)."""
    key = game["f"][i][0]
    return f"game={game['n']}&" + (f"move={key}" if key else f"step={i}")


def _dice_text(d) -> str:
    return "".join(str(x) for x in d) if d else ""


def record_data(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
                report: MatchReport | None = None, games: set[int] | None = None) -> dict:
    """One record as the page's script reads it.

    ``{"path", "variant", "title" (the variant's name for people), "length", "tags", "cube": whether the
    variant plays a cube, "ids": whether the Position IDs are GNU Backgammon's (backgammon), "opp": the
    opponent's number of each point 1..24 (the rules object's), "games": [...], "findings": [...]}``.
    A game is ``{"n", "players", "score", "crawford", "result", "comments", "f": frames}``; a frame is
    the list ``[key, kind, player, position ID (player to act first), dice, cube, owner (-1 centred),
    text, line, column, clock, comments, match ID]`` where ``key`` is the roll number (``"12"``, as
    ``show --move 12``), ``"12.1"`` for the first further part of that roll's turn (Gul bara; ``show --move
    12.1``, a finding's address; a part the record leaves out where that is a finding too), ``"end"``
    for the final position and ``""`` for the other actions (a double, a take, a result: the board
    before them).  ``report``: the findings to mark (default: the replay's own).  ``games``: keep only
    these games (numbers: 1-based order in the file).  A finding is ``[rule, severity, message, line,
    column, game, frame]``, ``game`` the 1-based index in ``"games"`` (None: a finding of the record,
    not of a game), ``frame`` the index of its step.
    """
    norm = normalise(match, variant, options)
    try:
        v = get_variant(norm.variant, norm.options)
        rules = v.rules
        cube_on = bool(v.cube_in_play)
    except ValueError:                     # a variant the engine does not know: drawn as backgammon
        rules = get_variant(DEFAULT_VARIANT).rules
        cube_on = True
    ids = rules.position_id
    length = match.match_length or 0
    jacoby = bool(norm.options.get("jacoby", False)) if length == 0 else True
    out = []
    for ng in norm.games:
        if games is None or ng.report.number in games:
            game = _game_data(ng, norm.variant, ids, length, jacoby)
            if game is not None:             # None: nothing of the game could be replayed, no step to show
                out.append(game)
    data = {"path": match.path, "variant": norm.variant, "title": rules.title,
            "length": length,
            "tags": [[k, v] for k, v in match.tags.items()], "cube": cube_on, "ids": ids,
            "opp": [rules.opp_point(p) for p in range(1, 25)], "games": out, "findings": []}
    rep = report if report is not None else norm.report
    index = {g["n"]: i + 1 for i, g in enumerate(out)}
    for f in rep.findings:
        gi = index.get(f.game) if f.game is not None else None
        if gi is None and f.game is not None and games is not None:
            continue                     # a game left out
        fi = finding_frame(out[gi - 1]["f"], f) if gi else None
        data["findings"].append([f.rule, f.severity, f.message, f.line, f.column, gi, fi])
    return data


def _game_data(ng, variant: str, ids: bool, length: int, jacoby: bool) -> dict | None:
    """One game of :func:`record_data` (None when no step of it could be replayed)."""
    g = ng.game
    score = tuple(g.score or (0, 0))
    crawford = bool(ng.report.crawford and length > 1)
    frames: list[list] = []
    move = 0
    last = None

    def add(key, kind, player, sides, dice, st, text, line, column, clock=None, comments=(), roll=False):
        mid = ""
        pid = position_id(sides[player], sides[1 - player])
        if ids and roll:
            snap = Snapshot(ng.report.number, move, player, g.players, sides, tuple(dice), st.cube, st.owner,
                            score, length, crawford, line, text, jacoby, variant)
            pid, mid = as_gnubg(snap).split(":")
        frames.append([key, kind, player, pid, _dice_text(dice), st.cube,
                       -1 if st.owner is None else st.owner, text, line, column, clock,
                       list(comments) or 0, mid])

    for na in ng.actions:
        st, a = na.state, na.action
        if st is None:
            continue
        last = (a, st)
        roll = st.roll is not None          # a roll the replay counted: show --move and findings count it
        if roll:
            move = st.roll
        if roll and st.parts:
            for k, part in enumerate(st.parts):
                # a part the record leaves out (a finding: a chain stopped short, a handover owed) has no text
                # TRANSLATORS: the replayer's text of a part of a Gul bara turn that the record leaves out
                text = part.text or (a.text if k == 0 else f"{part.kind} {_dice_text(part.numbers)} "
                                     + _("(not in the record)"))
                add(str(move) if k == 0 else f"{move}.{k}", part.kind, part.player, part.before,
                    part.numbers, st, text, part.line, part.column,
                    a.clock if k == 0 else None, a.comments if k == 0 else (), roll=k == 0)
            continue
        # a roll whose dice cannot be read is a step without a roll number (show does not count it)
        kind = ("unplayed" if a.unplayed else "roll") if a.kind is Kind.ROLL else a.kind.value
        add(str(move) if roll else "", kind, a.player, st.before, a.dice if roll else (), st, a.text,
            a.loc.line, a.loc.column, a.clock, a.comments, roll=roll)
    if last is None:
        return None
    a, st = last
    frames.append(["end", "end", a.player, position_id(st.after[a.player], st.after[1 - a.player]), "",
                   st.cube, -1 if st.owner is None else st.owner, "final position", None, None, None,
                   0, ""])
    r = ng.report
    result = None
    if r.winner is not None:
        result = [r.winner, r.points, r.how or ""]
    return {"n": ng.report.number, "players": [g.players[0] or "player 1", g.players[1] or "player 2"],
            "score": list(score), "crawford": crawford, "result": result,
            "comments": list(g.comments), "f": frames}


# ----------------------------------------------------------------------------- the analysis (--analyse)

# the deepest analysis the replayer makes (analyze's default level), so that a page of a long match stays
# quick: show --analyse --plies takes 0 or 1, validate --format html --analyse --plies N analyses the games
# it embeds at min(N, MAX_PLIES)
MAX_PLIES = 1

def add_analysis(data: dict, match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
                 plies: int = 0, threads: int = 0) -> dict:
    """``show --as html --analyse``: the skill analysis of the games of ``data`` (:func:`record_data` of
    ``match``) put on their steps, as ``analyze`` makes it (:func:`nardy_analyze.stats.skill.position_analysis`:
    backgammon by the bgsage engine at ``plies``, long nardy and Gul bara by the shipped evaluator).

    ``data["analysis"]``: ``{"plies", "engine": "bgsage" or "evaluator", "mwc": whether the chances are
    match-winning chances}`` (None when the variant has no engine: ``"note"`` says so).  Each game gets:

    * ``"a"``: per step, 0 or the list of the decisions made there: a checker play ``{"k": "c", "s": side,
      "p": [[play, equity], ...] (the best plays, best first), "m": the play made, "x": the legal play the
      replay went on from, "r": its rank (None: no play of the roll), "n": legal plays, "q": its equity,
      "e": equity lost, "g": grade, "l": luck}``; a cube decision ``{"k": "d"`` (double / no double) or
      ``"t"`` (take / pass), ``"s", "a": the action, "b": the best action, "nd", "dt", "dp"`` (the doubler's
      view), ``"e", "g"}``; grades and errors are ``analyze``'s rows';
    * ``"w"``: per step, the first player's chances in the position the step shows (before its action):
      at the first step the chances before the game (50 %; in match play the match equity table's at the
      score), at a later one those after the step before it (after a play: of the play made; after a double
      or a take, of the position with the cube as it then is), at the final position the result (1 or 0;
      in match play the match-winning chance at the score after the game); None where unknown.  Money play,
      long nardy and Gul bara: the chance of winning the game (cubeless); match play: of winning the match.
    """
    from ..stats import skill     # (pandas and the engine: only with --analyse)
    from ..stats.cube import Stakes     # (with the analysis)
    from ..stats.met import met         # (with the analysis)

    only = None
    if len(data["games"]) < len(match.games):     # some games only (validate --format html): their turns
        only = {(g["n"], fr[8]) for g in data["games"] for fr in g["f"] if fr[8] is not None}
    spots, res = skill.position_analysis(match, variant, options, plies, only=only, threads=threads, chances=True)
    if res.notes:                     # a variant without an engine
        data["analysis"] = {"note": res.notes[0]}
        return data
    long_game = not data["ids"]
    mwc = bool(data["length"]) and not long_game
    data["analysis"] = {"plies": 0 if long_game else plies, "engine": "evaluator" if long_game else "bgsage",
                        "mwc": mwc}
    by_game: dict[int, list[dict]] = {}
    for s in spots:
        by_game.setdefault(s["game"], []).append(s)
    for g in data["games"]:
        frames = g["f"]
        marks: list = [0] * len(frames)
        after: list = [None] * len(frames)       # the chances after each step, the first player's view
        at_key = {fr[0]: i for i, fr in enumerate(frames) if fr[0]}
        at_loc: dict = {}
        for i, fr in enumerate(frames):
            if fr[8] is not None:
                at_loc.setdefault((fr[8], fr[9]), i)
        for s in by_game.get(g["n"], []):
            if s["kind"] == "checker":
                i = at_key.get(str(s["move"])) if s["move"] is not None else None
                if i is None and s["loc"] is not None:
                    i = at_loc.get(tuple(s["loc"]))
            else:
                i = at_loc.get(tuple(s["loc"])) if s["loc"] is not None else None
            if i is None:
                continue
            entry, chance = _mark(s, mwc)
            if marks[i] == 0:
                marks[i] = []
            marks[i].append(entry)
            marks[i].sort(key=lambda e: e["k"] == "c")       # the cube decision first, then the play
            if chance is not None and (after[i] is None or s["kind"] == "checker"):
                after[i] = chance if s["side"] == 0 else 1 - chance
        length, (s0, s1) = data["length"], g["score"]
        start, result = 0.5, None
        if mwc:
            a0, a1 = length - s0, length - s1
            start = met(a0, a1, min(a0, a1) == 1 and not g["crawford"])
        if g["result"] is not None and g["result"][0] is not None:
            winner, points = g["result"][0], g["result"][1] or 0
            if mwc:
                st = Stakes(length, length - s0, length - s1, g["crawford"])
                result = st.value(points if winner == 0 else -points)
            else:
                result = 1.0 if winner == 0 else 0.0
        chances = [start] + after[:-1]
        if frames[-1][1] == "end" and result is not None:
            chances[-1] = result
        chances = [_round(x) for x in chances]
        g["a"], g["w"] = marks, chances
    return data


def _round(x: float | None) -> float | None:
    return None if x is None else round(float(x), 4)


def _eq(x: float | None) -> float | None:
    """An equity as the page keeps it (four decimals: it shows three)."""
    return None if x is None else round(float(x), 4)


def _mark(s: dict, mwc: bool) -> tuple[dict, float | None]:
    """A decision of ``position_analysis`` as the page keeps it, and the deciding player's chances after it."""
    if s["kind"] == "checker":
        e = {"k": "c", "s": s["side"], "p": [[p["play"], _eq(p["equity"])] for p in s["plays"]], "m": s["played"],
             "r": s["rank"], "n": s["moves"], "q": _eq(s["equity_played"]), "e": _eq(s["error"]),
             "g": s["grade"], "l": _eq(s["luck"])}
        if s["replayed"] and s["replayed"] != s["played"]:
            e["x"] = s["replayed"]
        return e, (s["mwc"] if mwc else s["win"])
    e = {"k": "d" if s["kind"] == "double" else "t", "s": s["side"], "a": s["action"], "b": s["best"],
         "nd": _eq(s["no_double"]), "dt": _eq(s["double_take"]), "dp": _eq(s["double_pass"]), "e": _eq(s["error"]),
         "g": s["grade"]}
    if not mwc:
        return e, s["win"]
    which = {"double": 0, "no double": 0, "take": 1, "pass": 2}.get(s["action"], 0)
    return e, (s["mwc"][which] if s["mwc"] else None)


def script_json(obj: Any) -> str:
    """JSON that can stand inside a ``<script>`` element (no ``</script>``, no ``<!--``), every text from the
    record with its control characters as visible escapes (nardy_analyze.safetext), as the page shows it."""
    return json.dumps(_visible(obj), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _visible(obj: Any) -> Any:
    """``obj`` with every string made :func:`safetext.visible` (line breaks kept: comments)."""
    if isinstance(obj, str):
        return visible(obj, newlines=True)
    if isinstance(obj, dict):
        return {k: _visible(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_visible(v) for v in obj]
    return obj


CSS = """
.rp{font-family:system-ui,-apple-system,Segoe UI,Noto Sans,Noto Sans Armenian,Noto Sans Georgian,DejaVu Sans,Sylfaen,sans-serif;color:#222;max-width:72em;margin:0 auto;overflow-wrap:anywhere}
.rp h1{font-size:1.3em;margin:.3em 0}.rp .meta{color:#555;margin:.2em 0 .6em}
.rp-main{display:flex;gap:1.2em;align-items:flex-start}
.rp-left{flex:0 0 auto;width:460px;max-width:100%}.rp-right{flex:1 1 auto;min-width:14em}
.rp-board svg,.rp-after svg{display:block;width:100%;height:auto}
.rp-after{width:60%;margin-top:.6em}.rp-after .cap{font-size:.85em;color:#555}
.rp-status{font-weight:bold;margin:.3em 0;min-height:2.6em}
.rp-nav{display:flex;gap:.3em;margin:.4em 0;flex-wrap:wrap;align-items:center}
.rp-nav button{font-size:1.1em;min-width:2.6em;min-height:2.2em}
.rp-info{font-size:.92em;line-height:1.45}.rp-info .cm{color:#555;font-style:italic}
.rp-moves{position:relative;list-style:none;padding:0;margin:.4em 0;max-height:28em;overflow-y:auto;border:1px solid #ddd;
 font-family:ui-monospace,Menlo,Consolas,DejaVu Sans Mono,Noto Sans Mono,monospace;font-size:.88em}
.rp-moves li{padding:.15em .5em;cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.rp-moves li.part{padding-left:2em;color:#335}.rp-moves li.cur{background:#ffe9a8}
.rp-moves li.bad{border-left:4px solid #c33}.rp-moves li.warn{border-left:4px solid #d90}
.rp-moves li:hover{background:#f3f0e6}
.rp-find{font-size:.88em}.rp-find a{color:#a22}.rp-find .warning a{color:#a60}
.rp-flag{border-left:5px solid #c33;background:#fdf0f0;padding:.3em .6em;margin:.3em 0}
.rp-flag.warning{border-left-color:#d90;background:#fdf7ea}
.rp-note{border-left:5px solid #d90;background:#fdf7ea;padding:.3em .6em;margin:.3em 0}
.rp select{max-width:100%;font-size:1em}
.rp-chart{margin:.5em 0}.rp-chart .cap{font-size:.88em;color:#333}.rp-chart .cap small{white-space:nowrap}.rp-chart svg{display:block;width:100%;height:auto;cursor:pointer}
.rp-an{font-size:.92em;line-height:1.45;margin:.4em 0;padding:.3em .6em;background:#f4f6fa;border-left:5px solid #2f5597}
.rp-an button{font-size:.95em;margin:.2em 0}
.rp-an table{border-collapse:collapse;margin:.3em 0;font-size:.92em;width:100%}
.rp-an td,.rp-an th{padding:.1em .4em;text-align:left;vertical-align:top}
.rp-an td.n,.rp-an th.n{text-align:right;white-space:nowrap}
.rp-an td.p{font-family:ui-monospace,Menlo,Consolas,DejaVu Sans Mono,Noto Sans Mono,monospace}
.rp-an tr.played{background:#ffe9a8;font-weight:bold}.rp-an tr.best td{font-weight:bold}
.gr{display:inline-block;padding:0 .3em;border-radius:3px;color:#fff;font-weight:bold;font-size:.9em}
.gr.g1{background:#b08800}.gr.g2{background:#d2691e}.gr.g3{background:#c33}
@media (max-width:760px){.rp-main{flex-direction:column}.rp-left{width:100%}.rp-right{width:100%}
 .rp-moves{max-height:16em}.rp-after{width:70%}}
"""

def body() -> str:
    """The replayer's markup (board, buttons, lists), its words in the current language."""
    t = {k: escape(v) for k, v in {
        # TRANSLATORS: the replayer's buttons' tooltips; Home, End and the arrows are the keyboard's keys
        "first": _("first position of the game (Home)"), "prev": _("previous step (left arrow)"),
        "next": _("next step (right arrow)"), "last": _("last position of the game (End)"),
        # TRANSLATORS: the replayer's label before the list of the sides the board can be seen from
        "view": _("board from"),
        # TRANSLATORS: the caption of the replayer's small board of the position after the current step
        "after": _("after this step"),
        # TRANSLATORS: the replayer's label before the list of the record files of the page
        "record": pgettext("replayer", "record"),
        # TRANSLATORS: the replayer's label before the list of the games of the record
        "game": pgettext("replayer", "game")}.items()}
    return f"""<div class="rp-main">
<div class="rp-left">
<div class="rp-status" id="rp-status"></div>
<div class="rp-note" id="rp-note" role="status" hidden></div>
<div class="rp-board" id="rp-board"></div>
<div class="rp-nav">
<button type="button" data-go="first" title="{t['first']}">|&#9664;</button>
<button type="button" data-go="prev" title="{t['prev']}">&#9664;</button>
<button type="button" data-go="next" title="{t['next']}">&#9654;</button>
<button type="button" data-go="last" title="{t['last']}">&#9654;|</button>
<label>{t['view']} <select id="rp-view"></select></label>
</div>
<div class="rp-chart" id="rp-chartbox" hidden><div class="cap" id="rp-chartcap"></div><div id="rp-chart"></div></div>
<div class="rp-an" id="rp-an" hidden></div>
<div class="rp-info" id="rp-info"></div>
<div class="rp-after" id="rp-afterbox"><div class="cap">{t['after']}</div><div id="rp-after"></div></div>
</div>
<div class="rp-right">
<div id="rp-filebox"><label>{t['record']} <select id="rp-files"></select></label></div>
<label>{t['game']} <select id="rp-games"></select></label>
<ol class="rp-moves" id="rp-moves"></ol>
<div class="rp-find" id="rp-finds"></div>
</div>
</div>"""

# The page's script: draws a frame's board as svg.svg_board does (from board_geometry), keeps the
# position in the address, and steps with the keyboard and buttons.
_JS = r"""
(function(){
"use strict";
var D=JSON.parse(document.getElementById("rp-data").textContent);
var G=D.geom, FILES=D.files, $=function(id){return document.getElementById(id);};
var root=$("replayer");
if(!root||!FILES.length)return;
var cur={f:0,g:0,i:0}, view=D.multi?"roll":"0", note="", plays=false, drawn="";
var GRADE={"doubtful":"doubtful","bad":"bad","very bad":"very bad"};
var CUBEW={"double":"double","no double":"no double","take":"take","pass":"pass","too good":"too good","double, take":"double, take","double, pass":"double, pass"};
var PLAYED=" \u25c0 played";
var RANK={"doubtful":1,"bad":2,"very bad":3}, MARK=["","?!","?","??"], GCOL=["","#b08800","#d2691e","#c33"];
var B64="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
function esc(s){return String(s).replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;").replace(/"/g,"&quot;");}
function decode(pid){ // Position ID -> [mover, opponent], 25 counts each (bar last)
  var bits=[],i,j,v;
  for(i=0;i<pid.length;i++){v=B64.indexOf(pid.charAt(i));for(j=5;j>=0;j--)bits.push((v>>j)&1);}
  var bytes=[];for(i=0;i<10;i++){v=0;for(j=0;j<8;j++)v=(v<<1)|bits[i*8+j];bytes.push(v);}
  var b=[];for(i=0;i<80;i++)b.push((bytes[i>>3]>>(i&7))&1);
  var sides=[[],[]],k=0;
  for(var s=0;s<2;s++){while(sides[s].length<25){var n=0;while(k<80&&b[k]){n++;k++;}k++;sides[s].push(n);}}
  return [sides[1],sides[0]];
}
function sidesOf(fr){var m=decode(fr[3]);return fr[2]===0?[m[0],m[1]]:[m[1],m[0]];}
function off(side){var n=15;for(var i=0;i<25;i++)n-=side[i];return n;}
function pips(side){var n=0;for(var i=0;i<25;i++)n+=side[i]*(i+1);return n;}
function num(x){return String(x);}
// the labels laid out by their width, as svg.py's text_width, fit_size and fit_label do
function tw(t,s){var w=0;for(var i=0;i<t.length;i++){var k=G.wchars.indexOf(t.charAt(i));w+=k<0?1000:G.widths[k];}
  return w*s/1000;}
function fit(t,s,room){var w=tw(t,s)*G.safety;return w<=room?s:Math.max(G.minsize,Math.floor(s*room/w*4)/4);}
function fitLabel(name,rest,s,room){var t=name+rest,f=fit(t,s,room);
  while(tw(t,f)*G.safety>room&&name){name=name.slice(0,-1);t=name.replace(/\s+$/,"")+"\u2026"+rest;}
  return [t,f];}
function board(rec,sides,bottom,player,dice,cube,owner,names,title,last){
  var me=sides[bottom],opp=sides[1-bottom],OPP=rec.opp,pw=G.pw,top=G.top,bot=G.bottom,ph=G.ph;
  var o=['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 '+G.w+' '+G.h+'" width="'+G.w+'" height="'+G.h+
   '" role="img" aria-label="'+esc(title)+'" font-family="system-ui,-apple-system,Segoe UI,Noto Sans,Noto Sans Armenian,Noto Sans Georgian,DejaVu Sans,Sylfaen,sans-serif">',
   '<rect x="0" y="0" width="'+G.w+'" height="'+G.h+'" fill="#6b4a2b"/>',
   '<rect x="'+G.margin+'" y="'+top+'" width="'+(12*pw+G.bar)+'" height="'+(bot-top)+'" fill="#e9d8b4"/>',
   '<rect x="'+(G.margin+6*pw)+'" y="'+top+'" width="'+G.bar+'" height="'+(bot-top)+'" fill="#5a3d22"/>'];
  for(var p=1;p<=24;p++){
    var x=G.x[p-1],up=p<=12,pts,ny;
    if(up){pts=x+","+bot+" "+(x+pw)+","+bot+" "+(x+pw/2)+","+(bot-ph);ny=bot+14;}
    else{pts=x+","+top+" "+(x+pw)+","+top+" "+(x+pw/2)+","+(top+ph);ny=top-6;}
    o.push('<polygon points="'+pts+'" fill="'+(p%2?"#a33":"#335")+'"/>');
    var label=bottom===player?p:OPP[p-1];
    o.push('<text x="'+(x+pw/2)+'" y="'+ny+'" font-size="10" fill="#fff" text-anchor="middle">'+label+'</text>');
    var n,dark;
    if(me[p-1]){n=me[p-1];dark=true;}else{n=opp[OPP[p-1]-1];dark=false;}
    for(var k=0;k<Math.min(n,5);k++){
      o.push('<circle cx="'+(x+pw/2)+'" cy="'+(up?G.up[k]:G.down[k])+'" r="12" fill="'+(dark?"#222":"#f5f5f0")+
        '" stroke="#000" stroke-width="1"/>');}
    if(n>5){o.push('<text x="'+(x+pw/2)+'" y="'+((up?G.up[4]:G.down[4])+4)+'" font-size="11" text-anchor="middle" fill="'+
      (dark?"#fff":"#000")+'">'+n+'</text>');}
  }
  var bars=[[me[24],true,top+60],[opp[24],false,bot-60]];
  for(var j=0;j<2;j++){var bn=bars[j];if(bn[0]){
    o.push('<circle cx="'+G.barx+'" cy="'+bn[2]+'" r="12" fill="'+(bn[1]?"#222":"#f5f5f0")+'" stroke="#000"/>');
    o.push('<text x="'+G.barx+'" y="'+(bn[2]+4)+'" font-size="11" text-anchor="middle" fill="'+(bn[1]?"#fff":"#000")+'">'+bn[0]+'</text>');}}
  var offm='off '+off(me)+'',offo='off '+off(opp)+'';
  o.push('<text x="'+G.offx+'" y="'+(bot-4)+'" font-size="'+fit(offm,10,G.offroom)+'" fill="#fff" text-anchor="middle">'+
    offm+'</text>');
  o.push('<text x="'+G.offx+'" y="'+(top+12)+'" font-size="'+fit(offo,10,G.offroom)+'" fill="#fff" text-anchor="middle">'+
    offo+'</text>');
  if(dice){for(var d=0;d<dice.length;d++){
    var dx=G.margin+9*pw+G.bar-17*dice.length+4+34*d;
    o.push('<rect x="'+dx+'" y="'+(G.h/2-13)+'" width="26" height="26" rx="4" fill="#fff" stroke="#000"/>');
    o.push('<text x="'+(dx+13)+'" y="'+(G.h/2+6)+'" font-size="16" text-anchor="middle">'+dice.charAt(d)+'</text>');}}
  if(rec.cube){
    var cy=owner<0?G.h/2:(owner===bottom?G.cubelow:G.cubehigh);
    o.push('<rect x="'+(G.right+6)+'" y="'+(cy-12)+'" width="24" height="24" fill="#fff" stroke="#000"/>');
    o.push('<text x="'+(G.right+18)+'" y="'+(cy+5)+'" font-size="12" text-anchor="middle">'+(cube>1?cube:64)+'</text>');}
  var roles=function(s){return s===player?(dice||!last?" (numbering, to play)":" (numbering, rolled last)"):"";};
  var nm=function(mark,s,r,y){var L=fitLabel(mark+String(s).slice(0,40),r,11,G.nameroom);
    return '<text x="'+G.margin+'" y="'+y+'" font-size="'+L[1]+'" fill="#fff">'+
      esc(L[0]).replace("\u25cf","&#9679;").replace("\u25cb","&#9675;")+'</text>';};
  o.push(nm("\u25cf ",names[bottom],roles(bottom),G.h-6));
  o.push(nm("\u25cb ",names[1-bottom],roles(1-bottom),14));
  o.push("</svg>");
  return o.join("\n");
}
function rec(){return FILES[cur.f];}
function game(){return rec().games[cur.g];}
function frame(){return game().f[cur.i];}
function who(g,p){return g.players[p];}
function bottomFor(fr){return view==="roll"?fr[2]:(view==="1"?1:0);}
function title(g,fr){
  var k=fr[0],p=who(g,fr[2]);
  if(fr[1]==="end")return "game "+g.n+", final position";
  if(fr[1]==="roll")return "game "+g.n+", move "+k+": "+p+" to play "+fr[4];
  if(k)return "game "+g.n+", move "+k.split(".")[0]+", "+fr[1]+": "+p+" to play "+fr[4];
  return "game "+g.n+": "+p+" "+fr[7];
}
function findingsAt(fi,gi,i){var out=[],fs=FILES[fi].findings;
  for(var k=0;k<fs.length;k++)if(fs[k][5]===gi+1&&fs[k][6]===i)out.push(fs[k]);return out;}
function address(fi,gi,i){
  var r=FILES[fi],g=r.games[gi],fr=g.f[i],h=FILES.length>1||D.multi?"file="+(fi+1)+"&":"";
  h+="game="+g.n+"&";
  return h+(fr[0]?"move="+fr[0]:"step="+i);
}
// the analysis (show --as html --analyse): grades, the best plays, the chances over the game
function sgn(x){return (x<0?"\u2212":"+")+Math.abs(x).toFixed(3);}
function pct(x){return (100*x).toFixed(1)+"%";}
function worst(a){var n=0;if(a)for(var k=0;k<a.length;k++)n=Math.max(n,RANK[a[k].g]||0);return n;}
function gradeTag(gr){var n=RANK[gr]||0;return n?' <span class="gr g'+n+'" title="'+esc(GRADE[gr])+'">'+MARK[n]+' '+esc(GRADE[gr])+'</span>':"";}
function chanceAt(g,i){for(var k=i;k>=0;k--)if(g.w[k]!==null&&g.w[k]!==undefined)return g.w[k];return null;}
var CW=460,CH=110,CL=38,CR=8,CT=8,CB=16;
function cx(g,k){var n=g.w.length;return CL+(n>1?k*(CW-CL-CR)/(n-1):(CW-CL-CR)/2);}
function cy(v){return CT+(1-v)*(CH-CT-CB);}
function chartSvg(g){
  var ph=CH-CT-CB,pw=CW-CL-CR,o=['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 '+CW+' '+CH+'" width="'+CW+'" height="'+CH+
   '" role="img" aria-label="'+esc("the winning chances over the game; a click goes to that step")+'" font-family="system-ui,-apple-system,Segoe UI,Noto Sans,DejaVu Sans,sans-serif">',
   '<rect x="'+CL+'" y="'+CT+'" width="'+pw+'" height="'+ph+'" fill="#faf8f2" stroke="#bbb"/>'];
  var lv=[[1,"100%"],[0.5,"50%"],[0,"0%"]];
  for(var j=0;j<3;j++){var y=cy(lv[j][0]);
    if(lv[j][0]===0.5)o.push('<line x1="'+CL+'" x2="'+(CL+pw)+'" y1="'+y+'" y2="'+y+'" stroke="#999" stroke-dasharray="4 3"/>');
    o.push('<text x="'+(CL-4)+'" y="'+(y+4)+'" font-size="10" text-anchor="end" fill="#555">'+lv[j][1]+'</text>');}
  for(var k=0;k<g.w.length;k++){var n=worst(g.a[k]);if(n)o.push('<rect class="rp-gr" data-step="'+k+'" x="'+(cx(g,k)-1.5).toFixed(1)+
    '" y="'+(CT+ph+1)+'" width="3" height="'+(CB-4)+'" fill="'+GCOL[n]+'"/>');}
  var d="";for(k=0;k<g.w.length;k++)if(g.w[k]!==null)d+=(d?"L":"M")+cx(g,k).toFixed(1)+","+cy(g.w[k]).toFixed(1);
  if(d)o.push('<path d="'+d+'" fill="none" stroke="#2f5597" stroke-width="1.6"/>');
  o.push('<line id="rp-mark" x1="0" x2="0" y1="'+CT+'" y2="'+(CT+ph)+'" stroke="#c33" stroke-width="1.5"/>');
  o.push('<circle id="rp-dot" cx="0" cy="0" r="4" fill="#c33"/>');
  o.push("</svg>");return o.join("");
}
function drawChart(){
  var r=rec(),g=game(),box=$("rp-chartbox");
  if(!r.analysis||!g.w){box.hidden=true;return;}
  box.hidden=false;var key=cur.f+":"+cur.g;
  if(drawn!==key){$("rp-chart").innerHTML=chartSvg(g);drawn=key;}
  var v=chanceAt(g,cur.i),x=cx(g,cur.i).toFixed(1),m=$("rp-mark"),dot=$("rp-dot");
  m.setAttribute("x1",x);m.setAttribute("x2",x);m.setAttribute("data-step",cur.i);
  dot.setAttribute("cx",x);dot.setAttribute("cy",v===null?cy(0.5):cy(v).toFixed(1));dot.style.display=v===null?"none":"";
  var an=r.analysis,lvl=an.engine==="bgsage"?"bgsage, "+an.plies+"-ply":"the evaluator, 0-ply";
  var ch=v===null?"\u2013":pct(v);
  $("rp-chartcap").innerHTML=(an.mwc?esc(g.players[0])+"'s match-winning chances: "+"<b>"+ch+"</b>":
    esc(g.players[0])+"'s winning chances: "+"<b>"+ch+"</b>")+" <small>("+esc(lvl)+")</small>";
}
function playsTable(e){
  var o=['<table><tr><th class="n">#</th><th>play</th><th class="n">equity</th><th class="n">loss</th></tr>'],top=e.p.length?e.p[0][1]:0,seen=false;
  for(var k=0;k<e.p.length;k++){var me=e.r===k+1;if(me)seen=true;
    o.push('<tr'+(me?' class="played"':'')+'><td class="n">'+(k+1)+'</td><td class="p">'+esc(e.p[k][0])+(me?PLAYED:"")+
      '</td><td class="n">'+sgn(e.p[k][1])+'</td><td class="n">'+(k?sgn(e.p[k][1]-top):"")+"</td></tr>");}
  if(!seen&&e.q!==null)o.push('<tr class="played"><td class="n">'+(e.r||"")+'</td><td class="p">'+esc(e.x||e.m)+PLAYED+
    '</td><td class="n">'+sgn(e.q)+'</td><td class="n">'+sgn(e.q-top)+"</td></tr>");
  return o.join("")+"</table>";
}
// a cube decision's equities; ``answer``: the doubled player's answer to this double ("take", "pass"), when known
function cubeTable(e,answer){
  var d=e.k==="d",rows=d?[["no double",e.nd],["double, take",e.dt],["double, pass",e.dp]]:[["take",-e.dt],["pass",-e.dp]];
  var made=d?(e.a==="double"?(answer==="take"?1:(answer==="pass"?2:-1)):0):(e.a==="take"?0:1);
  var best=d?(e.b==="double, take"?1:(e.b==="double, pass"?2:0)):(e.b==="take"?0:1);
  var o=['<table><tr><th>action</th><th class="n">equity</th></tr>'];
  for(var k=0;k<rows.length;k++){
    o.push('<tr'+(k===made?' class="played"':(k===best?' class="best"':""))+'><td>'+esc(CUBEW[rows[k][0]])+
      (k===made?PLAYED:"")+'</td><td class="n">'+sgn(rows[k][1])+"</td></tr>");}
  return o.join("")+"</table>";
}
function analysis(g,i){
  var a=g.a?g.a[i]:0,o=[];
  if(!a)return "";
  for(var k=0;k<a.length;k++){var e=a[k],p=esc(g.players[e.s]),lost=e.e?", lost "+e.e.toFixed(3):"";
    if(e.k==="c"){
      if(e.r)o.push("<div>"+p+" played "+esc(e.m)+": rank "+e.r+" of "+e.n+", equity "+sgn(e.q)+lost+gradeTag(e.g)+
        (e.x&&findingsAt(cur.f,cur.g,i).length?" ("+"the replay goes on from "+esc(e.x)+")":"")+" \u00b7 luck "+sgn(e.l)+"</div>");
      else o.push("<div>"+p+" played "+esc(e.m)+": not a play of this roll (no equity)"+"</div>");
      if(plays)o.push(playsTable(e));}
    else{
      o.push("<div>"+(e.k==="d"?p+"'s cube decision: ":p+"'s answer: ")+esc(CUBEW[e.a]||e.a)+lost+gradeTag(e.g)+
        "; best: "+esc(CUBEW[e.b]||e.b)+"</div>");
      var nx=g.a[i+1],ans=null;
      if(nx)for(var j=0;j<nx.length;j++)if(nx[j].k==="t")ans=nx[j].a;
      if(plays)o.push(cubeTable(e,ans));}
  }
  o.push('<button type="button" data-go="plays" aria-pressed="'+plays+'">'+(plays?"hide the best plays":"show the best plays")+"</button>");
  return o.join("");
}
function show(){
  var r=rec(),g=game(),fr=frame(),sides=sidesOf(fr),b=bottomFor(fr),el=$("rp-board");
  el.innerHTML=board(r,sides,b,fr[2],fr[4],fr[5],fr[6],g.players,title(g,fr),fr[1]==="end");
  el.setAttribute("data-file",cur.f+1);el.setAttribute("data-game",g.n);
  el.setAttribute("data-move",fr[0]||("step"+cur.i));el.setAttribute("data-step",cur.i);
  el.setAttribute("data-player",fr[2]);el.setAttribute("data-position-id",fr[3]);
  if(fr[12])el.setAttribute("data-match-id",fr[12]);else el.removeAttribute("data-match-id");
  $("rp-status").textContent=title(g,fr)+(fr[1]!=="end"&&fr[7]?"  \u2014  "+fr[7]:"");
  $("rp-note").textContent=note;$("rp-note").hidden=!note;note="";
  var nx=g.f[cur.i+1],ab=$("rp-afterbox");
  if(nx&&fr[1]!=="end"){ab.style.display="";
    $("rp-after").innerHTML=board(r,sidesOf(nx),b,nx[2],"",nx[5],nx[6],g.players,"after: "+title(g,fr));}
  else{ab.style.display="none";$("rp-after").innerHTML="";}
  var n0=g.players[0],n1=g.players[1],info=[];
  info.push("Score: "+esc(n0)+" "+g.score[0]+" \u2013 "+esc(n1)+" "+g.score[1]+
    (r.length?" in a "+r.length+"-point match":" (money)")+(g.crawford?" \u00b7 Crawford game":""));
  if(r.cube)info.push("Cube: "+fr[5]+(fr[6]<0?" (centred)":", owned by "+esc(g.players[fr[6]])));
  info.push("Pips: "+esc(n0)+" "+pips(sides[0])+" \u00b7 "+esc(n1)+" "+pips(sides[1])+
    " \u00b7 borne off "+off(sides[0])+" / "+off(sides[1]));
  info.push((r.ids?"Position ID ":"Position (ID encoding) ")+"<code>"+fr[3]+"</code>"+(fr[12]?" Match ID <code>"+fr[12]+"</code>":""));
  if(fr[10]!==null&&fr[10]!==undefined)info.push("Clock: "+fr[10]+" s");
  if(fr[8])info.push("Line "+fr[8]+" of "+esc(r.path));
  if(cur.i===0)for(var c=0;c<g.comments.length;c++)info.push('<span class="cm">'+esc(g.comments[c])+'</span>');
  if(fr[11])for(c=0;c<fr[11].length;c++)info.push('<span class="cm">{ '+esc(fr[11][c])+' }</span>');
  if(fr[1]==="end"&&g.result)info.push("Result: "+esc(g.players[g.result[0]])+" wins "+g.result[1]+
    " point"+(g.result[1]===1?"":"s")+(g.result[2]?" ("+esc(g.result[2])+")":""));
  var fs=findingsAt(cur.f,cur.g,cur.i);
  for(c=0;c<fs.length;c++)info.push('<div class="rp-flag '+esc(fs[c][1])+'"><b>'+esc(fs[c][0])+'</b> '+esc(fs[c][1])+
    ' (line '+fs[c][3]+':'+fs[c][4]+'): '+esc(fs[c][2])+'</div>');
  $("rp-info").innerHTML=info.join("<br>");
  if($("rp-chartbox")){drawChart();var ah=r.analysis?analysis(g,cur.i):"";$("rp-an").innerHTML=ah;$("rp-an").hidden=!ah;}
  var lis=$("rp-moves").children;
  for(var k=0;k<lis.length;k++){var on=k===cur.i;lis[k].className=lis[k].className.replace(/ ?cur/g,"")+(on?" cur":"");
    if(on&&lis[k].scrollIntoView&&$("rp-moves").scrollHeight>$("rp-moves").clientHeight){
      var ol=$("rp-moves"),li=lis[k];if(li.offsetTop<ol.scrollTop||li.offsetTop>ol.scrollTop+ol.clientHeight-li.offsetHeight)ol.scrollTop=li.offsetTop-ol.clientHeight/2;}}
  $("rp-games").value=String(cur.g);if($("rp-files"))$("rp-files").value=String(cur.f);
  setHash("#"+address(cur.f,cur.g,cur.i));
}
// The address follows the step, at most one change per HASH_MS (a held arrow key steps faster: browsers
// drop history calls past about 100 in 10 s), the last one always written once the steps stop.  An address
// changed meanwhile by someone else (a link, the user, a script) is never written over: its hashchange
// shows that position next.
var HASH_MS=150,hashWant=null,hashTimer=null,hashLast=-1e9,hashMine=location.hash;
function setHash(h){hashWant=h;if(hashTimer!==null)return;
  var wait=hashLast+HASH_MS-Date.now();
  if(wait<=0)writeHash();else hashTimer=setTimeout(function(){hashTimer=null;writeHash();},wait);}
function writeHash(){var h=hashWant;hashWant=null;if(h===null)return;
  if(location.hash!==hashMine&&location.hash!==h)return;
  hashLast=Date.now();hashMine=h;
  if(location.hash!==h){try{history.replaceState(null,"",h);}catch(e){}}}
function dropHash(){hashWant=null;if(hashTimer!==null){clearTimeout(hashTimer);hashTimer=null;}}
function fillGames(){
  var r=rec(),s=[];
  for(var i=0;i<r.games.length;i++){var g=r.games[i],res=g.result?" \u2192 "+g.players[g.result[0]]+" wins "+g.result[1]:"";
    s.push('<option value="'+i+'">Game '+g.n+": "+esc(g.players[0])+" "+g.score[0]+" \u2013 "+esc(g.players[1])+" "+g.score[1]+esc(res)+"</option>");}
  $("rp-games").innerHTML=s.join("");
  var v=['<option value="0">'+esc(r.games.length?r.games[0].players[0]:"player 1")+"'s side</option>",
    '<option value="1">'+esc(r.games.length?r.games[0].players[1]:"player 2")+"'s side</option>",
    '<option value="roll">the player to act</option>'];
  $("rp-view").innerHTML=v.join("");$("rp-view").value=view;
  var fl=[];for(var f=0;f<r.findings.length;f++){var x=r.findings[f];
    var tgt=x[5]?'<a href="#'+address(cur.f,x[5]-1,x[6])+'">':"<span>";
    fl.push('<div class="'+esc(x[1])+'">'+tgt+esc(x[0])+" (line "+x[3]+(x[5]?", game "+r.games[x[5]-1].n:"")+")"+(x[5]?"</a>":"</span>")+": "+esc(x[2])+"</div>");}
  $("rp-finds").innerHTML=fl.length?"<b>Findings</b>"+fl.join(""):"";
}
function fillMoves(){
  var g=game(),s=[];
  for(var i=0;i<g.f.length;i++){var fr=g.f[i],fs=findingsAt(cur.f,cur.g,i),cls=[];
    if(fr[0].indexOf(".")>0)cls.push("part");
    if(fs.length)cls.push(fs.some(function(x){return x[1]==="error";})?"bad":"warn");
    var lead=fr[1]==="end"?"":(fr[0]&&fr[0].indexOf(".")<0?fr[0]+". ":"");
    var txt=fr[1]==="end"?"final position":who(g,fr[2])+" "+fr[7],gn=g.a?worst(g.a[i]):0;
    var tips=fs.map(function(x){return x[0]+": "+x[2];});if(gn)tips.push(GRADE[["","doubtful","bad","very bad"][gn]]);
    s.push('<li data-i="'+i+'" class="'+cls.join(" ")+'" title="'+esc(tips.join("\n"))+'">'+esc(lead)+
      (gn?'<span class="gr g'+gn+'">'+MARK[gn]+"</span> ":"")+esc(txt)+(fs.length?" \u26a0":"")+"</li>");}
  $("rp-moves").innerHTML=s.join("");
}
function go(f,g,i){
  var nf=f!==cur.f,ng=nf||g!==cur.g;cur={f:f,g:g,i:i};
  if(nf)fillGames();if(ng)fillMoves();show();
}
function step(d){
  var r=rec(),g=game(),i=cur.i+d,gi=cur.g;
  if(i>=g.f.length){if(gi+1<r.games.length){gi++;i=0;}else i=g.f.length-1;}
  else if(i<0){if(gi>0){gi--;i=r.games[gi].f.length-1;}else i=0;}
  go(cur.f,gi,i);
}
function parse(h){
  var q={};h.replace(/^#/,"").split("&").forEach(function(kv){var p=kv.split("=");if(p[0])q[p[0]]=decodeURIComponent(p[1]||"");});
  return q;
}
function fromHash(){
  var q=parse(location.hash||(D.start?"#"+D.start:""));
  if(D.multi&&!q.file){root.hidden=true;return false;}
  var f=Math.max(0,Math.min(FILES.length-1,(parseInt(q.file,10)||1)-1)),r=FILES[f];
  if(!r.games.length){root.hidden=false;return false;}
  var gi=-1;if(q.game){for(var k=0;k<r.games.length;k++)if(String(r.games[k].n)===q.game)gi=k;}
  if(gi<0){gi=0;if(q.game)note="There is no game "+q.game+" in this record: game "+r.games[0].n+" is shown.";}
  var g=r.games[gi],i=0;
  if(q.move){i=-1;for(k=0;k<g.f.length;k++)if(g.f[k][0]===q.move){i=k;break;}
    if(i<0){var last=0;for(k=0;k<g.f.length;k++)if(g.f[k][1]==="roll")last=parseInt(g.f[k][0],10);
      i=g.f.length-1;note="Game "+g.n+" has moves 1-"+last+", not "+q.move+": the game's final position is shown.";}}
  else if(q.step)i=Math.max(0,Math.min(g.f.length-1,parseInt(q.step,10)||0));
  var was=root.hidden;root.hidden=false;cur.f=-1;go(f,gi,i);
  if(D.multi&&was&&root.scrollIntoView)root.scrollIntoView();
  return true;
}
var fs=[];for(var f=0;f<FILES.length;f++)fs.push('<option value="'+f+'">'+esc(FILES[f].path)+"</option>");
$("rp-files").innerHTML=fs.join("");if(FILES.length<2)$("rp-filebox").style.display="none";
root.addEventListener("click",function(e){
  var t=e.target;while(t&&t!==root&&!(t.getAttribute&&(t.getAttribute("data-go")||t.getAttribute("data-i"))))t=t.parentNode;
  if(!t||t===root)return;
  var a=t.getAttribute("data-go");
  if(a==="next")step(1);else if(a==="prev")step(-1);
  else if(a==="first")go(cur.f,cur.g,0);else if(a==="last")go(cur.f,cur.g,game().f.length-1);
  else if(a==="plays"){plays=!plays;show();}
  else if(a==="close"){root.hidden=true;dropHash();try{history.replaceState(null,"",location.pathname+location.search);}catch(x){}hashMine=location.hash;}
  else if(t.getAttribute("data-i"))go(cur.f,cur.g,parseInt(t.getAttribute("data-i"),10));
});
if($("rp-chart"))$("rp-chart").addEventListener("click",function(e){
  var sv=this.querySelector("svg");if(!sv)return;var b=sv.getBoundingClientRect(),g=game(),n=g.f.length;
  var x=(e.clientX-b.left)*CW/b.width,k=Math.round((x-CL)/(CW-CL-CR)*(n-1));
  go(cur.f,cur.g,Math.max(0,Math.min(n-1,k)));
});
$("rp-games").addEventListener("change",function(){go(cur.f,parseInt(this.value,10),0);});
$("rp-files").addEventListener("change",function(){cur.g=-1;go(parseInt(this.value,10),0,0);});
$("rp-view").addEventListener("change",function(){view=this.value;show();});
document.addEventListener("keydown",function(e){
  if(root.hidden||e.altKey||e.ctrlKey||e.metaKey)return;
  var tg=e.target&&e.target.tagName;if(tg==="SELECT"||tg==="INPUT"||tg==="TEXTAREA")return;
  var k=e.key;
  if(k==="ArrowRight"||k==="ArrowDown"){step(1);}
  else if(k==="ArrowLeft"||k==="ArrowUp"){step(-1);}
  else if(k==="Home"){go(cur.f,cur.g,0);}
  else if(k==="End"){go(cur.f,cur.g,game().f.length-1);}
  else if(k==="PageDown"){if(cur.g+1<rec().games.length)go(cur.f,cur.g+1,0);}
  else if(k==="PageUp"){if(cur.g>0)go(cur.f,cur.g-1,0);}
  else return;
  e.preventDefault();
});
window.addEventListener("hashchange",fromHash);
if(!fromHash()&&!D.multi&&FILES[0].games.length===0)$("rp-status").textContent="The record has no game that could be replayed.";
document.documentElement.setAttribute("data-replayer","ready");
if(window.performance&&performance.mark)performance.mark("replayer-ready");
})();
"""


# ----------------------------------------------------------------------------- the script's words
#
# The script above is the English page's, byte for byte.  In another language its texts are put in from
# the catalog: each entry of _js_texts() names a piece of the English script (it occurs there exactly
# once) and gives the JavaScript that says the same in the current language, built from whole messages
# with named fields (_js_expr), the fields being the script's own expressions.

_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z_0-9]*)\}")
_HEADER = ""      # the catalog's header is the translation of the empty message


def _js_str(text: str) -> str:
    """``text`` as a double-quoted JavaScript string that can stand in a ``<script>`` element."""
    return json.dumps(text, ensure_ascii=False).replace("<", "\\u003c")


def _split(message: str):
    """The literal parts and fields of a message, in order: (True, text) or (False, field name)."""
    pos = 0
    for m in _FIELD.finditer(message):
        if m.start() > pos:
            yield True, message[pos:m.start()]
        yield False, m.group(1)
        pos = m.end()
    if pos < len(message):
        yield True, message[pos:]


def _js_expr(message: str, html: bool = False, **fields: str) -> str:
    """A JavaScript expression that builds ``message`` (translated) with each ``{field}`` the script's
    expression ``fields[field]``; ``html``: the text goes into markup (its literal parts escaped)."""
    out = []
    for literal, part in _split(message):
        out.append(_js_str(escape(part) if html else part) if literal else f"({fields[part]})")
    return "+".join(out) or '""'


def _js_inside(message: str, quote: str, **fields: str) -> str:
    """``message`` put inside a JavaScript string literal delimited by ``quote`` (its fields closing and
    reopening the literal), in SVG markup."""
    out = []
    for literal, part in _split(message):
        if literal:
            out.append(escape(part).replace("\\", "\\\\").replace(quote, "\\" + quote).replace("<", "\\u003c"))
        else:
            out.append(f"{quote}+({fields[part]})+{quote}")
    return "".join(out)


def _plural_rule() -> tuple[str, list[int]]:
    """The catalog's plural rule (a C expression of ``n``, which is JavaScript too) and a number that
    takes each form."""
    header = _(_HEADER)
    m = re.search(r"plural=([^;\n]+)", header)
    expr = m.group(1).strip() if m else "n != 1"
    m = re.search(r"nplurals=(\d+)", header)
    count = int(m.group(1)) if m else 2
    rule = gettext.c2py(expr)
    return expr, [next((n for n in range(1000) if rule(n) == i), 1) for i in range(count)]


def _js_roll(expr: str) -> str:
    """A JavaScript expression writing the roll ``expr`` ("64") as the current language writes it in prose
    (``roll_text``: "6-4" in Russian); the English page keeps the expression as it is."""
    if roll_text(6, 4) == "64":
        return expr
    a, b = roll_text("\0", "\1").split("\0")[1].split("\1")[0], roll_text("\0", "\1").split("\1")[1]
    pre = roll_text("\0", "\1").split("\0")[0]
    return (f'(/^[1-6][1-6]$/.test({expr})?{_js_str(pre)}+{expr}[0]+{_js_str(a)}+{expr}[1]+{_js_str(b)}'
            f':{expr})')


def _js_plural(message, count: str, html: bool = False, **fields: str) -> str:
    """A JavaScript expression choosing the form of ``message(k)`` (an ``ngettext`` of the number ``k``) for
    the script's number ``count``."""
    forms = [_js_expr(message(k), html, **fields) for k in _plural_rule()[1]]
    return f"[{','.join(forms)}][PL({count})]"


def _js_texts() -> list[tuple[str, str]]:
    """(a piece of the English script, the piece in the current language)."""
    step_kinds = {"roll": pgettext("replayer step", "roll"), "chain": pgettext("replayer step", "chain"),
                  "handover": pgettext("replayer step", "handover")}
    severities = {"error": pgettext("severity", "error"), "warning": pgettext("severity", "warning")}
    html = True
    score = dict(first="esc(n0)", first_score="g.score[0]", second="esc(n1)", second_score="g.score[1]")
    return [
        ('"use strict";\n', '"use strict";\n' + f"var PL=function(n){{return +({_plural_rule()[0]});}};\n"
         + f"var STEP={script_json(step_kinds)}, SEV={script_json(severities)};\n"),
        ('" (numbering, to play)"', _js_str(" " + _("(numbering, to play)"))),
        # TRANSLATORS: after the bottom player's name on the board of a game's final position
        ('" (numbering, rolled last)"', _js_str(" " + _("(numbering, rolled last)"))),
        ('"There is no game "+q.game+" in this record: game "+r.games[0].n+" is shown."',
         # TRANSLATORS: the replayer's notice when the address names a game the record does not have
         _js_expr(_("There is no game {game} in this record: game {shown} is shown."), game="q.game",
                  shown="r.games[0].n")),
        ('"Game "+g.n+" has moves 1-"+last+", not "+q.move+": the game\'s final position is shown."',
         # TRANSLATORS: the replayer's notice when the address names a move past the game's end
         _js_expr(_("Game {game} has moves 1-{last}, not {move}: the game's final position is shown."),
                  game="g.n", last="last", move="q.move")),
        ("off '+off(me)+'", _js_inside(_("off {n}"), "'", n="off(me)")),
        ("off '+off(opp)+'", _js_inside(_("off {n}"), "'", n="off(opp)")),
        ('"game "+g.n+", final position"', _js_expr(_("game {game}, final position"), game="g.n")),
        ('"game "+g.n+", move "+k+": "+p+" to play "+fr[4]',
         # TRANSLATORS: the replayer's title of a roll; {move}: the roll's number in the game (show --move)
         _js_expr(_("game {game}, move {move}: {player} to play {dice}"), game="g.n", move="k", player="p",
                  dice=_js_roll("fr[4]"))),
        ('"game "+g.n+", move "+k.split(".")[0]+", "+fr[1]+": "+p+" to play "+fr[4]',
         # TRANSLATORS: the replayer's title of a further part of a Gul bara turn; {step}: "chain", "handover"
         _js_expr(_("game {game}, move {move}, {step}: {player} to play {dice}"), game="g.n",
                  move='k.split(".")[0]', step="STEP[fr[1]]||fr[1]", player="p", dice=_js_roll("fr[4]"))),
        ('"game "+g.n+": "+p+" "+fr[7]',
         # TRANSLATORS: the replayer's title of a cube action or a result; {text}: as the record writes it
         _js_expr(_("game {game}: {player} {text}"), game="g.n", player="p", text="fr[7]")),
        ('"after: "+title(g,fr)',
         # TRANSLATORS: the description of the replayer's small board after the step; {title}: the step's
         _js_expr(_("after: {title}"), title="title(g,fr)")),
        ('"Score: "+esc(n0)+" "+g.score[0]+" \\u2013 "+esc(n1)+" "+g.score[1]+\n'
         '    (r.length?" in a "+r.length+"-point match":" (money)")+(g.crawford?" \\u00b7 Crawford game":"")',
         "(r.length?" + _js_plural(lambda k: ngettext(
             "Score: {first} {first_score} \u2013 {second} {second_score} in a {length}-point match",
             "Score: {first} {first_score} \u2013 {second} {second_score} in a {length}-point match", k),
             "r.length", html, length="r.length", **score)
         # TRANSLATORS: the score of a money game
         + ":" + _js_expr(_("Score: {first} {first_score} \u2013 {second} {second_score} (money)"), html, **score)
         + ")+(g.crawford?" + _js_str(" \u00b7 " + escape(_("Crawford game"))) + ':"")'),
        ('"Cube: "+fr[5]+(fr[6]<0?" (centred)":", owned by "+esc(g.players[fr[6]]))',
         "(fr[6]<0?" + _js_expr(_("Cube: {value} (centred)"), html, value="fr[5]") + ":"
         + _js_expr(_("Cube: {value}, owned by {player}"), html, value="fr[5]", player="esc(g.players[fr[6]])")
         + ")"),
        ('"Pips: "+esc(n0)+" "+pips(sides[0])+" \\u00b7 "+esc(n1)+" "+pips(sides[1])+\n'
         '    " \\u00b7 borne off "+off(sides[0])+" / "+off(sides[1])',
         # TRANSLATORS: the replayer's pip counts of both players, then the checkers each has borne off
         _js_expr(_("Pips: {first} {first_pips} \u00b7 {second} {second_pips} \u00b7 borne off {first_off} / "
                    "{second_off}"), html, first="esc(n0)", first_pips="pips(sides[0])", second="esc(n1)",
                  second_pips="pips(sides[1])", first_off="off(sides[0])", second_off="off(sides[1])")),
        ('(r.ids?"Position ID ":"Position (ID encoding) ")',
         # TRANSLATORS: GNU Backgammon's Position ID, as gnubg names it; the other: a long nardy position
         # written in the same encoding
         "(r.ids?" + _js_str(escape(_("Position ID")) + " ") + ":"
         + _js_str(escape(_("Position (ID encoding)")) + " ") + ")"),
        ('" Match ID <code>"', _js_str(" " + escape(_("Match ID")) + " <code>")),
        ('"Clock: "+fr[10]+" s"',
         # TRANSLATORS: the time the move took by the record's clock, in seconds
         _js_expr(_("Clock: {seconds} s"), html, seconds="fr[10]")),
        ('"Line "+fr[8]+" of "+esc(r.path)', _js_expr(_("Line {line} of {path}"), html, line="fr[8]",
                                                      path="esc(r.path)")),
        ('"Result: "+esc(g.players[g.result[0]])+" wins "+g.result[1]+\n    " point"+(g.result[1]===1?"":"s")',
         _js_plural(lambda k: ngettext("Result: {player} wins {n} point", "Result: {player} wins {n} points", k),
                    "g.result[1]", html, n="g.result[1]", player="esc(g.players[g.result[0]])")),
        ("'</b> '+esc(fs[c][1])+", "'</b> '+esc(SEV[fs[c][1]]||fs[c][1])+"),
        ("' (line '+fs[c][3]+':'+fs[c][4]+'): '",
         '" "+' + _js_expr(_("(line {line}:{column})"), html, line="fs[c][3]", column="fs[c][4]") + '+": "'),
        ('" \\u2192 "+g.players[g.result[0]]+" wins "+g.result[1]',
         # TRANSLATORS: the replayer's list of games: who won the game, and the points
         '" \\u2192 "+' + _js_plural(lambda k: ngettext("{player} wins {points}", "{player} wins {points}", k),
                                    "g.result[1]", player="g.players[g.result[0]]", points="g.result[1]")),
        ("'\">Game '+g.n+\": \"", "'\">'+" + _js_expr(_("Game {game}"), html, game="g.n") + '+": "'),
        ('esc(r.games.length?r.games[0].players[0]:"player 1")+"\'s side</option>"',
         # TRANSLATORS: the replayer's choice of the side the board is seen from
         _js_expr(_("{player}'s side"), html, player="esc(r.games.length?r.games[0].players[0]:"
                  + _js_str(_("player {number}").format(number=1)) + ")") + '+"</option>"'),
        ('esc(r.games.length?r.games[0].players[1]:"player 2")+"\'s side</option>"',
         _js_expr(_("{player}'s side"), html, player="esc(r.games.length?r.games[0].players[1]:"
                  + _js_str(_("player {number}").format(number=2)) + ")") + '+"</option>"'),
        ("'<option value=\"roll\">the player to act</option>'",
         "'<option value=\"roll\">'+" + _js_str(escape(_("the player to act"))) + "+'</option>'"),
        ('" (line "+x[3]+(x[5]?", game "+r.games[x[5]-1].n:"")+")"',
         '" "+(x[5]?' + _js_expr(_("(line {line}, game {game})"), html, line="x[3]", game="r.games[x[5]-1].n")
         + ":"
         + _js_expr(_("(line {line})"), html, line="x[3]") + ")"),
        ('"<b>Findings</b>"', _js_str("<b>" + escape(_("Findings")) + "</b>")),
        ('fr[1]==="end"?"final position":', 'fr[1]==="end"?' + _js_str(_("final position")) + ":"),
        ('"The record has no game that could be replayed."',
         _js_str(_("The record has no game that could be replayed."))),
        # the analysis (show --as html --analyse)
        ('var GRADE={"doubtful":"doubtful","bad":"bad","very bad":"very bad"};',
         "var GRADE=" + script_json({g: pgettext("decision grade", g) for g in ("doubtful", "bad", "very bad")})
         + ";"),
        ('var CUBEW={"double":"double","no double":"no double","take":"take","pass":"pass","too good":"too good",'
         '"double, take":"double, take","double, pass":"double, pass"};',
         "var CUBEW=" + script_json({a: cube_action_word(a) for a in ("double", "no double", "take", "pass", "too good",
                                                                      "double, take", "double, pass")}) + ";"),
        # TRANSLATORS: the replayer's mark of the play made in the list of the best plays
        ('var PLAYED=" \\u25c0 played";', "var PLAYED=" + _js_str(" \u25c0 " + escape(_("played"))) + ";"),
        # TRANSLATORS: the description of the replayer's chart of the winning chances, for screen readers
        ('"the winning chances over the game; a click goes to that step"',
         _js_str(_("the winning chances over the game; a click goes to that step"))),
        ('esc(g.players[0])+"\'s match-winning chances: "+"<b>"+ch+"</b>"',
         # TRANSLATORS: the caption of the replayer's chart in match play; {chance}: "58.1%"
         _js_expr(_("{player}'s match-winning chances: {chance}"), True, player="esc(g.players[0])",
                  chance='"<b>"+ch+"</b>"')),
        ('esc(g.players[0])+"\'s winning chances: "+"<b>"+ch+"</b>"',
         # TRANSLATORS: the caption of the replayer's chart in money play and in the long games; {chance}: "58.1%"
         _js_expr(_("{player}'s winning chances: {chance}"), True, player="esc(g.players[0])",
                  chance='"<b>"+ch+"</b>"')),
        ('"bgsage, "+an.plies+"-ply"',
         # TRANSLATORS: the engine and its depth, after the caption of the replayer's chart
         _js_expr(_("bgsage, {plies}-ply"), plies="an.plies")),
        # TRANSLATORS: the long games' evaluator and its depth, after the caption of the replayer's chart
        ('"the evaluator, 0-ply"', _js_str(_("the evaluator, 0-ply"))),
        ('\'<table><tr><th class="n">#</th><th>play</th><th class="n">equity</th><th class="n">loss</th></tr>\'',
         _js_str('<table><tr><th class="n">#</th><th>' + escape(pgettext("replayer analysis", "play"))
                 + '</th><th class="n">' + escape(pgettext("replayer analysis", "equity"))
                 + '</th><th class="n">' + escape(pgettext("replayer analysis", "loss")) + "</th></tr>")),
        ('\'<table><tr><th>action</th><th class="n">equity</th></tr>\'',
         _js_str("<table><tr><th>" + escape(pgettext("replayer analysis", "action")) + '</th><th class="n">'
                 + escape(pgettext("replayer analysis", "equity")) + "</th></tr>")),
        ('", lost "+e.e.toFixed(3)', _js_expr(_(", lost {error}"), True, error="e.e.toFixed(3)")),
        ('p+" played "+esc(e.m)+": rank "+e.r+" of "+e.n+", equity "+sgn(e.q)',
         # TRANSLATORS: the replayer's analysis of a play; {rank}: its place among the {moves} legal plays
         _js_expr(_("{player} played {play}: rank {rank} of {moves}, equity {equity}"), True, player="p",
                  play="esc(e.m)", rank="e.r", moves="e.n", equity="sgn(e.q)")),
        ('p+" played "+esc(e.m)+": not a play of this roll (no equity)"',
         _js_expr(_("{player} played {play}: not a play of this roll (no equity)"), True, player="p",
                  play="esc(e.m)")),
        ('"the replay goes on from "+esc(e.x)',
         # TRANSLATORS: after an illegal play: the legal play the replay went on from
         _js_expr(_("the replay goes on from {play}"), True, play="esc(e.x)")),
        ('" \\u00b7 luck "+sgn(e.l)',
         # TRANSLATORS: the luck of the roll, in equity ("+0.103")
         '" \\u00b7 "+' + _js_expr(_("luck {luck}"), True, luck="sgn(e.l)")),
        ('(e.k==="d"?p+"\'s cube decision: ":p+"\'s answer: ")+esc(CUBEW[e.a]||e.a)',
         # TRANSLATORS: the replayer's analysis of a cube decision ("double", "no double"), and of the answer
         # to a double ("take", "pass")
         '(e.k==="d"?' + _js_expr(_("{player}'s cube decision: {action}"), True, player="p",
                                   action="esc(CUBEW[e.a]||e.a)")
         + ":" + _js_expr(_("{player}'s answer: {action}"), True, player="p", action="esc(CUBEW[e.a]||e.a)") + ")"),
        ('"; best: "+esc(CUBEW[e.b]||e.b)',
         # TRANSLATORS: the best cube action by the analysis
         _js_expr(_("; best: {action}"), True, action="esc(CUBEW[e.b]||e.b)")),
        ('(plays?"hide the best plays":"show the best plays")',
         # TRANSLATORS: the replayer's button that shows or hides the engine's best plays at the step
         "(plays?" + _js_str(escape(_("hide the best plays"))) + ":" + _js_str(escape(_("show the best plays")))
         + ")"),
    ]


def script(lang: str | None = None) -> str:
    """The replayer's script, its texts in the current language (English: :data:`_JS` as it is)."""
    if (lang or language()) == "en":
        return _JS
    js = _JS
    for english, translated in _js_texts():
        js = js.replace(english, translated, 1)
    return js


def script_block(records: list[dict], multi: bool = False, start: str = "") -> str:
    """The data and the script of a page holding the replayer's markup (:data:`BODY` inside an element
    ``id="replayer"``).  ``multi``: the page holds several records (``validate --format html``), and the
    replayer shows only when the address names one (``#file=K&game=G&move=M``)."""
    data = {"geom": board_geometry(), "files": records, "multi": multi, "start": start}
    return (f'<script type="application/json" id="rp-data">{script_json(data)}</script>\n'
            f"<script>{script()}</script>\n")


# the record's tags the replayer's heading shows, with their names for people (the tag itself is the record's)
TAG_NAMES = {
    "Event": lambda: pgettext("tag", "Event"),
    "Site": lambda: pgettext("tag", "Site"),
    "Date": lambda: pgettext("tag", "Date"),
    "EventDate": lambda: pgettext("tag", "EventDate"),
    "Round": lambda: pgettext("tag", "Round"),
}


def _tag_name(tag: str) -> str:
    return TAG_NAMES[tag]()


def page(match: Match, variant: str = "backgammon", options: dict[str, Any] | None = None,
         start: tuple[int | None, int | None] = (None, None), min_severity: str = "warning",
         analyse: int | None = None, threads: int = 0) -> str:
    """The whole page of ``show FILE --as html``.  ``start``: (game, move) the page opens at when its
    address names no position (as ``show --game G --move M``: no move = the game's final position; no
    game = the last game); default the first position of the first game.  ``min_severity``: ``error``
    marks no warning (``show --min-severity error``).  ``analyse``: the search depth of the skill analysis
    shown on the steps (``show --analyse``, :func:`add_analysis`); None: no analysis."""
    data = record_data(match, variant, options)
    if analyse is not None:
        add_analysis(data, match, variant, options, analyse, threads)
    if min_severity == "error":
        data["findings"] = [f for f in data["findings"] if f[1] == "error"]
    where = ""
    game, move = start
    if (game is not None or move is not None) and data["games"]:
        g = game if game is not None else data["games"][-1]["n"]
        where = f"game={g}&move={move if move is not None else 'end'}"
    names = ""
    if data["games"]:
        p = data["games"][0]["players"]
        names = f"{p[0]} \u2013 {p[1]}"
    games = len(data["games"])
    kind = variant_title(data["title"])
    kind = kind[:1].upper() + kind[1:]
    if data["length"]:
        what = ngettext("{length}-point match", "{length}-point match", data["length"]).format(length=data["length"])
    else:
        what = _("money play") if games > 1 else _("money game")
    tags = " \u00b7 ".join(f"{_tag_name(k)}: {v}" for k, v in data["tags"] if k in TAG_NAMES)
    nerr = sum(1 for f in data["findings"] if f[1] == "error")
    count = ngettext("{n} game", "{n} games", games).format(n=games)
    # TRANSLATORS: the replayer page's summary; validate is the command's name
    if nerr:
        errors = ngettext("{n} error found by validate", "{n} errors found by validate", nerr).format(n=nerr)
    else:
        # TRANSLATORS: the replayer page's summary when validate found no error
        errors = _("0 errors found by validate")
    # TRANSLATORS: the replayer page's keys: the arrows step, Home/End (keys), PageUp/PageDown (keys) change game
    keys = escape(_("Keys: \u2190 \u2192 step, Home/End, PageUp/PageDown game.")).replace(
        "\u2190", "&larr;").replace("\u2192", "&rarr;")
    app = escape(_("nardy-analyze replay"))
    head = (f"{escape(kind)}, {escape(what)}, {escape(count)}"
            f"{' &middot; ' + escape(tags) if tags else ''} &middot; {escape(errors)}. {keys}")
    return (f"<!DOCTYPE html>\n<html lang=\"{escape(language())}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(names or match.path)} &middot; {app}</title>"
            f"<style>body{{margin:.8em}}{CSS}</style></head><body>\n"
            f'<div class="rp" id="replayer"><h1>{escape(names)} <small>{escape(match.path)}</small></h1>'
            f'<p class="meta">{head}</p>\n{body()}</div>\n'
            + script_block([data], start=where) + "</body></html>\n")

"""One numbering of games and moves in every command (docs/json-report.md, "Numbering").

A game is numbered by the record's own ``Game N`` (the order in the file when games are unnumbered or
numbered twice); a move is the roll's number in the game (1 = the opening roll), as ``show --move`` and
the replayer's ``#game=G&move=M`` take it.  A finding's ``game``/``move`` pasted into ``show --game G
--move M`` shows the position the finding is about.
"""
from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import CORPUS, ROOT, cli
from nardy_analyze import analyze, notation
from nardy_analyze.engine.posid import position_id
from nardy_analyze.generate import generate_match
from nardy_analyze.i18n import set_language
from nardy_analyze.record import Kind, Match, game_numbers
from nardy_analyze.replay.normal import normalise
from nardy_analyze.report import show as shows
from nardy_analyze.report import replayer
from nardy_analyze.report.svg import board_geometry, svg_board

# An excerpt of a 5-point match whose games are numbered 1, 2 and 6, in Jellyfish's exact layout: a
# checker on the bar moved past (game 1 and 2, Bob's 42 at row 5: the game's 10th roll), a 61 played
# as a 6 alone (game 6, Alice at row 3: the 4th roll, Bob opened), a double to 3 (game 6, row 6: before
# the 10th roll, Alice's 21 at row 7) and 8 points declared at a 4-cube after the last roll.
EXCERPT = """\
; [Site "Club night"]

 5 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 32: 24/21 13/11             31: 8/5 6/5
  2) 62: 21/15 15/13             55: 8/3 8/3 6/1* 6/1
  3) 44: 25/21 13/9 13/9 13/9    61: 13/7 7/6
  4) 52: 9/4 6/4                 61: 6/5 24/18
  5) 54: 6/1* 11/7*              42: 25/23 13/9
  6)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 Alice : 1                      Bob : 0
  1) 32: 24/21 13/11             31: 8/5 6/5
  2) 62: 21/15 15/13             55: 8/3 8/3 6/1* 6/1
  3) 44: 25/21 13/9 13/9 13/9    61: 13/7 7/6
  4) 52: 9/4 6/4                 61: 6/5 24/18
  5) 54: 6/1* 11/7*              42: 25/23 13/9
  6)  Doubles => 2                Drops
      Wins 1 point

 Game 6
 Alice : 3                      Bob : 0
  1)                             54: 13/8 24/20
  2) 66: 24/18 24/18 13/7 13/7   54: 24/20 8/3
  3) 61: 13/7                     53: 13/8 8/5
  4) 54: 18/14 18/13             43: 8/5 8/4
  5) 63: 6/3 14/8                21: 5/3 8/7
  6)  Doubles => 3                Takes
  7) 21: 6/4 3/2                 43: 7/4 6/2
  8) 43: 13/10 10/6              52: 13/8 8/6
  9) 21: 8/7 6/4                 65: 13/8 13/7
 10) 32: 4/2 7/4                 44: 20/16 20/16 6/2 6/2
 11) 11: 7/6 7/6 6/5 6/5          Doubles => 4
 12)  Takes                      54: 6/1 8/4
 13) 31: 8/7 6/3                 32: 7/5 4/1
 14) 66: 13/7 13/7 7/1 7/1       22: 16/14 16/14 14/12 12/10
 15) 42: 7/5 7/3                 21: 14/13 13/11
 16) 51: 7/6 8/3                 65: 10/4 11/6
 17) 66: 6/0 6/0 6/0 5/0         21: 2/0 1/0
 18) 64: 5/0 4/0                 31: 1/0 3/0
 19) 42: 2/0 4/0                 51: 5/0 2/1
 20) 42: 5/3 3/0                 53: 5/0 3/0
 21) 54: 3/0 3/0                 62: 6/0 2/0
 22) 41: 3/0 1/0
      Wins 8 points
"""

# (rule, game, move, row, line) of each finding of EXCERPT
EXPECTED = [("bar-first", 1, 10, 5, 11), ("bar-first", 2, 10, 5, 21), ("match-score", 6, None, None, 26),
            ("max-dice", 6, 4, 3, 29), ("cube-illegal", 6, 10, 6, 32), ("result-mismatch", 6, None, None, 49)]


@pytest.fixture
def excerpt(tmp_path) -> Path:
    path = tmp_path / "excerpt.mat"
    path.write_text(EXCERPT)
    return path


# the command line in a bare environment: PATH and a C.UTF-8 locale (no language chosen)
BARE = dict(inherit=False, env={"LANG": "C.UTF-8"}, timeout=120)


# ------------------------------------------------------------------------------------- the position at a finding
def action_at(match: Match, f):
    """The game, the index and the action of ``match`` that finding ``f`` points into (the last cell of its
    game that starts at or before the finding's line:column), or None for a finding at no action."""
    if f.game is None:
        return None
    numbers = game_numbers(match.games)
    g = match.games[numbers.index(f.game)]
    best = None
    for i, a in enumerate(g.actions):
        if (a.loc.line, a.loc.column) <= (f.line, f.column):
            best = (g, i, a)
    return best


def check_finding_opens_its_position(match: Match, f) -> None:
    """``show --game f.game --move f.move`` is the position ``f`` is about: the roll it is at (same line,
    same player, same board as the finding's own position), or the roll right after its cube action, or,
    without a move, the game's final position."""
    if f.game is None:
        return
    snap = shows.pick(match, f.game, f.address if f.move is not None else None)
    assert snap.game == f.game
    found = action_at(match, f)
    if f.part:
        # a later part of a Gul bara turn (a chain double, a handover, a part left out): show --move M.K gives
        # that part's board, with the player who plays it to act, as the replayer's #move=M.K does
        assert found is not None and (snap.move, snap.part) == (f.move, f.part), (f, snap)
        assert not snap.rules.one_part_turns
    if f.position is not None and f.board_title == "" and f.move is not None:
        # the board the finding shows is the board show shows (Position ID of the player to act first), for a
        # roll's own play and for each later part of a Gul bara turn alike
        assert position_id(*snap.pos) == position_id(*f.position), (f, snap)
        assert snap.player == f.side
    if f.part:
        data = replayer.record_data(match)
        g = next(g for g in data["games"] if g["n"] == f.game)
        fr = g["f"][replayer.finding_frame(g["f"], f)]
        assert fr[0] == f.address and fr[3] == position_id(*f.position), (f, fr)
        return
    if found is None or f.move is None:
        if f.move is None and found is not None:
            assert snap.move is None                   # the final position
            g, i, a = found
            rolls = [b for b in g.actions[i:] if b.kind is Kind.ROLL and b.dice and not b.unplayed
                     and b is not a]
            norm = next(ng for ng in normalise(match).games if ng.game is g)
            counted = [na for na in norm.actions[i + 1:] if na.state is not None and na.state.roll]
            assert not counted, (f, rolls)             # no roll the replay counted after the finding
        return
    g, i, a = found
    norm = next(ng for ng in normalise(match).games if ng.game is g)
    st = norm.actions[i].state
    if st is not None and st.roll is not None:
        # a finding at a roll: that roll, its board before the play
        assert (snap.move, snap.line) == (st.roll, a.loc.line), (f, snap)
        assert snap.sides == tuple(st.before) or list(snap.sides) == list(st.before)
        if st.parts:
            # a Gul bara turn of several parts: the replayer keeps the finding on the roll's own step (not on
            # a later part, nor on a part left out that shares the roll's place)
            data = replayer.record_data(match)
            gd = next(gd for gd in data["games"] if gd["n"] == f.game)
            assert gd["f"][replayer.finding_frame(gd["f"], f)][0] == str(f.move), f
    else:
        # at a cube action (or an uncounted roll): the next roll the replay counted, on the same board
        nxt = next(na for na in norm.actions[i + 1:] if na.state is not None and na.state.roll is not None)
        assert snap.move == nxt.state.roll and snap.line == nxt.action.loc.line, (f, snap)


# ------------------------------------------------------------------------------------- the excerpt, by hand
def test_an_excerpt_keeps_its_own_game_numbers_and_counts_moves_by_roll(excerpt):
    match = notation.read_path(excerpt)
    rep = analyze.validate_match(match)
    assert [(f.rule, f.game, f.move, f.row, f.line) for f in rep.findings] == EXPECTED
    assert [g.number for g in rep.games] == [1, 2, 6]
    for f in rep.findings:
        check_finding_opens_its_position(match, f)
    # show takes the record's numbers: game 6 exists, game 3 does not (and the message lists 1, 2, 6)
    assert shows.pick(match, 6, 4).line == 29
    assert shows.pick(match, 6, 10).line == 33       # Alice's 21 after the double at line 32
    assert shows.pick(match, 6).move is None
    with pytest.raises(LookupError, match=r"\b3\b.*1, 2, 6"):
        shows.pick(match, 3)
    with pytest.raises(LookupError, match=r"\b99\b"):
        shows.pick(match, 6, 99)


def test_unnumbered_or_repeated_game_numbers_fall_back_to_the_order(excerpt):
    match = notation.read_path(excerpt)
    assert game_numbers(match.games) == [1, 2, 6]
    twice = copy.deepcopy(match)
    twice.games[2].written_number = 2                # two games called "Game 2": numbered by order
    assert game_numbers(twice.games) == [1, 2, 3]
    rep = analyze.validate_match(twice)
    assert {f.game for f in rep.findings if f.rule == "max-dice"} == {3}
    assert shows.pick(twice, 3, 4).line == 29
    none = copy.deepcopy(match)
    for g in none.games:
        g.written_number = None
    assert game_numbers(none.games) == [1, 2, 3]


def test_pasting_a_findings_game_and_move_into_show_opens_its_position(excerpt):
    """Through the command line: JSON and text findings, then ``show --as gnubg``, in any language."""
    r = cli.subprocess("validate", "--format", "json", "--explain", str(excerpt), **BARE)
    assert r.returncode == 1, r.stderr
    findings = json.loads(r.stdout)["findings"]
    assert [(f["rule"], f["game"], f["move"], f["row"], f["line"]) for f in findings] == EXPECTED
    for f in findings:
        args = ["show", str(excerpt), "--as", "gnubg", "--game", str(f["game"])]
        if f["move"] is not None:
            args += ["--move", str(f["move"])]
        shown = cli.subprocess(*args, **BARE)
        assert shown.returncode == 0, (f, shown.stderr)
        pid = shown.stdout.strip().split(":")[0]
        if "position" in f and f["move"] is not None:
            assert pid == f["position"]["position_id"], f
        if f["rule"] == "result-mismatch":                 # the final position, drawn from the winner
            assert pid in (f["position"]["position_id"],
                           position_id(f["position"]["opponent"], f["position"]["mover"]))
    # the text report gives the same numbers (English: --lang en)
    text = cli.subprocess("validate", "--lang", "en", str(excerpt), **BARE).stdout
    assert "[game 6, move 4, Alice]" in text and "[game 1, move 10, Bob]" in text
    assert "[game 6, move 10, Alice]" in text and re.search(r"result-mismatch: .*\[game 6, Alice\]", text)
    # SARIF carries game, move and row
    sarif = json.loads(cli.subprocess("validate", "--format", "sarif", str(excerpt), **BARE).stdout)
    props = [x["properties"] for x in sarif["runs"][0]["results"]]
    assert [(p["game"], p["move"], p["row"]) for p in props] == [(g, m, r) for _, g, m, r, _ in EXPECTED]
    # the stats' game column: the record's numbers
    games = json.loads(cli.subprocess("stats", "--by", "game", "--format", "json", str(excerpt), **BARE).stdout)
    assert sorted({row["game"] for row in games}) == [1, 2, 6]


def test_replayer_addresses_use_the_same_numbers(excerpt):
    match = notation.read_path(excerpt)
    data = replayer.record_data(match)
    assert [g["n"] for g in data["games"]] == [1, 2, 6]
    g6 = data["games"][2]
    rolls = [fr for fr in g6["f"] if fr[1] == "roll"]
    assert [fr[0] for fr in rolls] == [str(k) for k in range(1, len(rolls) + 1)]
    for key in ("4", "10"):
        fr = next(fr for fr in g6["f"] if fr[0] == key)
        snap = shows.pick(match, 6, int(key))
        assert fr[3] == position_id(*snap.pos) and fr[8] == snap.line
    # every finding's address opens its game by the record's number
    for x in data["findings"]:
        if x[5] is not None:
            assert replayer.address(data, x).startswith(f"game={data['games'][x[5] - 1]['n']}&")
    assert replayer.page(match, start=(6, 4)).count('"start":"game=6&move=4"') == 1


# ------------------------------------------------------------------------------------- property: generated records
def _broken(match: Match, rng: random.Random, renumber: bool) -> Match:
    """``match`` with a few rolls given other dice (findings at rolls), maybe a double written before a
    roll by the player who does not hold the cube, and the games renumbered as an excerpt."""
    m = copy.deepcopy(match)
    for g in m.games:
        rolls = [a for a in g.actions if a.kind is Kind.ROLL and a.dice]
        for a in rng.sample(rolls, min(len(rolls), rng.randint(0, 2))):
            d = (rng.randint(1, 6), rng.randint(1, 6))
            a.dice, a.dice_text = d, f"{d[0]}{d[1]}"
    if renumber:
        n = 0
        for g in m.games:
            n += rng.randint(1, 3)
            g.written_number = n
    return m


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["backgammon", "long", "gulbara"]), seed=st.integers(0, 10_000),
       games=st.integers(1, 3), renumber=st.booleans())
def test_every_finding_of_a_generated_record_opens_its_position(variant, seed, games, renumber):
    match = _broken(generate_match(variant, games, seed), random.Random(seed), renumber)
    rep = analyze.validate_match(match)
    assert [g.number for g in rep.games] == game_numbers(match.games)
    for f in rep.findings:
        check_finding_opens_its_position(match, f)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), renumber=st.booleans())
def test_every_finding_on_a_later_part_of_a_gul_bara_turn_opens_that_part(seed, renumber):
    """Gul bara: a finding about a chain double, a handover or a part the record leaves out has the address
    M.K; show --move M.K and the replayer's #move=M.K give the finding's own board (checked above)."""
    match = _broken(generate_match("gulbara", 2, seed), random.Random(seed), renumber)
    for f in analyze.validate_match(match).findings:
        check_finding_opens_its_position(match, f)


def test_gul_bara_part_findings_are_checked_on_their_own_boards():
    """The generated Gul bara records above do reach findings on later parts (chain doubles, handovers,
    parts left out), and each one's board is checked, not only its line."""
    kinds = set()
    checked = 0
    for seed in range(12):
        match = _broken(generate_match("gulbara", 2, seed), random.Random(seed), False)
        for f in analyze.validate_match(match).findings:
            check_finding_opens_its_position(match, f)
            if f.part:
                checked += 1
                kinds.add(shows.pick(match, f.game, f.address).step)
    assert checked > 20 and kinds == {"chain", "handover"}, (checked, kinds)


def test_pasting_a_gul_bara_part_finding_into_show_opens_the_part(tmp_path):
    """Through the command line: a finding's JSON ``move`` and ``part`` (text: ``move M.K``) pasted into
    ``show --move M.K`` print that part's board; html opens the replayer at the same address."""
    match = next(m for m in (_broken(generate_match("gulbara", 1, s), random.Random(s), False) for s in range(60))
                 if sum(1 for f in analyze.validate_match(m).findings if f.part) >= 2)
    path = tmp_path / "gulbara.ngn"
    path.write_text(notation.get("ngn").write(match))
    r = cli.subprocess("validate", "--format", "json", str(path), **BARE)
    findings = [f for f in json.loads(r.stdout)["findings"] if f["part"]]
    assert len(findings) >= 2 and all(isinstance(f["move"], int) for f in findings)
    text = cli.subprocess("validate", "--lang", "en", str(path), **BARE).stdout
    report = cli.subprocess("validate", "--format", "html", str(path), **BARE).stdout
    for f in findings:                 # the HTML report's link opens the replayer at the part itself
        assert f'href="#file=1&amp;game={f["game"]}&amp;move={f["move"]}.{f["part"]}"' in report, f
    sarif = json.loads(cli.subprocess("validate", "--format", "sarif", str(path), **BARE).stdout)
    assert {x["properties"]["part"] for x in sarif["runs"][0]["results"]} >= {f["part"] for f in findings}
    for f in findings[:2]:
        address = f"{f['move']}.{f['part']}"
        assert f"[game {f['game']}, move {address}, " in text
        shown = cli.subprocess("show", str(path), "--lang", "en", "--game", str(f["game"]), "--move", address, **BARE)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.startswith(f"game {f['game']}, move {address}, "), shown.stdout[:200]
        snap = shows.pick(notation.read_path(path), f["game"], address)
        assert f"line {snap.line})" in shown.stdout.splitlines()[0]
        page = cli.subprocess("show", str(path), "--as", "html", "--game", str(f["game"]), "--move", address,
                              **BARE).stdout
        assert f'"start":"game={f["game"]}&move={address}"' in page
    bad = cli.subprocess("show", str(path), "--move", "2.x", **BARE)
    assert bad.returncode == 2 and "2.x" in bad.stderr and "Traceback" not in bad.stderr
    past = cli.subprocess("show", str(path), "--lang", "en", "--move", f"{findings[0]['move']}.99", **BARE)
    assert past.returncode == 2 and ".99" in past.stderr


# ------------------------------------------------------------------------------------- property: the corpus
def _corpus_files(folder: str, every: int) -> list[Path]:
    root = CORPUS / folder
    if not root.is_dir():
        pytest.skip(f"the shared corpus is not here ({root})")
    files = sorted(p for p in root.rglob("*") if p.suffix in (".mat", ".txt") and p.is_file()
                   and p.name not in ("README.md",) and not p.name.endswith(".list"))
    return files[::every]


@pytest.mark.slow
@pytest.mark.parametrize("folder, every", [("mutants", 1), ("bglab", 1)])
def test_every_finding_of_the_corpus_opens_its_position(folder, every):
    files = _corpus_files(folder, every)
    checked = 0
    for path in files:
        match = notation.read_path(path)
        rep = analyze.validate_match(match)
        for f in rep.findings:
            check_finding_opens_its_position(match, f)
            checked += f.game is not None
    # mutants: one planted illegal play each (a finding at a roll); bglab: results and score lines
    assert checked > (100 if folder == "mutants" else 300), checked


# ------------------------------------------------------------------------------------- the HTML report's facts
def _report(path: Path) -> str:
    r = cli.subprocess("validate", "--format", "html", "--lang", "en", str(path), **BARE)
    assert r.returncode == 1, r.stderr
    return r.stdout


def test_html_report_boards_and_replayer_share_one_set_of_facts(excerpt):
    page = _report(excerpt)
    data = json.loads(re.search(r'<script type="application/json" id="rp-data">(.*?)</script>', page,
                                re.S).group(1))
    rec = data["files"][0]
    assert [g["n"] for g in rec["games"]] == [1, 2, 6]
    cards = re.findall(r'<div class="finding[^"]*">(.*?)\n</div>', page, re.S)
    assert len(cards) == len(EXPECTED)
    by_n = {g["n"]: g for g in rec["games"]}
    for card, (rule, game, move, row, line) in zip(cards, EXPECTED):
        link = re.search(r'href="#file=1&amp;game=(\d+)&amp;(move|step)=([\w.]+)"', card)
        assert link and int(link.group(1)) == game, card[:300]
        g = by_n[game]
        frame = next((fr for i, fr in enumerate(g["f"])
                      if (link.group(2) == "move" and fr[0] == link.group(3))
                      or (link.group(2) == "step" and str(i) == link.group(3))))
        svg = re.search(r"<svg.*?</svg>", card, re.S)
        if svg is None:
            continue
        svg = svg.group(0)
        # the cube: the value the replayer's step has (64 only when centred at 1), beside its owner
        cube = re.search(r'<rect x="(?:426)" y="([\d.]+)" width="24" height="24"[^>]*/>\s*<text[^>]*>(\d+)</text>',
                         svg)
        assert cube, svg[-800:]
        value = frame[5] if frame[5] > 1 else 64
        assert int(cube.group(2)) == value, (rule, cube.group(2), frame)
        # the player drawn at the bottom (dark): the player to act, as the replayer draws it (view "roll")
        names = ["Alice", "Bob"]
        bottom = names.index(re.search(r"&#9679; (\w+)", svg).group(1))
        if rule != "result-mismatch":             # (a result's board: from the declared winner's side)
            assert bottom == frame[2], (rule, bottom, frame)
        geo = board_geometry()
        want = geo["h"] / 2 if frame[6] < 0 else geo["cubelow"] if frame[6] == bottom else geo["cubehigh"]
        assert float(cube.group(1)) + 12 == want, (rule, cube.group(1), frame)
    assert 'view=D.multi?"roll":"0"' in page
    # the result finding: cube 4 owned, drawn beside its owner, not 64 in the middle
    last = re.search(r"<svg.*?</svg>", cards[-1], re.S).group(0)
    assert ">64</text>" not in last and re.search(r">4</text>", last)


def test_the_owned_cube_leaves_the_off_counts_readable():
    geo = board_geometry()
    for owner in (0, 1):
        svg = svg_board(((0,) * 25, (0,) * 25), None, ("A", "B"), "", 2, owner)
        rect = re.search(r'<rect x="426" y="([\d.]+)" width="24" height="24"', svg)
        top, bottom = float(rect.group(1)), float(rect.group(1)) + 24
        for label in re.finditer(r'<text x="424" y="([\d.]+)" font-size="10"[^>]*>off', svg):
            base = float(label.group(1))
            assert bottom < base - 10 or top > base + 2, (owner, top, bottom, base)
    assert (geo["cubelow"], geo["cubehigh"]) == (geo["bottom"] - 40, geo["top"] + 40)


# ------------------------------------------------------------------------------------- small ones
def test_show_final_position_says_rolled_last_in_text_and_svg():
    set_language("en")
    try:
        snap = shows.pick(notation.read_path(ROOT / "examples" / "club-night.mat"), 1)
        assert snap.move is None
        text, svg = shows.as_text(snap), shows.as_svg(snap)
        assert "rolled last" in text and "to play" not in text.split("\n")[1]
        assert "rolled last" in svg and "to play" not in svg
        roll = shows.pick(notation.read_path(ROOT / "examples" / "club-night.mat"), 1, 3)
        assert "to play" in shows.as_svg(roll) and "rolled last" not in shows.as_svg(roll)
    finally:
        set_language(None)


def test_json_report_doc_lists_every_notation_and_variant_written():
    doc = (ROOT / "docs" / "json-report.md").read_text()
    row = next(ln for ln in doc.splitlines() if ln.startswith("| `files[].notation`"))
    for name in notation.names() + ["unknown"]:
        assert f"`{name}`" in row, name
    row = next(ln for ln in doc.splitlines() if ln.startswith("| `files[].variant`"))
    from nardy_analyze.engine import VARIANTS
    for name in VARIANTS:
        assert f"`{name}`" in row, name
    assert "| `findings[].row` |" in doc and "## Numbering" in doc


def test_analyze_decisions_give_the_move_show_opens(excerpt):
    """``analyze --by decision``: each checker decision's ``game``/``move`` opens its position in show (its
    Position ID, the player deciding on roll); a cube decision has the move of the roll after it."""
    pytest.importorskip("bgsage", reason="analyze needs the analysis extra (pip install '.[analysis]')")
    import csv
    import io

    r = cli.subprocess("analyze", "--by", "decision", "--format", "csv", str(excerpt), **BARE)
    assert r.returncode in (0, 1), r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    match = notation.read_path(excerpt)
    assert sorted({int(x["game"]) for x in rows}) == [1, 2, 6]
    checked = 0
    for x in rows:
        if x["kind"] != "checker":
            continue
        snap = shows.pick(match, int(x["game"]), int(x["move"]))
        assert position_id(*snap.pos) == x["position_id"] and int(x["line"]) == snap.line, x
        checked += 1
    assert checked > 40
    doubles = [x for x in rows if x["kind"] == "double" and x["play"] == "double"]
    for x in doubles:                       # the double before a roll: that roll's move, the same board
        if x["move"]:
            assert position_id(*shows.pick(match, int(x["game"]), int(x["move"])).pos) == x["position_id"], x

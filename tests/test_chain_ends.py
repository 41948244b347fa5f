"""Gul bara: every way a doubles chain can end, on generated games written as ``.ngn`` text.

A part the record leaves out is a finding only when its player could play some of its numbers; a chain
double nobody can play may be left out, but then the handover of its four numbers is owed and is found
missing where the turn stops (docs/rules.md, "Gul bara").  The property test deletes any one chain or
handover line of a generated game (the generator writes only parts with steps) and asks for the first
finding at the line where the turn then stops.
"""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from nardy_analyze import analyze
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import get as notation, read_text


def ngn(seed: int, games: int = 1, players=("Aysel", "Rashad")) -> str:
    m = generate_match("gulbara", games, seed, players)
    m.tags = {"White": players[0], "Black": players[1], **m.tags}
    return notation("ngn").write(m)


def findings(text: str):
    rep = analyze.validate_match(read_text(text, "x.ngn", "ngn"))
    return sorted(rep.findings, key=lambda f: (f.line, f.column))


def part_lines(text: str) -> list[int]:
    """1-based numbers of the chain and handover lines."""
    return [i for i, ln in enumerate(text.splitlines(), 1) if ln.lstrip().startswith(("chain ", "handover "))]


def without(text: str, line: int) -> str:
    lines = text.splitlines(keepends=True)
    del lines[line - 1]
    return "".join(lines)


def replace(text: str, line: int, new: str) -> str:
    lines = text.splitlines(keepends=True)
    lines[line - 1] = new + "\n"
    return "".join(lines)


def test_generated_games_are_clean():
    for seed in range(5, 10):
        assert findings(ngn(seed)) == []


def test_the_6_6_handover_left_out_after_a_chain_double_nobody_wrote():
    text = ngn(5)
    lines = text.splitlines()
    assert lines[17] == "   handover B 6666: 14/8 8/2"      # Aysel cannot play 6s; Rashad can
    assert "chain 66" not in text.split("3...")[0].split("3. ")[1]
    fs = findings(without(text, 18))
    assert [(f.line, f.rule) for f in fs] == [(17, "handover")]     # where the chain stops, nothing later
    msg = fs[0].message
    assert "6-6-6-6" in msg and "of the chain's 6-6" in msg and "Rashad can play 2" in msg
    assert "14/8 8/2" in msg and "the turn stops here" in msg
    assert "the replay goes on as if 14/8 8/2 had been played" in msg


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_any_chain_or_handover_line_deleted_is_found_where_the_turn_stops(seed, pick):
    text = ngn(seed)
    cands = part_lines(text)
    if not cands:
        return
    line = cands[pick % len(cands)]
    fs = findings(without(text, line))
    assert fs, f"line {line} deleted, no finding"
    first = fs[0]
    assert first.line == line - 1, (line, [(f.line, f.rule, f.message) for f in fs[:3]])
    assert first.rule in ("doubles-chain", "handover"), first.message


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_any_chain_or_handover_line_emptied_is_found_on_its_line(seed, pick):
    text = ngn(seed)
    cands = part_lines(text)
    if not cands:
        return
    line = cands[pick % len(cands)]
    head = text.splitlines()[line - 1].split(":")[0]
    fs = findings(replace(text, line, head + ":"))     # "   chain 55:" / "   handover B 444:" with no steps
    assert fs and fs[0].line == line, (line, [(f.line, f.rule, f.message) for f in fs[:3]])
    assert fs[0].rule == "max-dice" and "played nothing" in fs[0].message


def test_a_handover_with_fewer_numbers_than_owed():
    text = ngn(5)
    fs = findings(replace(text, 18, "   handover B 66: 14/8 8/2"))
    assert [(f.line, f.rule) for f in fs] == [(18, "handover")]
    assert "6-6-6-6" in fs[0].message


def test_a_chain_double_left_out_when_the_roller_could_play_it():
    text = ngn(5)
    assert text.splitlines()[14] == "   chain 44: 10/6"
    fs = findings(without(text, 15))       # the 4-4 part: then "handover B 444" follows
    assert fs[0].line == 14 and fs[0].rule == "doubles-chain", fs[0].message
    assert "4-4" in fs[0].message and "10/6" in fs[0].message
    # one slip, one finding: the handover of the numbers left is not reported again, the replay goes on
    assert [f.line for f in fs] == [14]


def test_the_game_ending_inside_a_chain():
    """The side that bears off its last checker in a chain or a handover wins there; the rest of the
    chain is not owed, and a part written after it is a finding."""
    for seed in range(200):
        m = generate_match("gulbara", 1, seed, ("A", "B"))
        g = m.games[0]
        last = [a for a in g.actions if a.kind.value == "roll"][-1]
        if last.segments:
            break
    else:
        raise AssertionError("no generated game ends inside a chain")
    m.tags = {"White": "A", "Black": "B", **m.tags}
    text = notation("ngn").write(m)
    assert findings(text) == []
    lines = text.splitlines()
    end = max(i for i, ln in enumerate(lines, 1) if ln.lstrip().startswith(("chain ", "handover ")))
    # the part in which the last checker comes off, left out: found on the line before it
    fs = findings(without(text, end))
    assert fs[0].line == end - 1 and fs[0].rule in ("doubles-chain", "handover"), fs[0].message
    # a chain double written after the game is over
    fs = findings(text.replace(lines[end - 1] + "\n", lines[end - 1] + "\n   chain 66: 24/18\n", 1))
    assert fs[0].line == end + 1 and fs[0].rule == "doubles-chain" and "game is over" in fs[0].message


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000))
def test_any_handover_written_with_a_number_fewer_is_found_on_its_line(seed, pick):
    text = ngn(seed)
    lines = text.splitlines()
    cands = [n for n in part_lines(text) if lines[n - 1].lstrip().startswith("handover")
             and len(lines[n - 1].split(":")[0].split()[-1]) > 1]
    if not cands:
        return
    line = cands[pick % len(cands)]
    head, rest = lines[line - 1].split(":", 1)
    words = head.split(" ")
    words[-1] = words[-1][1:]                  # "handover B 444" -> "handover B 44"
    fs = findings(replace(text, line, " ".join(words) + ":" + rest))
    assert fs and (fs[0].line, fs[0].rule) == (line, "handover"), [(f.line, f.rule, f.message) for f in fs[:3]]
    assert "the numbers" in fs[0].message and "left unused are" in fs[0].message

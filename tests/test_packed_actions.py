"""The compiled .mat reader's packed actions (``notation/_matrows.c``: PackedActions, ``nardy_analyze/_packed.h``).

A game the compiled reader reads whole (``mat.MAT_GAME``) keeps its actions as the cells were read, and makes
each into its Action the first time it is asked for:

* to Python they are the list of Actions the reader makes otherwise (``mat.PACKED`` False): equal item for item,
  compared, pickled and copied as a list, indexed and sliced as one, each item made once and kept; a change
  asked for (``append``, ``insert``, item assignment, ``+=``...) makes them all, and the object a list from then on;
* the compiled parts that walk a game's actions (the replay's batch ``quick_rolls``, the SGF writer's
  ``sgf_rolls``, ``kinds_in``, ``any_set``) read an action not made yet from its cell and a made one from its
  object: an Action changed in place is read as changed, by every command;
* reading, replaying and converting a record makes few of them (what the replay's Python code looks at).

Skipped (with the reason) where the compiled reader or core is not in use: the Python reader then makes lists.
"""
from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings, strategies as st

from nardy_analyze.analyze import validate_match
from nardy_analyze.convert import convert_match
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import any_set, mat, normalise_text
from nardy_analyze.notation.sgf import kinds_in
from nardy_analyze.record import Kind, Step

from helpers import CORPUS, ROOT

pytestmark = pytest.mark.skipif(not mat.PACKED, reason="the compiled .mat reader and core are not in use (not "
                                "built, or NARDY_ANALYZE_PURE is set): games are read into lists")


def _read(text: str, path: str, packed: bool):
    saved = mat.PACKED
    try:
        mat.PACKED = packed
        return mat._Reader(normalise_text(text), path).run()
    finally:
        mat.PACKED = saved


def _generated_texts() -> list[tuple[str, str]]:
    """Generated backgammon matches written as .mat (money games and matches, with the cube)."""
    out = []
    for seed in (3, 5, 8):
        m = generate_match("backgammon", 6, seed=seed)
        outcome, text = convert_match(m, "mat", lossy=True)
        assert text is not None, outcome.messages
        out.append((f"generated-{seed}.mat", text))
    return out


def _texts() -> list[tuple[str, str]]:
    files = sorted((ROOT / "examples").glob("*.mat")) + sorted((ROOT / "tests" / "fixtures").rglob("*.mat"))
    if CORPUS.is_dir():
        files += sorted((CORPUS / "gnubg-selfplay").glob("*.mat"))[::16]
        files += sorted((CORPUS / "bglab").rglob("*.txt"))[::40]
    return [(str(f), mat.decode(f.read_bytes())) for f in files] + _generated_texts()


_TEXTS: list = []


def _all_texts():
    if not _TEXTS:
        _TEXTS.extend(_texts())
    return _TEXTS


def _packed_games(match):
    return [g for g in match.games if type(g.actions).__name__ == "PackedActions"]


def test_packed_games_are_the_lists_the_reader_makes_otherwise():
    games = packed = 0
    for path, text in _all_texts():
        fast, slow = _read(text, path, True), _read(text, path, False)
        assert fast == slow and slow == fast, path
        for g, h in zip(fast.games, slow.games):
            games += 1
            assert type(h.actions) is list
            if type(g.actions) is list:
                continue
            packed += 1
            acts = g.actions
            assert acts == h.actions and h.actions == acts and not acts != h.actions, path
            assert len(acts) == len(h.actions) and bool(acts) == bool(h.actions)
            assert list(acts) == h.actions and list(reversed(acts)) == h.actions[::-1]
            assert repr(acts) == repr(h.actions)
    assert games >= 20 and packed >= 0.9 * games, (packed, games)


def test_reading_replaying_and_converting_makes_few_actions():
    made = total = 0
    for path, text in _all_texts():
        m = _read(text, path, True)
        games = _packed_games(m)
        # read: only the results after each game's last roll are looked at
        assert all(g.actions.made_count() <= 4 for g in games), path
        validate_match(m)
        convert_match(m, "sgf")
        made += sum(g.actions.made_count() for g in games)
        total += sum(len(g.actions) for g in games)
    assert total > 1000 and made < 0.25 * total, (made, total)


def _one_game():
    for path, text in _all_texts():
        m = _read(text, path, True)
        for g in _packed_games(m):
            if len(g.actions) >= 12:
                return m, g, _read(text, path, False).games[m.games.index(g)]
    raise AssertionError("no game of 12 actions or more")


@settings(max_examples=200, deadline=None)
@given(st.integers(-40, 40), st.one_of(st.none(), st.integers(-40, 40)), st.one_of(st.none(), st.integers(-40, 40)),
       st.sampled_from([None, 1, 2, 3, -1, -2]))
def test_indexing_and_slicing_are_a_list_s(i, start, stop, step):
    _m, g, h = _one_game()
    acts, listed = g.actions, h.actions
    try:
        want = listed[i]
    except IndexError:
        with pytest.raises(IndexError):
            acts[i]
    else:
        assert acts[i] == want and acts[i] is acts[i]
    assert acts[start:stop:step] == listed[start:stop:step]
    assert all(x is y for x, y in zip(acts[start:stop:step], [acts[k] for k in range(len(acts))][start:stop:step]))


def test_a_packed_sequence_is_compared_copied_and_pickled_as_a_list():
    _m, g, h = _one_game()
    acts = g.actions
    assert acts[2] in acts and h.actions[2] in acts
    assert acts + [None] == h.actions + [None] and [None] + acts == [None] + h.actions
    for other in (pickle.loads(pickle.dumps(acts)), copy.copy(acts), copy.deepcopy(acts)):
        assert type(other) is list and other == h.actions
    with pytest.raises(TypeError):
        hash(acts)
    with pytest.raises(TypeError):
        acts["x"]
    assert acts.index(acts[5]) == 5 and acts.count(acts[5]) == 1


def _changed(seq):
    """``seq`` changed as a list is: items added, inserted, deleted, set and appended with ``+=``."""
    first, fifth = seq[0], seq[5]
    seq.append(first)
    seq.insert(1, fifth)
    del seq[2]
    seq[3] = fifth
    seq += [first]
    return seq


def test_a_change_makes_the_actions_a_list_of_the_same_objects():
    _m, g, h = _one_game()
    acts = g.actions
    first = acts[0]
    changed = _changed(acts)
    assert changed is acts and g.actions is acts      # (the same object, a list from then on)
    assert acts == _changed(list(h.actions))
    assert acts[0] is first and acts.made_count() == len(acts)


# -- actions changed in place: read as changed by the compiled parts ---------------------------------------------

def _change(match, rng: random.Random, rate: float) -> None:
    """Some of the match's actions changed in place: plays dropped, reordered, moved by a point, marked as hits,
    written as nothing; a player or the dice changed; a roll made a double's answer."""
    for g in match.games:
        for k in range(len(g.actions)):
            if rng.random() > rate:
                continue
            a = g.actions[k]
            how = rng.randrange(7)
            if a.kind is Kind.ROLL and a.steps and how < 4:
                steps = list(a.steps)
                if how == 0:
                    steps.pop(rng.randrange(len(steps)))
                elif how == 1:
                    rng.shuffle(steps)
                elif how == 2:
                    j = rng.randrange(len(steps))
                    steps[j] = Step(steps[j].src, max(0, min(24, steps[j].dst + rng.choice((-1, 1)))), True)
                else:
                    steps = []
                a.steps = steps
            elif how == 4:
                a.player = 1 - a.player
            elif how == 5 and a.kind is Kind.ROLL:
                a.dice = (rng.randint(1, 6), rng.randint(1, 6))
            elif how == 6 and a.kind is Kind.ROLL:
                a.kind = Kind.TAKE


def _outputs(m):
    r = validate_match(m)
    findings = [f.as_dict() for f in r.findings]
    games = [(g.turns, g.winner, g.points, g.how) for g in r.games]
    text = convert_match(m, "sgf", lossy=True)[1]
    kinds = [(kinds_in(g.actions, tuple(Kind)), any_set(g.actions, "steps"), any_set(g.actions, "cannot_move"))
             for g in m.games]
    return findings, games, text, kinds


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32), rate=st.sampled_from([0.0, 0.02, 0.1, 0.3]))
def test_actions_changed_in_place_are_read_as_changed(seed, rate):
    texts = _all_texts()
    path, text = texts[seed % len(texts)]
    fast, slow = _read(text, path, True), _read(text, path, False)
    _change(fast, random.Random(seed), rate)
    _change(slow, random.Random(seed), rate)
    assert fast == slow
    assert _outputs(fast) == _outputs(slow), path


def test_kind_indexes_are_the_list_s():
    for path, text in _all_texts()[:12]:
        for g in _packed_games(_read(text, path, True)):
            acts = g.actions
            acts[len(acts) // 2].kind = Kind.DROP            # (a made one, changed: read from its object)
            for kind in Kind:
                assert acts.kind_indexes(kind) == [i for i, a in enumerate(list(acts)) if a.kind is kind]


def test_the_compiled_parts_take_lists_and_packed_actions_only():
    from nardy_analyze.notation import _matrows
    _m, g, _h = _one_game()
    with pytest.raises(TypeError):
        _matrows.kinds_in(tuple(g.actions), (Kind.ROLL,))
    with pytest.raises(TypeError):
        _matrows.any_set(tuple(g.actions), "steps")
    assert _matrows.kinds_in(g.actions, (Kind.ROLL, Kind.SETUP)) == 1

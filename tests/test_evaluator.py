"""The long-game evaluator: the position id, the net's inputs, the play of games, hint and the 1-ply value."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from helpers import ROOT, load_script
from nardy_analyze.engine import get_variant
from nardy_analyze.evaluator import posid
from nardy_analyze.evaluator.analysis import hint, position_value
from nardy_analyze.evaluator.net import N_IN, Net, consistent, equity, features, flip
from nardy_analyze.evaluator.play import heuristic_chooser, play_game, random_chooser
from nardy_analyze.evaluator.posid import NardyPosition, PositionIdError
from nardy_analyze.generate import generate_match
from nardy_analyze.replay import replay
from nardy_analyze.replay.visitor import Events, ReplayVisitor

LONG_GAMES = ("long", "gulbara")


class _Turns(ReplayVisitor):
    wants = Events.TURNS

    def __init__(self) -> None:
        self.rows = []

    def turn(self, row) -> None:
        self.rows.append(row)


def _rows(variant: str, seed: int, games: int = 1):
    v = get_variant(variant)
    col = _Turns()
    replay(generate_match(variant, games, seed), v, visitor=col)
    return col.rows


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(LONG_GAMES))
def test_the_position_id_round_trips_for_every_generated_position(seed, variant):
    rows = _rows(variant, seed)
    assert rows
    for n, row in enumerate(rows):
        for mover, opp in (row.before, row.after):
            pos = NardyPosition(variant, mover, opp, row.side, min(n, 255))
            text = posid.encode(pos)
            assert text.startswith(("LN-", "GB-")) and len(text) == 19
            assert posid.decode(text) == pos


def test_the_position_id_of_the_start():
    v = get_variant("long").rules
    me, opp = v.initial()
    pos = NardyPosition("long", me, opp, 0, 0)
    text = posid.encode(pos)
    back = posid.decode(text)
    assert back.mover[23] == 15 and back.opponent[23] == 15 and back.mover_first_turn and back.opponent_first_turn
    assert posid.decode(posid.encode(NardyPosition("gulbara", me, opp, 1, 7))).player == 1


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_a_bad_position_id_is_refused_with_a_reason(text):
    try:
        pos = posid.decode(text)
    except PositionIdError as e:
        assert str(e)
    else:
        assert posid.decode(posid.encode(pos)) == pos


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=12, max_size=12), st.sampled_from(("LN-", "GB-")))
def test_any_twelve_bytes_decode_to_a_valid_position_or_a_reason(key, prefix):
    import base64
    text = prefix + base64.urlsafe_b64encode(key).decode()
    try:
        pos = posid.decode(text)
    except PositionIdError:
        return
    assert posid.encode(pos) == text


def test_a_point_held_by_both_sides_is_refused():
    me = [0] * 25
    opp = [0] * 25
    me[12] = 1                       # the mover's point 13 is the opponent's point 1
    opp[0] = 1
    with pytest.raises(PositionIdError):
        posid.encode(NardyPosition("long", tuple(me), tuple(opp)))


def _side(points: dict[int, int]) -> tuple[int, ...]:
    s = [0] * 25
    for p, n in points.items():
        s[p - 1] = n
    return tuple(s)


def test_the_block_inputs_follow_the_opponents_route():
    # the mover holds its points 3..1 and 24..22: six in a row along the opponent's route (their 15..10)
    me = _side({3: 2, 2: 2, 1: 2, 24: 3, 23: 3, 22: 3})
    opp = _side({24: 10, 5: 5})          # 10 on their head (behind the block), 5 past it
    x = features(np.array([me[:24]]), np.array([opp[:24]]), False)[0]
    from nardy_analyze.evaluator.net import PER_SIDE
    assert x.shape == (N_IN,)
    assert x[102] == pytest.approx(1.0) and x[103] == 1.0        # a run of six
    assert x[104] == pytest.approx(10 / 15)                      # the ten on the head are behind it
    assert x[96] == pytest.approx(0.0) and x[PER_SIDE + 96] == pytest.approx(0.0)


def test_flip_and_equity():
    p = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]])
    assert np.allclose(flip(flip(p)), p)
    assert equity(p, False)[0] == pytest.approx(0.2 + 0.2 - 0.1)
    assert equity(p, True)[0] == pytest.approx(0.2 + 0.2 - 0.1 + 0.04)
    assert equity(flip(p), True)[0] == pytest.approx(-equity(p, True)[0])
    q = consistent(np.array([[0.3, 0.5, 0.9, 0.9, 0.95]]))
    assert q[0, 1] <= q[0, 0] and q[0, 2] <= q[0, 1] and q[0, 3] <= 1 - q[0, 0] and q[0, 4] <= q[0, 3]


@pytest.fixture(scope="module")
def net():
    return Net.new(16, np.random.default_rng(0))


@pytest.mark.parametrize("variant", LONG_GAMES)
def test_a_game_between_players_ends_by_the_rules(variant):
    rules = get_variant(variant).rules
    res = play_game(rules, (heuristic_chooser(), random_chooser(random.Random(1))), random.Random(2), keep=True)
    assert res.winner in (0, 1) and res.level in (1, 2)
    assert res.positions and all(sum(m) <= 15 and sum(o) <= 15 for _p, m, o, _f in res.positions)
    again = play_game(rules, (heuristic_chooser(), random_chooser(random.Random(1))), random.Random(2), keep=True)
    assert again.positions == res.positions                       # seeded: the same game


@pytest.mark.parametrize("koks", [False, True])
def test_a_position_every_roll_wins_has_exactly_its_value(net, koks):
    # (Gul bara bears off with the exact number only: no position there is won by every roll)
    variant = "long"
    rules = get_variant(variant, {"koks": koks}).rules
    me = _side({1: 1})
    opp = _side({14: 3, 2: 12})          # none off; three in the mover's home (their 14 is the mover's 2)
    eq, p = position_value(rules, NardyPosition(variant, me, opp, 0, 40), net)
    assert eq == (3.0 if koks else 2.0)
    gb = get_variant("gulbara", {"koks": koks}).rules
    gb_eq, _p = position_value(gb, NardyPosition("gulbara", me, opp, 0, 40), net)
    assert gb_eq < eq                     # only a 1 bears the last checker off from point 1
    assert list(p) == [1.0, 1.0, float(koks), 0.0, 0.0]
    opp_off = _side({14: 3, 2: 11})      # one off: an oin
    assert position_value(rules, NardyPosition(variant, me, opp_off, 0, 40), net)[0] == 1.0


def _every_roll_bears_off(rules, pos) -> bool:
    from nardy_analyze.engine import borne_off
    for a in range(1, 7):
        for b in range(1, a + 1):
            plays = hint(rules, pos, a, b, Net.new(4, np.random.default_rng(0)))
            if not any(borne_off(p.after[0]) == 15 for p in plays):
                return False
    return True


# the mover's last checkers that every roll bears off (long nardy: a die may bear off from a lower point)
_WON = ({1: 1}, {1: 2}, {2: 1}, {3: 1}, {1: 1, 2: 1})
# the opponent anywhere but their points 13..15 (the mover's 1..3), at most 15 checkers
_opponent_points = st.dictionaries(st.sampled_from([p for p in range(1, 25) if not 13 <= p <= 15]),
                                   st.integers(1, 5), min_size=1, max_size=6).map(
    lambda d: dict(list(d.items())[:3]) if sum(d.values()) > 15 else d)


@settings(max_examples=25, deadline=None)
@given(mine=st.sampled_from(_WON), theirs=_opponent_points, koks=st.booleans())
def test_the_equity_of_a_position_every_roll_wins_is_exactly_its_value(net, mine, theirs, koks):
    """Whatever the net: where every roll bears the mover's last checkers off, the position's value before
    the roll is the result's points exactly (oin, mars, koks as the rules count them), and so is every
    roll's best play."""
    rules = get_variant("long", {"koks": koks}).rules
    me, opp = _side(mine), _side(theirs)
    posid.check_sides(me, opp)
    pos = NardyPosition("long", me, opp, 0, 40)
    assert _every_roll_bears_off(rules, pos)
    value = float(rules.stake(rules.win_level(_side({}), opp), 1, False, None))
    eq, p = position_value(rules, pos, net)
    assert eq == value
    assert list(p) == [1.0, float(value >= 2), float(value >= 3), 0.0, 0.0]
    assert all(hint(rules, pos, a, b, net)[0].equity == value for a in range(1, 7) for b in range(1, a + 1))


def test_hint_ranks_every_legal_play_best_first(net):
    rules = get_variant("long").rules
    me, opp = rules.initial()
    plays = hint(rules, NardyPosition("long", me, opp, 0, 0), 6, 5, net)
    assert len(plays) == 1 and plays[0].after[0][12] == 1        # one checker from the head: 24/13
    eqs = [p.equity for p in plays]
    assert eqs == sorted(eqs, reverse=True)
    assert all(-3 <= e <= 3 for e in eqs)
    # first-turn 6-6: two checkers may leave the head
    plays = hint(rules, NardyPosition("long", me, opp, 0, 0), 6, 6, net)
    assert {p.after[0][23] for p in plays} == {13}


# -- hint: the command and the bot protocol ------------------------------------------------------------------

START_ID = "LN-AAAAAID_PwAAwP8f"


def _env():
    return {**os.environ, "PYTHONPATH": str(ROOT), "LANGUAGE": "en", "LC_ALL": "C.UTF-8"}


def test_the_bot_protocol_answers_line_by_line_from_another_process():
    proc = subprocess.Popen([sys.executable, "-m", "nardy_analyze", "hint", "--jsonl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT)
    try:
        def ask(obj) -> dict:
            proc.stdin.write((obj if isinstance(obj, str) else json.dumps(obj)) + "\n")
            proc.stdin.flush()
            return json.loads(proc.stdout.readline())

        first = ask({"id": START_ID, "dice": [6, 5], "tag": "a"})
        assert first["ok"] and first["tag"] == "a" and first["id"] == START_ID
        assert [p["play"] for p in first["plays"]] == ["24/18 18/13"]
        # the process is still there: play the game on from the answer, as a bot would
        rules = get_variant("long").rules
        me, opp = rules.initial()
        plays = hint(rules, NardyPosition("long", me, opp, 0, 0), 6, 5, _shipped("long"))
        after = plays[0].after
        nxt = ask({"variant": "long", "mover": list(after[1][:24]), "opponent": list(after[0][:24]), "rolls": 1,
                   "player": 1, "dice": "66"})
        assert nxt["ok"] and len(nxt["plays"]) >= 1
        assert {json.dumps(p["play"]) for p in nxt["plays"]} == {
            json.dumps(p.play) for p in hint(rules, NardyPosition("long", after[1], after[0], 1, 1), 6, 6,
                                              _shipped("long"))}
        bad = ask("not json")
        assert bad["ok"] is False and bad["line"] == 3 and bad["error"]
        gb = ask({"id": "GB-AQEAAID_PwAAwP8f"})
        assert gb["ok"] and -3 <= gb["equity"] <= 3 and 0 <= gb["win"] <= 1
        assert proc.poll() is None
    finally:
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0


def _shipped(variant):
    from nardy_analyze.evaluator.analysis import load_net
    return load_net(get_variant(variant).rules)


@pytest.mark.parametrize("variant", LONG_GAMES)
def test_hint_on_a_generated_record_ranks_the_legal_plays_of_its_roll(tmp_path, variant):
    from nardy_analyze.notation import get as notation
    match = generate_match(variant, 1, 11)
    path = tmp_path / "g.ngn"
    path.write_text(notation("ngn").write(match))
    rows = _rows(variant, 11)
    row = rows[4]
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "hint", str(path), "--move", "5", "--as-json"],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    ans = json.loads(out.stdout)
    pos = posid.decode(ans["id"])
    assert (pos.mover, pos.opponent) == row.before and pos.rolls == 4
    assert tuple(ans["dice"]) == row.dice
    eqs = [p["equity"] for p in ans["plays"]]
    assert eqs == sorted(eqs, reverse=True)


def test_hint_refuses_bad_input_with_a_message_and_exit_2():
    for args in (["--id", "LN-nonsense"], ["--id", START_ID, "-d", "7-1"], ["--json", "{"], [],
                 ["examples/club-night.mat", "--variant", "long", "--move", "3"]):
        out = subprocess.run([sys.executable, "-m", "nardy_analyze", "hint", *args], capture_output=True,
                             text=True, env=_env(), cwd=ROOT, timeout=60)
        assert out.returncode == 2 and out.stderr.startswith("nardy-analyze: ") and "Traceback" not in out.stderr


# -- analyze: long nardy and Gul bara records ------------------------------------------------------------------

def _apply_written(rules, me, opp, play: str):
    for step in ([] if play == "(no move)" else play.split()):
        src, dst = step.split("/")
        me, opp, _hit = rules.apply(me, opp, int(src), 0 if dst == "off" else int(dst))
    return me, opp


@pytest.mark.parametrize("variant", LONG_GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_analysis_of_a_generated_game_replays_its_own_positions(variant, seed):
    """Every decision row of a generated game, roll and (Gul bara) chain and handover parts, is played from
    the position the game had there: each row's position id is where the previous row's play left the game
    (no drift), and the roll rows are the replay's own turns; a forced play and the best play lose nothing."""
    from nardy_analyze.stats.skill import DECISION_COLUMNS, analyse_match
    rules = get_variant(variant).rules
    match = generate_match(variant, 1, seed)
    res = analyse_match(match, variant)
    assert not res.problems and not res.notes
    rows = [dict(zip(DECISION_COLUMNS, r)) for r in res.rows]
    turns = [t for t in _rows(variant, seed) if t.dice is not None]
    rolls = [r for r in rows if r["part"] == "roll"]
    assert len(rolls) == len(turns) > 10
    for n, (r, t) in enumerate(zip(rolls, turns)):
        pos = posid.decode(r["position_id"])
        assert (pos.mover, pos.opponent) == t.before and pos.rolls == n and pos.player == t.side == r["side"]
        assert r["dice"] == f"{max(t.dice)}{min(t.dice)}"
    sides = None                       # the game's position (side 0, side 1) after the last row's play
    for r in rows:
        pos = posid.decode(r["position_id"])
        s = r["side"]
        if sides is not None:
            assert (pos.mover, pos.opponent) == (sides[s], sides[1 - s]), r       # no drift
        me, opp = _apply_written(rules, pos.mover, pos.opponent, r["play"])
        sides = (me, opp) if s == 0 else (opp, me)
        assert r["equity_played"] == r["equity_played"]                       # the play made is a legal play
        assert r["error"] >= 0 and r["equity_best"] >= r["equity_played"] and r["moves"] >= 1
        if r["forced"]:
            assert r["error"] == 0 and not r["counted"] and r["moves"] == 1   # a forced play has no error
        if r["play"] == r["best"]:
            assert r["error"] == 0                                            # the best play has no error
        if r["part"] != "roll":
            assert variant == "gulbara" and r["luck"] == 0
            assert r["part"] != "chain" or len(r["dice"]) == 4 and len(set(r["dice"])) == 1
    assert len(res.results) == 2 and {abs(g[5]) for g in res.results} <= {1.0, 2.0}
    assert sum(g[5] for g in res.results) == 0


def test_the_parts_of_a_gul_bara_turn_are_graded_each_by_its_player():
    """Chains and handovers: a row each, played by the roller (chain) or the roller's opponent (handover),
    with the numbers of the part and the steps the record wrote for it."""
    from nardy_analyze.stats.skill import DECISION_COLUMNS, analyse_match
    match = generate_match("gulbara", 1, 21)
    rows = [dict(zip(DECISION_COLUMNS, r)) for r in analyse_match(match, "gulbara").rows]
    written = [(seg.kind, seg.player, "".join(map(str, sorted(seg.dice, reverse=True))),
                " ".join(f"{st.src}/{'off' if st.dst == 0 else st.dst}" for st in seg.steps))
               for game in match.games for a in game.actions for seg in a.segments if seg.steps]
    parts = [(r["part"], r["side"], r["dice"], r["play"]) for r in rows if r["part"] != "roll"]
    assert {"chain", "handover"} <= {p[0] for p in parts}
    assert parts == written
    roller = {}
    for r in rows:
        if r["part"] == "roll":
            roller = r
        else:
            assert r["move"] == roller["move"] and r["turn"] == roller["turn"]
            assert (r["side"] == roller["side"]) == (r["part"] == "chain")
    # the parts count as checker decisions; the luck rate stays per roll
    from nardy_analyze.stats.skill import decision_frame, summary
    by_player = summary(decision_frame(analyse_match(match, "gulbara").rows), "player")
    for _i, p in by_player.iterrows():
        mine = [r for r in rows if r["player"] == p["player"]]
        rolls = [r for r in mine if r["part"] == "roll"]
        assert p["checker_decisions"] == len(mine) > len(rolls)
        assert p["luck_rate"] == pytest.approx(1000 * sum(r["luck"] for r in rolls) / len(rolls))


def test_analyze_summarises_a_long_game_with_the_backgammon_columns(tmp_path):
    from nardy_analyze.notation import get as notation
    path = tmp_path / "g.ngn"
    path.write_text(notation("ngn").write(generate_match("long", 1, 4)))
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "analyze", str(path), "--format", "json"],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    rows = data if isinstance(data, list) else data.get("rows", data)
    assert len(rows) == 2
    for r in rows:
        assert r["unforced"] > 0 and r["error_rate"] >= 0 and r["pr"] >= 0


def test_hint_on_a_backgammon_record_goes_through_the_analysis_engine():
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "hint", "examples/club-night.mat", "--game", "1",
                          "--move", "3", "--as-json"], capture_output=True, text=True, env=_env(), cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    ans = json.loads(out.stdout)
    assert ans["variant"] == "backgammon" and ans["dice"] == [2, 1] and len(ans["plays"]) == 9
    assert all(p["play"] != "(no move)" and "win_gammon" in p for p in ans["plays"])


def test_training_in_chunks_gives_the_same_weights_as_at_once(tmp_path):
    train = load_script("scripts/train_evaluator.py")
    common = ["--variant", "long", "--seed", "3", "--every", "2", "--bench-games", "2", "--hidden", "8"]
    train.main([*common, "--games", "4", "--out", str(tmp_path / "once")])
    train.main([*common, "--games", "2", "--out", str(tmp_path / "chunks")])
    train.main([*common, "--games", "4", "--out", str(tmp_path / "chunks"), "--resume",
                str(tmp_path / "chunks" / "ckpt.npz")])
    once, chunks = Net.load(tmp_path / "once" / "ckpt.npz"), Net.load(tmp_path / "chunks" / "ckpt.npz")
    assert all(np.array_equal(a, b) for a, b in zip(once.params(), chunks.params()))
    assert not np.array_equal(once.w1, Net.load(tmp_path / "once" / "net-0000002.npz").w1.astype(np.float64))
    log = [json.loads(line) for line in (tmp_path / "chunks" / "log.jsonl").read_text().splitlines()]
    assert [r["games"] for r in log] == [2, 4] and all(0 <= r["vs_heuristic"]["win_rate"] <= 1 for r in log)



def test_fine_tuning_from_a_net_is_deterministic_resumable_and_named_when_shipped(tmp_path, monkeypatch):
    train = load_script("scripts/train_evaluator.py")
    monkeypatch.setattr(train, "ROOT", tmp_path)      # --ship writes below ROOT: the real weights stay
    common = ["--variant", "long", "--seed", "3", "--every", "2", "--bench-games", "2", "--hidden", "8"]
    train.main([*common, "--games", "2", "--out", str(tmp_path / "base")])
    start = tmp_path / "base" / "net-0000002.npz"                      # float32 weights
    tune = ["--variant", "long", "--seed", "3", "--every", "2", "--bench-games", "2", "--init", str(start),
            "--lr", "0.0005", "--lam", "0.5"]
    train.main([*tune, "--games", "6", "--out", str(tmp_path / "once")])
    train.main([*tune, "--games", "4", "--out", str(tmp_path / "chunks")])
    # resumed without --lr and --lam: the checkpoint's, not the defaults
    train.main(["--variant", "long", "--seed", "3", "--every", "2", "--bench-games", "2", "--games", "6",
                "--out", str(tmp_path / "chunks"), "--resume", str(tmp_path / "chunks" / "ckpt.npz")])
    once, chunks = Net.load(tmp_path / "once" / "ckpt.npz"), Net.load(tmp_path / "chunks" / "ckpt.npz")
    assert all(np.array_equal(a, b) for a, b in zip(once.params(), chunks.params()))
    assert chunks.meta["lr"] == "0.0005" and chunks.meta["lam"] == "0.5"
    assert chunks.meta["games"] == "6" and chunks.meta["init_games"] == "2"
    assert not np.array_equal(once.w1, Net.load(start).w1)
    # the counting goes on from the starting net's games: no net-0000000, the log from game 4
    assert not (tmp_path / "once" / "net-0000000.npz").exists()
    log = [json.loads(line) for line in (tmp_path / "chunks" / "log.jsonl").read_text().splitlines()]
    assert [r["games"] for r in log] == [4, 6]
    train.main(["--variant", "long", "--every", "2", "--games", "6", "--out", str(tmp_path / "chunks"), "--resume",
                str(tmp_path / "chunks" / "ckpt.npz"), "--ship"])
    shipped = Net.load(tmp_path / "nardy_analyze" / "evaluator" / "weights" / "long.npz")
    assert shipped.meta["games"] == "6" and "adam_t" not in shipped.meta
    first, second = shipped.meta["command"].split(" && ")
    assert first.startswith("scripts/train_evaluator.py --variant long --games 2 --seed 3 --hidden 8")
    assert f"--games 6 --seed 3 --init {start} --lam 0.5 --lr 0.0005" in second and "--out chunks" in second
    assert np.allclose(shipped.w1, chunks.w1, atol=1e-6)


def _trainer():
    return load_script("scripts/train_evaluator.py")


def test_expected_targets_of_a_position_every_roll_wins_are_the_result(net):
    from nardy_analyze.evaluator.play import net_chooser
    train = _trainer()
    rules = get_variant("long").rules
    me, opp = _side({1: 1}), _side({14: 3, 2: 12})        # none off, three in the mover's home: koks
    play = net_chooser(net, koks=False)
    for koks, want in ((True, [1, 1, 1, 0, 0]), (False, [1, 1, 0, 0, 0])):
        result_rules = get_variant("long", {"koks": koks}).rules
        y = train.expected_targets(net, rules, result_rules, [(0, rules.initial()[0], opp, True), (1, me, opp, False)],
                                   play)
        assert y.shape == (2, 5) and y[1] == pytest.approx(want, abs=1e-12)
        # the opponent's view of the same position: every roll loses
        y = train.expected_targets(net, rules, result_rules, [(0, rules.initial()[0], opp, True), (1, opp, me, False)],
                                   play)
        assert 0.0 <= y[1, 0] < 1.0


def test_expected_targets_average_the_best_play_of_each_of_the_21_rolls(net):
    """For long nardy (a turn is the roll's play) the expectation target's win chance is the 1-ply value's."""
    from nardy_analyze.evaluator.play import net_chooser
    train = _trainer()
    rules = get_variant("long").rules
    res = play_game(rules, (heuristic_chooser(), heuristic_chooser()), random.Random(5), keep=True)
    for t in (1, len(res.positions) // 2, len(res.positions) - 2):
        _pl, me, opp, first = res.positions[t]
        y = train.expected_targets(net, rules, rules, [res.positions[0]] + [(0, me, opp, first)] * t,
                                   net_chooser(net, koks=False))
        _eq, p = position_value(rules, NardyPosition("long", me, opp, 0, t if t < 2 else 40), net)
        assert y[t, 0] == pytest.approx(p[0], abs=1e-12), t


def test_training_with_expected_targets_is_deterministic_in_chunks(tmp_path):
    train = _trainer()
    common = ["--variant", "gulbara", "--seed", "5", "--every", "1", "--bench-games", "2", "--hidden", "8"]
    train.main([*common, "--games", "2", "--targets", "expect", "--out", str(tmp_path / "once")])
    train.main([*common, "--games", "1", "--targets", "expect", "--out", str(tmp_path / "chunks")])
    train.main([*common, "--games", "2", "--out", str(tmp_path / "chunks"), "--resume",
                str(tmp_path / "chunks" / "ckpt.npz")])                  # the checkpoint's targets
    once, chunks = Net.load(tmp_path / "once" / "ckpt.npz"), Net.load(tmp_path / "chunks" / "ckpt.npz")
    assert chunks.meta["targets"] == "expect"
    assert all(np.array_equal(a, b) for a, b in zip(once.params(), chunks.params()))
    lam = tmp_path / "lambda"
    train.main([*common, "--games", "2", "--out", str(lam)])
    assert not np.array_equal(Net.load(lam / "ckpt.npz").w1, once.w1)

_json = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=8),
                     lambda kids: st.lists(kids, max_size=25) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                     max_leaves=30)
_request = st.fixed_dictionaries({}, optional={
    "id": st.sampled_from([START_ID, "GB-AQEAAID_PwAAwP8f", "4HPwATDgc/ABMA", "LN-", ""]) | st.text(max_size=20),
    "variant": st.sampled_from(["long", "gulbara", "bg", "chess"]), "dice": _json,
    "mover": _json, "opponent": _json, "rolls": _json, "player": _json, "rules": _json, "tag": _json})


@settings(max_examples=40, deadline=None)
@given(st.lists(_request | _json, min_size=1, max_size=4))
def test_the_bot_protocol_answers_every_line_whatever_it_holds(requests):
    import io
    from nardy_analyze.commands.hint import serve
    lines = [json.dumps(r) for r in requests]
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    assert out.getvalue().isascii()
    answers = [json.loads(a) for a in out.getvalue().splitlines()]
    assert len(answers) == len(lines)
    for a in answers:
        assert a["ok"] in (True, False)
        assert a["ok"] or a["error"]


def test_hint_ranks_the_later_parts_of_a_gul_bara_turn_as_analyze_grades_them(tmp_path):
    """hint --move M.K (a chain double, a handover) gives the plays analyze judges the part by: the same
    position, the same number of legal plays, the same best equity."""
    from nardy_analyze.commands.hint import _from_record, answer
    from nardy_analyze.notation import get as notation
    from nardy_analyze.report.show import snapshots
    from nardy_analyze.stats.skill import DECISION_COLUMNS, analyse_match
    match = generate_match("gulbara", 1, 21)
    path = tmp_path / "g.ngn"
    path.write_text(notation("ngn").write(match))
    rows = [dict(zip(DECISION_COLUMNS, r)) for r in analyse_match(match, "gulbara").rows if r[-1] != "roll"]
    answers = []
    for snap in snapshots(notation("ngn").read(path.read_text(), str(path))):
        if snap.part:
            ans = answer(_from_record(str(path), snap.game, snap.address, "gulbara", {}))
            assert ans["part"] == snap.step and ans["numbers"] == sorted(snap.dice, reverse=True)
            if ans["plays"][0]["play"] != "(no move)":
                answers.append(ans)
    assert len(answers) == len(rows) > 5
    for ans, r in zip(answers, rows):
        assert ans["id"] == r["position_id"] and ans["part"] == r["part"]
        assert len(ans["plays"]) == r["moves"]
        assert ans["plays"][0]["equity"] == round(r["equity_best"], 4)
    chain = next(s for s in snapshots(match) if s.step == "chain")
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "hint", str(path), "--move", chain.address],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("GB-") and ", chain " in out.stdout.splitlines()[0]


def test_the_bot_protocol_answers_a_later_part_of_a_gul_bara_turn():
    import io
    from nardy_analyze.commands.hint import serve
    me = _side({24: 13, 20: 1, 18: 1})
    opp = _side({24: 14, 19: 1})
    reqs = [{"variant": "gulbara", "mover": list(me[:24]), "opponent": list(opp[:24]), "rolls": 6, "part": "chain",
             "numbers": [5, 5, 5, 5], "head": [1, 1]},
            {"variant": "gulbara", "mover": list(me[:24]), "opponent": list(opp[:24]), "rolls": 6,
             "part": "handover", "numbers": [3]},
            {"variant": "gulbara", "mover": list(me[:24]), "opponent": list(opp[:24]), "part": "chain",
             "numbers": [5, 4]},
            {"variant": "long", "mover": list(me[:24]), "opponent": list(opp[:24]), "part": "handover",
             "numbers": [3]}]
    out = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in reqs) + "\n"), out)
    chain, handover, bad, long_game = [json.loads(a) for a in out.getvalue().splitlines()]
    # the head already gave its checker this turn: no play of the chain takes another from it
    assert chain["ok"] and chain["part"] == "chain" and chain["numbers"] == [5, 5, 5, 5]
    assert all("24/" not in p["play"] for p in chain["plays"])
    assert handover["ok"] and {p["play"] for p in handover["plays"]} == {"24/21", "20/17", "18/15"}
    eqs = [p["equity"] for p in handover["plays"]]
    assert eqs == sorted(eqs, reverse=True)
    assert not bad["ok"] and bad["line"] == 3 and not long_game["ok"]


@pytest.mark.parametrize("variant", LONG_GAMES)
def test_the_heuristic_scores_positions_in_a_batch_as_one_by_one(variant):
    from nardy_analyze.evaluator.play import heuristic_score, heuristic_scores
    rules = get_variant(variant).rules
    seen = []

    def spy(c):
        seen.append(c.results)
        return random.Random(len(seen)).randrange(len(c.results))

    play_game(rules, (spy, spy), random.Random(5))
    assert len(seen) > 20
    for res in seen:
        one = [heuristic_score(m, o) for m, o in res]
        batch = heuristic_scores(np.array([r[0][:24] for r in res]), np.array([r[1][:24] for r in res]))
        assert batch.tolist() == one                      # the same numbers, bit for bit


@pytest.mark.parametrize("variant", LONG_GAMES)
def test_games_played_in_step_are_the_games_played_one_by_one(variant):
    from nardy_analyze.evaluator.match import Series, _count, play_series
    from nardy_analyze.evaluator.play import net_chooser, play_games
    rules = get_variant(variant).rules
    players = (net_chooser(Net.new(12, np.random.default_rng(1))), heuristic_chooser())
    swapped = (players[1], players[0])
    one = [play_game(rules, players if g % 2 == 0 else swapped, random.Random(f"9:{g // 2}"), keep=True)
           for g in range(8)]
    many = play_games(rules, [players if g % 2 == 0 else swapped for g in range(8)],
                      [random.Random(f"9:{g // 2}") for g in range(8)], keep=True)
    assert [(r.winner, r.points, r.positions) for r in one] == [(r.winner, r.points, r.positions) for r in many]
    s = Series()
    for g, r in enumerate(one):
        _count(s, r, g % 2)
    assert play_series(variant, players, 8, 9, step=3) == s


def _gulbara_parts(seed: int, games: int):
    """Every part of every roll of ``games`` random Gul bara games: (rules, roll number, roller index, the
    two sides by player before the part, the driver with the part pending, its spec, the plays)."""
    from nardy_analyze.engine import generate
    rules = get_variant("gulbara").rules
    rng = random.Random(seed)
    for _g in range(games):
        pos, p, rolled = list(rules.initial()), rng.randrange(2), [0, 0]
        for n in range(150):
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            drv = rules.turn_segments(max(d1, d2), min(d1, d2), rolled[p] == 0, n + 1)
            rolled[p] += 1
            while (spec := drv.next(pos[p], pos[1 - p])) is not None:
                q = 1 - p if spec.player else p
                ps = generate(rules, pos[q], pos[1 - q], spec.numbers, spec.turn)
                yield rules, n + 1, p, tuple(pos), drv, spec, ps
                if not ps.plays or ps.max_dice == 0:
                    drv.played(())
                    continue
                after = rng.choice(sorted(ps.plays))
                pos[q], pos[1 - q] = after
                drv.played(tuple(d for *_x, d in ps.plays[after]))
            if any(sum(s[:24]) == 0 for s in pos):
                break
            p = 1 - p


def test_a_driver_made_at_a_later_part_of_a_gul_bara_roll_goes_on_as_the_roll_does():
    """``rules.part_driver`` (what hint builds for a chain or handover request) asks for the same parts, in
    the same order and with the same numbers and head allowances, as the driver of the roll it stands in,
    whatever is played after it."""
    import copy

    from nardy_analyze.engine import generate
    checked = 0
    for rules, roll_number, p, pos, drv, spec, _ps in _gulbara_parts(11, 40):
        if spec.kind == "roll":
            continue
        roller = pos[p]
        head = roller[23]
        if spec.kind == "chain":
            chain_turn = spec.turn
        else:
            chain_turn = (drv.head0 - head, drv.allowed)
        mine = rules.part_driver(spec.kind, spec.numbers, roller, chain_turn, spec.double, roll_number)
        theirs = copy.copy(drv)            # the roll's own driver, this part pending
        sides = list(pos)
        assert mine.next(sides[p], sides[1 - p]) == spec
        rng = random.Random(checked)
        while True:                        # the rest of the roll, the same random plays fed to both
            q = 1 - p if spec.player else p
            ps = generate(rules, sides[q], sides[1 - q], spec.numbers, spec.turn)
            used = ()
            if ps.plays and ps.max_dice:
                after = rng.choice(sorted(ps.plays))
                sides[q], sides[1 - q] = after
                used = tuple(d for *_x, d in ps.plays[after])
            mine.played(used)
            theirs.played(used)
            spec = mine.next(sides[p], sides[1 - p])
            assert spec == theirs.next(sides[p], sides[1 - p])
            if spec is None:
                break
        checked += 1
    assert checked > 200


def test_the_lookahead_plays_the_rest_of_a_gul_bara_roll_out_as_the_net_would():
    """hint ranks a double's plays by the position at the end of the roll, the chain after the play chosen
    by the net at 0-ply: the same equity as playing the roll through the net's own chooser from that play
    and evaluating where it ends, the opponent on roll.  The lookahead player picks hint's first play."""
    from nardy_analyze.evaluator.analysis import load_net
    from nardy_analyze.evaluator.play import (Choice, RollState, evaluate_results, lookahead_chooser, net_chooser,
                                              roll_steps)
    rules = get_variant("gulbara").rules
    net = load_net(rules)
    greedy, look = net_chooser(net), lookahead_chooser(net)
    checked = differ = 0
    for rules, roll_number, p, pos, drv, spec, ps in _gulbara_parts(3, 30):
        if spec.kind != "roll" or spec.numbers[0] != spec.numbers[-1] or len(spec.numbers) < 4 or p != 0:
            continue
        if not ps.plays or len(ps.plays) < 2 or roll_number < 3:
            continue
        npos = NardyPosition("gulbara", pos[0], pos[1], 0, roll_number - 1)
        ranked = hint(rules, npos, spec.numbers[0], spec.numbers[0], net)
        zero = evaluate_results(net, rules, [r.after for r in ranked], False, False, rules.koks)[0]
        differ += any(abs(z - r.equity) > 1e-9 for z, r in zip(zero, ranked))
        for r in ranked[:3]:
            state = RollState(copy_driver(drv), 0, 0, pos, ps.plays)
            d2, sides = state.after(r.after)
            gen = roll_steps(rules, d2, 0, sides, False)
            try:
                q, c = next(gen)
                while True:
                    q, c = gen.send(greedy(c))
            except StopIteration as end:
                final = end.value
            eq, _p = evaluate_results(net, rules, [(final[0], final[1])], False, False, rules.koks)
            assert eq[0] == pytest.approx(r.equity, abs=1e-9)
        c = Choice(rules, sorted(ps.plays), False, False, "roll", RollState(copy_driver(drv), 0, 0, pos, ps.plays))
        # hint's first play, or one of equal worth (two plays whose rolls end alike: which of them comes first
        # may turn on the last bit of a sum that the linear algebra library adds in another order)
        chosen = next(r for r in ranked if r.after == c.results[look(c)])
        assert chosen.equity == pytest.approx(ranked[0].equity, abs=1e-9)
        checked += 1
        if checked >= 8:
            break
    assert checked >= 8 and differ >= 4        # the chain changes the ranking's numbers


def copy_driver(drv):
    import copy
    return copy.copy(drv)


def test_a_handover_of_a_doubles_numbers_is_judged_after_the_chain_that_follows_it():
    """A handover request with ``double`` plays the rest of the roll out (the roller's next doubles, up to
    6-6) before judging: the handover's player, whom the chain then runs against, is worth less than where
    the roll ends with the handover; ``double`` is refused where it cannot be."""
    import io

    from nardy_analyze.commands.hint import serve
    me = _side({24: 13, 20: 1, 18: 1})
    opp = _side({24: 3, 19: 2, 17: 2, 16: 2, 14: 2, 13: 2, 11: 2})       # the roller: free to play 4-4 to 6-6
    base = {"variant": "gulbara", "mover": list(me[:24]), "opponent": list(opp[:24]), "rolls": 6,
            "part": "handover", "numbers": [3, 3]}
    sixes = {**base, "numbers": [6]}
    reqs = [base, {**base, "double": 3}, {**base, "double": 4}, {**base, "double": 3, "part": "chain",
                                                                  "numbers": [3, 3, 3, 3]},
            sixes, {**sixes, "double": 6}]
    out = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in reqs) + "\n"), out)
    plain, chained, wrong, chain, six, last = [json.loads(a) for a in out.getvalue().splitlines()]
    assert plain["ok"] and chained["ok"] and not wrong["ok"] and not chain["ok"]
    assert {p["play"] for p in plain["plays"]} == {p["play"] for p in chained["plays"]}
    assert chained["plays"][0]["equity"] < plain["plays"][0]["equity"] - 0.1
    assert last["plays"] == six["plays"]          # 6-6 ends a chain: nothing follows its handover


def test_the_lookahead_plays_long_nardy_as_the_net_at_0_ply():
    """A long nardy roll is one play: nothing to look over, the same games as the net at 0-ply."""
    from nardy_analyze.evaluator.analysis import load_net
    from nardy_analyze.evaluator.play import lookahead_chooser, net_chooser, play_games
    rules = get_variant("long").rules
    net = load_net(rules)
    heur = heuristic_chooser()
    rngs = lambda: [random.Random(f"la:{g}") for g in range(6)]          # noqa: E731
    plain = play_games(rules, [(net_chooser(net), heur)] * 6, rngs(), keep=True)
    look = play_games(rules, [(lookahead_chooser(net), heur)] * 6, rngs(), keep=True)
    assert [(r.winner, r.rolls, r.positions) for r in plain] == [(r.winner, r.rolls, r.positions) for r in look]

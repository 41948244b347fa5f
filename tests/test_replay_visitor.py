"""The replay's one output channel (nardy_analyze.replay.visitor): a visitor gets every event in the order
of the record, the costly events only when it asks for them (``wants``), and ``replay()`` returns its
``result()``: the default visitor's is the match report, which agrees with what a visitor is told."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nardy_analyze.engine import get_variant
from nardy_analyze.generate import generate_match
from nardy_analyze.record import Kind
from nardy_analyze.replay import (POSITION_RULES, ActionState, Events, Finding, GameEnd, GameReport,
                                  MatchReport, ReplayVisitor, ReportBuilder, TurnRow, replay)

VARIANTS = ("backgammon", "long", "gulbara")


class Recorder(ReportBuilder):
    """Every event, as (name, payload); the match report too (its ``result()``)."""

    wants = Events.STATES | Events.TURNS | Events.ENDS

    def __init__(self):
        super().__init__()
        self.events = []

    def begin_match(self, match, variant):
        super().begin_match(match, variant)
        self.events.append(("begin_match", (match, variant)))

    def begin_game(self, game):
        self.events.append(("begin_game", game))

    def finding(self, finding):
        super().finding(finding)
        self.events.append(("finding", finding))

    def action_state(self, state):
        self.events.append(("action_state", state))

    def turn(self, row):
        self.events.append(("turn", row))

    def game_end(self, end):
        self.events.append(("game_end", end))

    def end_game(self, report):
        super().end_game(report)
        self.events.append(("end_game", report))

    def end_match(self, score):
        super().end_match(score)
        self.events.append(("end_match", score))


class FindingsOnly(ReportBuilder):
    def __init__(self):
        super().__init__()
        self.findings = []

    def finding(self, finding):
        super().finding(finding)
        self.findings.append(finding)


def planted(match, seed: int):
    """``match`` with a few rolls changed (other dice, a step dropped): records with findings."""
    m = copy.deepcopy(match)
    rng = random.Random(seed)
    rolls = [a for g in m.games for a in g.actions if a.kind is Kind.ROLL and a.steps]
    for a in rng.sample(rolls, min(len(rolls), rng.randint(0, 3))):
        if rng.random() < 0.5:
            a.steps = a.steps[:-1]
        else:
            d = (rng.randint(1, 6), rng.randint(1, 6))
            a.dice, a.dice_text = d, f"{d[0]}{d[1]}"
    return m


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_recording_visitor_gets_every_event_in_order(variant):
    match = planted(generate_match(variant, 3, seed=17), 5)
    v = get_variant(variant)
    rec = Recorder()
    rep = replay(match, v, visitor=rec)
    names = [n for n, _ in rec.events]
    assert "finding" in names and "turn" in names and "action_state" in names
    assert rec.events[0] == ("begin_match", (match, v))
    assert isinstance(rep, MatchReport) and rec.events[-1] == ("end_match", rep.final_score)
    # one begin_game ... game_end, end_game bracket per game, in order, nothing of a game outside it
    starts = [i for i, n in enumerate(names) if n == "begin_game"]
    ends = [i for i, n in enumerate(names) if n == "end_game"]
    assert [rec.events[i][1] for i in starts] == match.games
    assert [rec.events[i][1] for i in ends] == rep.games
    for game, s, e in zip(match.games, starts, ends):
        inside = rec.events[s + 1:e]
        assert s < e and "begin_game" not in [n for n, _ in inside]
        assert [n for n, _ in inside][-1] == "game_end" and inside[-1][1].game == game.number
        assert [x for n, x in inside if n == "game_end"] == [inside[-1][1]]
        states = [x for n, x in inside if n == "action_state"]
        assert [x.index for x in states] == list(range(len(states)))   # one per action reached, in order
        assert 0 < len(states) <= len(game.actions)
        rows = [x for n, x in inside if n == "turn"]
        assert [r.turn for r in rows] == list(range(1, len(rows) + 1))
        assert all(r.game == game.number for r in rows)
        assert len([r for r in rows if r.dice is not None]) == rep.games[game.number - 1].turns
        assert all(f.game == game.number for n, f in inside if n == "finding")
    # the findings told are the report's, in the same order; the types are the documented ones
    assert [x for n, x in rec.events if n == "finding"] == rep.findings
    kinds = {"finding": Finding, "action_state": ActionState, "turn": TurnRow, "game_end": GameEnd,
             "end_game": GameReport}
    assert all(isinstance(x, kinds[n]) for n, x in rec.events if n in kinds)


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_action_state_follows_the_findings_of_its_action(variant):
    """A state says illegal exactly when a checker-play finding came since the previous state."""
    match = planted(generate_match(variant, 2, seed=3), 11)
    rec = Recorder()
    replay(match, get_variant(variant), visitor=rec)
    assert any(n == "action_state" and not x.legal for n, x in rec.events)
    since = []
    for name, x in rec.events:
        if name == "finding":
            since.append(x)
        elif name == "action_state":
            assert x.legal == (not any(f.rule in POSITION_RULES for f in since))
            since = []
        elif name == "begin_game":
            since = []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000), plant=st.integers(0, 10_000))
def test_findings_via_the_visitor_are_replays_findings(variant, seed, plant):
    match = planted(generate_match(variant, 2, seed=seed), plant)
    v = get_variant(variant)
    plain = replay(match, v)
    only = FindingsOnly()
    told = replay(match, v, visitor=only)
    rec = Recorder()
    everything = replay(match, v, visitor=rec)
    as_dicts = [f.as_dict() for f in plain.findings]
    assert [f.as_dict() for f in only.findings] == as_dicts == [f.as_dict() for f in told.findings]
    # asking for the costly events changes nothing of the findings or the results
    assert [f.as_dict() for f in everything.findings] == as_dicts
    assert everything.games == plain.games == told.games


class Delegate(ReplayVisitor):
    """Hands every event to another visitor, and asks for the events that one wants."""

    def __init__(self, inner):
        self.inner, self.wants = inner, inner.wants

    def begin_match(self, match, variant):
        self.inner.begin_match(match, variant)

    def begin_game(self, game):
        self.inner.begin_game(game)

    def finding(self, finding):
        self.inner.finding(finding)

    def action_state(self, state):
        self.inner.action_state(state)

    def turn(self, row):
        self.inner.turn(row)

    def game_end(self, end):
        self.inner.game_end(end)

    def end_game(self, report):
        self.inner.end_game(report)

    def end_match(self, score):
        self.inner.end_match(score)

    def result(self):
        return ("delegated", self.inner.result())


@pytest.mark.parametrize("variant", VARIANTS)
def test_costly_events_are_told_as_declared(variant):
    """A visitor is told the costly events it asks for in ``wants``, whatever its class overrides: one that
    overrides ``turn`` without asking is told no turn; one that hands the events to another is told all
    of them; ``replay()`` returns the visitor's ``result()`` (None by default)."""
    match = planted(generate_match(variant, 2, seed=29), 3)
    v = get_variant(variant)

    class Undeclared(ReplayVisitor):
        def __init__(self):
            self.rows = []

        def turn(self, row):
            self.rows.append(row)

    quiet = Undeclared()
    assert replay(match, v, visitor=quiet) is None and quiet.rows == []
    direct, inner = Recorder(), Recorder()
    rep = replay(match, v, visitor=direct)
    tag, inner_rep = replay(match, v, visitor=Delegate(inner))
    assert tag == "delegated" and inner_rep == rep
    assert [n for n, _ in inner.events] == [n for n, _ in direct.events]
    assert {"action_state", "turn", "game_end"} <= {n for n, _ in inner.events}
    for want, event in ((Events.STATES, "action_state"), (Events.TURNS, "turn"), (Events.ENDS, "game_end")):
        some = Recorder()
        some.wants = want
        replay(match, v, visitor=some)
        told = {n for n, _ in some.events} & {"action_state", "turn", "game_end"}
        assert told == {event}


def test_a_visitor_with_no_costly_method_builds_no_state(monkeypatch):
    from nardy_analyze.replay import match as walk, telling   # the modules that build the costly events

    def boom(*a, **k):
        raise AssertionError("built although nobody asked for it")

    monkeypatch.setattr(walk, "Teller", boom)
    monkeypatch.setattr(telling, "ActionState", boom)
    monkeypatch.setattr(telling, "TurnRow", boom)
    monkeypatch.setattr(telling, "GameEnd", boom)
    match = generate_match("gulbara", 2, seed=1)
    only = FindingsOnly()
    rep = replay(match, get_variant("gulbara"), visitor=only)
    assert rep.games and only.findings == rep.findings


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_replayed_game_leaves_no_reference_cycle(variant):
    """A game's replay (with its clock), its game and its actions are freed by reference counting as soon
    as the game is done: none is left for the garbage collector (cycles over every game of a run cost
    the command line about a tenth of validate's time).  The clock still reports through the replay."""
    import gc

    from nardy_analyze.replay.state import GameState

    match = planted(generate_match(variant, 3, seed=23), 7)
    slow = copy.deepcopy(match)
    for a in slow.games[0].actions:
        a.clock = 200.0                         # over a time control of 120 s a move
    gc.collect()
    gc.disable()
    try:
        for visitor in (None, Recorder()):
            rep = replay(match, get_variant(variant), visitor=visitor)
            assert rep.games
            assert not [o for o in gc.get_objects() if type(o) is GameState]
        rep = replay(slow, get_variant(variant, {"time_limit": 120}))
        assert not [o for o in gc.get_objects() if type(o) is GameState]
    finally:
        gc.enable()
    late = [f for f in rep.findings if f.rule == "time-limit"]      # every action of game 1, named by player
    assert [f.line for f in late] == [a.loc.line for a in slow.games[0].actions]
    assert all(f.game == 1 and f.message.startswith(f"{f.player} took 200 s over this move") for f in late)

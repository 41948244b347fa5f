"""Statistics on generated games of every variant (``nardy_analyze.generate``): the columns of long nardy
and Gul bara (mars, koks, handover steps, doubles chains) and the common ones, against figures read
straight off the generated record (no replay)."""
from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nardy_analyze import stats, statsrun
from nardy_analyze.stats import frames
from nardy_analyze.record import Kind

gen = pytest.importorskip("nardy_analyze.generate", reason="the game generator (nardy_analyze.generate) is not in "
                                                           "this checkout")

VARIANTS = ("backgammon", "long", "gulbara")
LEVELS = {"backgammon": {1: "single", 2: "gammon", 3: "backgammon"},
          "long": {1: "single", 2: "mars", 3: "koks"}, "gulbara": {1: "single", 2: "mars", 3: "koks"}}


def from_record(match, variant: str) -> dict[tuple[int, int], dict]:
    """{(game, side): figures} counted from the record's actions and segments alone."""
    out = {}
    for g in match.games:
        r = {s: dict(rolls=0, doubles=0, hits=0, pips=0, borne_off=0, handover_steps=0, longest_chain=0,
                     cube_offered=0, cube_taken=0, cube_dropped=0) for s in (0, 1)}
        winner = points = None
        cube, dropped = 1, False
        for a in g.actions:
            if a.kind == Kind.WIN:
                winner, points = a.player, a.value
            elif a.kind == Kind.DOUBLE:
                r[a.player]["cube_offered"] += 1
            elif a.kind == Kind.TAKE:
                r[a.player]["cube_taken"] += 1
                cube *= 2
            elif a.kind == Kind.DROP:
                r[a.player]["cube_dropped"] += 1
                dropped = True
            if a.kind != Kind.ROLL:
                continue
            d1, d2 = a.dice
            me = r[a.player]
            me["rolls"] += 1
            me["doubles"] += d1 == d2
            chain = 1
            for player, steps, kind in [(a.player, a.steps, "roll")] + [(s.player, s.steps, s.kind)
                                                                        for s in a.segments]:
                for step in steps:
                    r[player]["pips"] += step.src - step.dst
                    r[player]["borne_off"] += step.dst == 0
                    r[player]["hits"] += step.hit
                if kind == "handover":
                    r[player]["handover_steps"] += len(steps)
                elif kind == "chain":
                    chain += 1
            if d1 == d2 and variant == "gulbara":
                me["longest_chain"] = max(me["longest_chain"], chain)
        for s in (0, 1):
            row = dict(r[s], max_cube=cube)
            if winner is None:
                row.update(result=None, points=0, kind=None)
            else:
                row.update(result="win" if s == winner else "loss", points=points if s == winner else 0,
                           kind="drop" if dropped else LEVELS[variant][points // cube])
            out[(g.number, s)] = row
    return out


def rows_of(match, variant: str) -> pd.DataFrame:
    res = stats.match_rows(match, variant)
    assert not res.problems, res.problems[:3]
    return frames.game_frame(res.rows)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10_000))
def test_generated_games_counted_as_written(variant, seed):
    match = gen.generate_match(variant, 3, seed=seed)
    g = rows_of(match, variant)
    want = from_record(match, variant)
    assert len(g) == 2 * len(match.games)
    assert (g["variant"] == variant).all() and (g["illegal"] == 0).all()
    for row in g.itertuples(index=False):
        exp = want[(row.game, row.side)]
        got = {k: getattr(row, k) for k in exp}
        got = {k: (None if (not isinstance(v, str) and pd.isna(v)) else v) for k, v in got.items()}
        assert got == exp, (variant, seed, row.game, row.side)
    assert g["points"].sum() == statsrun.players(g)["points_against"].sum()
    assert (g["forced"] <= g["rolls"]).all() and (g["doubles"] <= g["rolls"]).all()


@pytest.mark.parametrize("variant", ["long", "gulbara"])
def test_nardy_columns_appear(variant):
    """Over enough games the nardy-only figures are really produced: mars (or koks), and for Gul bara
    handover steps and chains longer than one double."""
    g = pd.concat([rows_of(gen.generate_match(variant, 4, seed=s), variant) for s in range(6)])
    kinds = set(g["kind"].dropna().astype(str))
    assert kinds <= {"single", "mars", "koks"} and kinds & {"mars", "koks"}
    p = statsrun.players(g)
    assert p["mars_won"].sum() + p["koks_won"].sum() == p["mars_lost"].sum() + p["koks_lost"].sum() > 0
    assert (g["hits"] == 0).all() and (g["shutouts"] == 0).all()
    if variant == "gulbara":
        assert g["handover_steps"].sum() > 0 and g["longest_chain"].max() >= 2
    else:
        assert (g["handover_steps"] == 0).all() and (g["longest_chain"] == 0).all()

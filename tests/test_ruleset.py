"""The rule set (engine/ruleset.py): one precedence from the variant's defaults to the record's option tags,
the flat form and the typed one the same, scoring as a strategy, and a bug in a rules class never passed
off as the user's bad options."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from nardy_analyze.engine import Backgammon, RuleSet, UnknownVariant, get_variant, register, unregister
from nardy_analyze.engine.presets import PRESETS
from nardy_analyze.engine.ruleset import from_tags
from nardy_analyze.engine.scoring import NARDY500, POINTS


def test_one_precedence_lowest_first():
    """defaults < --rules preset < --rule KEY < --rule VARIANT:KEY < the Rules tag < the option tags."""
    assert RuleSet().resolve("long", {}).options == {}                        # the defaults: get_variant's
    club = PRESETS["club"].for_variant("long")
    assert RuleSet.from_command_line([], "club").resolve("long", {}).options == club
    rs = RuleSet.from_command_line(["koks=off", "home_mars=4"], "club")
    assert rs.resolve("long", {}).options == {**club, "koks": False, "home_mars": 4}
    rs = RuleSet.from_command_line(["long:home_mars=5", "home_mars=4"], "club")
    assert rs.resolve("long", {}).options["home_mars"] == 5                  # scoped over unscoped, any order
    got = rs.resolve("long", {"Rules": "last-roll", "HomeMars": "2"})
    assert got.options["home_mars"] == 2 and got.options["last_roll"] is True and got.options["koks"] is True
    got = rs.resolve("long", {"Rules": "club", "Koks": "off"})               # the tag preset, then the tags
    assert got.options["koks"] is False and got.options["home_mars"] == 1


def test_what_cannot_be_applied_is_said():
    got = RuleSet.from_command_line(["crawford=off"]).resolve("long", {"TimeControl": "soon", "Rules": "fide"})
    assert len(got.arg_problems) == 1 and "crawford" in got.arg_problems[0]
    assert [t for t, _ in got.tag_problems] == ["Rules", "TimeControl"]
    with pytest.raises(ValueError):
        RuleSet.from_command_line(["koks"])
    with pytest.raises(UnknownVariant):
        RuleSet.from_command_line(["chess:koks=on"])


@given(st.lists(st.sampled_from(["koks=on", "koks=off", "crawford=off", "long:home_mars=3", "gulbara:koks=on",
                                 "cube=on", "backgammon:jacoby=on", "time_limit=90"]), max_size=6),
       st.sampled_from([None, *PRESETS]))
def test_the_flat_form_is_the_same_rule_set(items, preset):
    rs = RuleSet.from_command_line(items, preset)
    assert RuleSet.of(rs.flat()) == rs and RuleSet.of(rs) is rs
    for variant in ("backgammon", "long", "gulbara"):
        assert RuleSet.of(rs.flat()).resolve(variant, {}) == rs.resolve(variant, {})


def test_tags_alone():
    opts, problems = from_tags({"Crawford": "maybe", "TimeControl": "840+8"}, {}, "backgammon")
    assert problems == [] and opts == {"clock": 840, "increment": 8, "time_limit": None}


def test_scoring_is_a_strategy():
    v = get_variant("backgammon", {"scoring": "nardy500"})
    assert v.rules.scoring(v.get) is NARDY500 and get_variant("backgammon").rules.scoring(lambda k: "points") is POINTS
    assert (v.opt("cube"), v.opt("time_limit")) == (False, 120)             # what nardy500 implies
    v = get_variant("backgammon", {"scoring": "nardy500", "cube": True, "time_limit": 60})
    assert (v.opt("cube"), v.opt("time_limit"), v.cube_in_play) == (True, 60, False)   # given: kept; no cube
    assert (v.stake(2, 4), v.resign_stakes(3), v.drop_stake(2)) == (1000, {500: 1}, 500)
    assert set(Backgammon.OPTIONS["scoring"][1]) == set(Backgammon.SCORINGS)


def test_a_bad_value_is_the_users_a_type_error_is_a_bug():
    with pytest.raises(UnknownVariant, match="bad rule options"):
        get_variant("long", {"head_exception": "sometimes"})
    with pytest.raises(UnknownVariant, match="bad rule options"):
        get_variant("long", {"home_mars": -1})

    class Broken(Backgammon):
        name = "broken"
        aliases = ()

        @classmethod
        def build_args(cls, opts):
            return {"no_such_argument": 1}

    register(Broken)
    try:
        with pytest.raises(TypeError):
            get_variant("broken")
    finally:
        unregister("broken")

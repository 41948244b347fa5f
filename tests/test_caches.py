"""The package's module-level caches are keyed by value and bounded: a long run over many option sets, turn
states or distinct plays keeps a bounded number of entries, and what a cache gives is what building it
again gives."""
from __future__ import annotations

from hypothesis import given, settings, strategies as st

from helpers import ROOT
from nardy_analyze.engine import registry
from nardy_analyze.engine import get_variant
from nardy_analyze.notation import mat
from nardy_analyze.record import Match, record_dict
from nardy_analyze.replay import telling


def test_rules_objects_one_per_option_set_and_bounded():
    first = get_variant("long", {"home_mars": 2}).rules
    assert get_variant("long", dict({"home_mars": 2})).rules is first        # equal options, one object
    for n in range(3, registry.BUILT_MAX + 20):
        rules = get_variant("long", {"home_mars": n}).rules
        assert rules.home_mars == n
        assert len(registry._BUILT) <= registry.BUILT_MAX
    assert get_variant("long", {"home_mars": n}).rules is rules              # the latest kept
    again = get_variant("long", {"home_mars": 2}).rules                      # the oldest was let go: built again
    assert again is not first and repr(again) == repr(first)


def test_roll_specs_by_value_and_bounded():
    telling.ROLL_SPECS.clear()
    try:
        spec = telling.roll_spec(6, 4, (0, 1))
        assert telling.ROLL_SPECS.get((6, 4, tuple([0, 1]))) is spec          # an equal turn state finds it
        assert (spec.kind, tuple(spec.numbers), spec.turn) == ("roll", (6, 4), (0, 1))
        for left in range(telling.ROLL_SPECS_MAX + 10):                      # a turn state of many values
            telling.roll_spec(3, 3, (left, 1))
            assert len(telling.ROLL_SPECS) <= telling.ROLL_SPECS_MAX
        assert telling.ROLL_SPECS[(3, 3, (left, 1))].turn == (left, 1)
    finally:
        telling.ROLL_SPECS.clear()


def test_mat_plays_bounded_and_the_same_record(monkeypatch):
    # the Python reader's cache (the compiled reader's own is bounded by the same 50,000, a constant of its C)
    monkeypatch.setattr(mat, "GAME_ACTIONS", None)
    monkeypatch.setattr(mat, "MAT_GAME", None)
    text = (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8")
    mat._PLAYS.clear()
    whole = mat.read(text, "club-night.mat")
    assert len(mat._PLAYS) > 5
    monkeypatch.setattr(mat, "PLAYS_MAX", 5)
    mat._PLAYS.clear()
    small = mat.read(text, "club-night.mat")
    assert 0 < len(mat._PLAYS) <= 5
    assert record_dict(small) == record_dict(whole)
    mat._PLAYS.clear()


def _tag_by_scan(tags: dict, key: str, default=None):
    """Match.tag's meaning: the first tag, in the file's order, whose name equals ``key`` ignoring case and
    blanks."""
    k = key.casefold().replace(" ", "")
    for name, value in tags.items():
        if name.casefold().replace(" ", "") == k:
            return value
    return default


_TAG_NAMES = ["Site", "site", "SITE", "Event Date", "EventDate", "eventdate", "Variation", "variation", "Cube Limit",
              "CubeLimit", "Player 1", "player1", "", " ", "ß", "SS", "Straße", "STRASSE"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_TAG_NAMES), st.text(max_size=3)), max_size=10),
       st.lists(st.sampled_from(_TAG_NAMES), max_size=3), st.sampled_from(_TAG_NAMES))
def test_tag_lookup_is_the_first_tag_of_the_name_and_follows_changes(items, removed, key):
    """``Match.tag`` (its folded names kept per set of tag names) gives what a scan of the tags gives, after
    tags are removed and added again (their order changed) too."""
    m = Match(path="x", notation="mat")
    for name, value in items:
        m.tags.setdefault(name, value)
    assert m.tag(key, "none") == _tag_by_scan(m.tags, key, "none")
    for name in removed:
        value = m.tags.pop(name, None)
        assert m.tag(key) == _tag_by_scan(m.tags, key)
        if value is not None:
            m.tags[name] = value + "!"
            assert m.tag(key) == _tag_by_scan(m.tags, key)
    assert m.tag(key) == _tag_by_scan(m.tags, key)


def test_the_notation_tables_follow_the_registry(monkeypatch):
    """The suffix table and the sniff order kept per state of the notation registry are what the registry
    says after each change: a notation registered, replaced, unregistered, or the registry swapped."""
    from dataclasses import replace
    from nardy_analyze import notation

    def odd_sniff(text: str) -> bool:
        return text.startswith("ODD!")

    odd = notation.Notation("odd", (".odd",), odd_sniff, lambda text, path="": Match(path=path, notation="odd"),
                            ambiguous_suffixes=(".txt",))
    assert notation.for_path("a.mat").name == "mat" and notation.for_path("a.odd") is None
    assert notation.sniff("ODD! 1 point match") is None or notation.sniff("ODD!").name != "odd"
    notation.register(odd)
    try:
        assert notation.for_path("a.ODD").name == "odd" and ".odd" in notation.record_suffixes()
        assert notation.sniff("ODD! x").name == "odd" and "odd" in notation.names()
        notation.register(replace(odd, suffixes=(".odd2",)))           # replaced under the same name
        assert notation.for_path("a.odd") is None and notation.for_path("a.odd2").name == "odd"
    finally:
        notation.unregister("odd")
    assert notation.for_path("a.odd2") is None and notation.sniff("ODD! x") is None
    monkeypatch.setattr(notation, "_REGISTRY", {**notation._REGISTRY, "odd": odd})
    assert notation.for_path("a.odd").name == "odd"
    monkeypatch.undo()
    assert notation.for_path("a.odd") is None and notation.for_path("b.sgf").name == "sgf"


# header tags that bear on the variant or its options, spelled as records spell them, and some that do not
_CHOICE_TAGS = ["Variation", "variant", "Variant", "Rules", "rules", "Crawford", "CubeLimit", "Cube Limit", "cube_limit",
                "Jacoby", "Koks", "Home-Mars", "Scoring", "TimeControl", "Beaver", "Event", "Player 1", "Round"]
_CHOICE_VALUES = ["", "On", "off", "yes", "1", "2", "64", "long", "Long Nardy", "Gul Bara", "backgammon", "club",
                  "fide", "1000", "500", "2:00", "840+8", "x", "Backgammon +1"]


def _choice_view(choice) -> tuple:
    """Everything a caller reads of a VariantChoice (the variant by its name and options)."""
    v = choice.variant
    return (None if v is None else (v.name, sorted(v.options.items()) if hasattr(v, "options") else repr(v)),
            choice.name, choice.error, list(choice.arg_errors), list(choice.tag_problems))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(_CHOICE_TAGS), st.sampled_from(_CHOICE_VALUES)), max_size=5),
                min_size=1, max_size=6),
       st.sampled_from(["backgammon", "long", "gulbara"]),
       st.sampled_from([None, {}, {"koks": True}, {"crawford": False}, {"long:koks": True, "rules": "club"},
                        {"jacoby": True, "cube_limit": 8}]))
def test_variant_choices_kept_are_what_choosing_again_gives(records, default, options):
    """``choose_variant`` keeps a choice made without a problem for the records whose tags that bear on it are
    the same: what it gives is what choosing again without the kept choices gives, record after record (the
    same tags again, others in between), and a caller that changes what it was given changes nothing kept."""
    from nardy_analyze import judged

    judged._CHOICES.clear()
    for items in records + records:
        m = Match(path="x", notation="mat")
        for name, value in items:
            m.tags.setdefault(name, value)
        m.tags["Player 1"] = f"someone {len(items)}"       # (a tag that bears on nothing)
        got = judged.choose_variant(m, default, options)
        fresh = judged._choose_variant(m, default, options)
        assert _choice_view(got) == _choice_view(fresh)
        got.arg_errors.append("changed by the caller")
        assert _choice_view(judged.choose_variant(m, default, options)) == _choice_view(fresh)
    assert len(judged._CHOICES) <= judged.CHOICES_MAX


def test_variant_choices_follow_the_registry():
    """A variant registered after a choice was kept: the record that names it is judged under it (the kept
    choices and the tags that bear on a choice are made again), and forgotten again when it is unregistered."""
    from nardy_analyze import judged
    from nardy_analyze.engine import Backgammon

    class Odd(Backgammon):
        name = "oddgammon"
        aliases = ("odd gammon",)
        OPTIONS = {**Backgammon.OPTIONS, "odd_rule": (False, (False, True))}

    m = Match(path="x", notation="mat")
    m.tags["Variation"] = "oddgammon"
    m.tags["Odd Rule"] = "yes"
    before = judged.choose_variant(m)
    assert before.variant is None and before.error
    registry.register(Odd)
    try:
        during = judged.choose_variant(m)
        assert during.variant is not None and during.variant.name == "oddgammon"
        assert during.variant.opt("odd_rule") is True
        assert judged.choose_variant(m).variant is during.variant          # kept
    finally:
        registry.unregister("oddgammon")
    after = judged.choose_variant(m)
    assert after.variant is None and after.error

"""The variant is one object (``engine.Rules``): what that promises.

* Nothing outside ``nardy_analyze/engine/`` compares a variant's name or probes the rules object with
  ``getattr``/``hasattr`` (read from the source with ``ast``).
* Every fast path of every variant (``Rules.FAST_PATHS``) is what the generic default of ``Rules`` says,
  on positions of random games (hypothesis).
* One alias table: every spelling the engine knows means the same variant to the notations and the engine
  (``[Variation "bg"]`` converts to .sgf like backgammon).
* A fourth variant defined here, backgammon with a three-point home board, touches no file of the package:
  it is registered with the engine and then generated, written, read, validated, counted by stats and
  refused by the .mat writer like any variant.
"""
from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from helpers import ROOT
from nardy_analyze import engine
from nardy_analyze.engine import registry
from nardy_analyze.engine import BAR, OFF, Rules, canonical_name, generate, get_variant, register, unregister
from nardy_analyze.engine.backgammon import Backgammon
from nardy_analyze.engine.core import Dice, RuleResult, borne_off, closed_flags_py

PACKAGE = ROOT / "nardy_analyze"


# -- the source: no variant name compared, no probing of the rules object outside engine/ ---------------------

def _names() -> set[str]:
    """Every spelling of a variant the engine knows, normalised as the alias table does."""
    return registry.spellings()


def _is_rules_expr(node: ast.AST) -> bool:
    text = ast.unparse(node)
    return text == "rules" or text.endswith(".rules") or text.endswith("_rules") or "rules." in text


def _variant_constants(node: ast.AST, names: set[str]) -> list[str]:
    """Variant names among the string constants of ``node`` (a constant, or a tuple/list/set of them)."""
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
            and i.value.strip().lower().replace(" ", "") in names]


def violations(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, what) of every variant-name comparison, ``getattr``/``hasattr`` on a rules object,
    ``type(rules)`` and alias table (a dict with two or more variant names as keys) in ``source``."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for operand in [node.left, *node.comparators]:
                for name in _variant_constants(operand, names):
                    out.append((node.lineno, f"compares the variant name {name!r}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
            if node.func.id in ("getattr", "hasattr") and _is_rules_expr(node.args[0]):
                out.append((node.lineno, f"{node.func.id} on {ast.unparse(node.args[0])}"))
            if node.func.id == "type" and _is_rules_expr(node.args[0]):
                out.append((node.lineno, f"type({ast.unparse(node.args[0])})"))
        elif isinstance(node, ast.Dict):
            keys = [n for k in node.keys if k is not None for n in _variant_constants(k, names)]
            if len(keys) >= 2:
                out.append((node.lineno, f"a table keyed by variant names ({', '.join(keys)})"))
    return out


def test_no_variant_name_or_rules_probe_outside_the_engine():
    names = _names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "engine" in path.relative_to(PACKAGE).parts:
            continue
        for line, what in violations(path.read_text(encoding="utf-8"), names):
            found.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert not found, "ask the rules object (engine.Rules) instead:\n" + "\n".join(found)


@pytest.mark.parametrize("snippet", [
    'if v.name == "gulbara": pass',
    'bg = report.variant != "backgammon"',
    'x = variant in ("long", "short-nardy")',
    'quick = getattr(rules, "roll_forced", None)',
    'ok = hasattr(self.rules, "handover_turn")',
    'same = type(rules).closed is Backgammon.closed',
    'NAMES = {"shortnardy": "backgammon", "longnardy": "long"}',
])
def test_the_scan_finds_each_kind_of_violation(snippet):
    assert violations(snippet, _names())


def test_the_scan_passes_what_is_allowed():
    ok = ('variant: str = "backgammon"\nx = rules.position_id\nkind = "gammon"\n'
          'cols = {"gammon": "gammons", "backgammon": "backgammons"}\nif getattr(stream, "encoding", None): pass')
    assert violations(ok, _names()) == []


# -- a fourth variant, here only: backgammon with a three-point home board -----------------------------------

class ThreeHome(Backgammon):
    """Backgammon whose home board is points 1-3: every checker must stand there before one is borne off,
    and a loser's checker on the winner's points 1-3 (its own 22-24) or the bar makes a backgammon.  What
    it does not override it takes from backgammon (steps, hits, the bar, the cube, the options) and from
    ``Rules`` (the fast paths that assume a six-point home go back to the generic defaults)."""

    name = "threehome"
    title = "three-point backgammon"
    aliases = ("three-home", "3home")
    position_id = False          # GNU Backgammon's IDs do not say which home board
    gnubg_notation = False       # nor do its .mat and .sgf records
    HOME = 3

    play_exact = Rules.play_exact          # Backgammon's assume a six-point home
    forced = Rules.forced

    def _home(self, me) -> bool:
        return not any(me[self.HOME:25])

    def single_steps(self, me, opp, die, turn=None):
        if me[24]:
            yield from super().single_steps(me, opp, die, turn)
            return
        home = self._home(me)
        for src, dst in super().single_steps(me, opp, die, turn):
            if dst != OFF:
                yield src, dst
        if home:
            for src in range(self.HOME, 0, -1):
                if me[src - 1] and (src == die or (src < die and not any(me[src:self.HOME]))):
                    yield src, OFF

    def step_problem(self, me, opp, src, dst, die, turn=None):
        problem = super().step_problem(me, opp, src, dst, die, turn)
        if dst != OFF or (problem and problem.rule in ("bar-first", "no-checker")):
            return problem
        if not self._home(me):
            return RuleResult("bear-off-early", "outside", {"point": src, "n": sum(me[self.HOME:25])})
        if die > src and any(me[src:self.HOME]):
            return RuleResult("bear-off-inexact", "three-higher", {"die": die, "point": src})
        return None

    def step_text(self, problem):
        if problem.case == "three-higher":
            return "a {die} bore off from {point} although a checker stands higher".format(**problem.params)
        return super().step_text(problem)

    def win_level(self, winner, loser) -> int:
        if borne_off(loser):
            return 1
        return 3 if loser[24] or any(loser[24 - self.HOME:24]) else 2

    def max_level(self, winner, loser) -> int:
        if borne_off(loser):
            return 1
        return max(self.win_level(winner, loser), super().max_level(winner, loser))


@pytest.fixture
def threehome():
    register(ThreeHome)
    try:
        yield get_variant("threehome")
    finally:
        unregister("threehome")


def test_the_fourth_variant_bears_off_from_three_points_only(threehome):
    rules = threehome.rules
    me = (2, 3, 4, 1) + (0,) * 21           # a checker on 4: not home yet
    opp = Backgammon().initial()[1]
    assert all(dst != OFF for _, dst in rules.single_steps(me, opp, 4))
    assert rules.step_problem(me, opp, 3, OFF, 3)[0] == "bear-off-early"
    home = (2, 3, 4) + (0,) * 22
    assert (3, OFF) in set(rules.single_steps(home, opp, 6))
    assert rules.step_problem(home, opp, 2, OFF, 6)[0] == "bear-off-inexact"
    assert rules.step_text(rules.step_problem(home, opp, 2, OFF, 6)) == \
        "a 6 bore off from 2 although a checker stands higher"
    assert rules.step_text(rules.step_problem(me, opp, 3, OFF, 3)) == \
        "bore off from 3 while 1 checker(s) are outside home"          # a case the base class words


def test_the_fourth_variant_goes_through_the_whole_pipeline(threehome, tmp_path):
    from nardy_analyze import stats
    from nardy_analyze.analyze import validate_match
    from nardy_analyze.generate import generate_match
    from nardy_analyze import notation
    from nardy_analyze.notation import jsonfmt, ngn

    match = generate_match("3home", 4, seed=7)
    assert match.tag("Variant") == "threehome"
    text = ngn.write(match)
    (tmp_path / "three.ngn").write_text(text, encoding="utf-8")
    back = notation.read_bytes((tmp_path / "three.ngn").read_bytes(), str(tmp_path / "three.ngn"))
    report = validate_match(back)
    assert report.variant == "threehome"
    assert report.turns > 20 and not report.findings, [str(f) for f in report.findings]
    assert jsonfmt.to_document(back)["variant"] == "threehome"
    assert any("three-point backgammon has no mat form" in x for x in notation.get("mat").losses(back))
    rows = stats.match_rows(back)
    assert len(rows.rows) == 4 * 2 and not rows.problems          # a row per game and player
    kinds = {r[list(stats.GAME_COLUMNS).index("kind")] for r in rows.rows}
    assert kinds <= {*ThreeHome.LEVEL_KINDS.values(), "resign", "drop", "timeout", None}

    # shown as its geometry says: a bar, opposite directions, no GNU Backgammon ID
    from nardy_analyze.report.show import NotBackgammon, as_gnubg, as_svg, as_text, snapshots
    snap = snapshots(back)[3]
    shown = as_text(snap)
    assert "bar: X" in shown and "Position ID" not in shown and "same way round" not in shown
    assert as_svg(snap).startswith("<svg")
    with pytest.raises(NotBackgammon):
        as_gnubg(snap)

    # backgammon games judged as threehome: their bear-offs with checkers on points 4-6 are errors, so the
    # variant's own rules did the judging
    bg = ngn.write(generate_match("backgammon", 4, seed=7)).replace('"backgammon"', '"three-home"')
    rep = validate_match(notation.read_bytes(bg.encode(), "bg-as-threehome.ngn"))
    assert rep.variant == "threehome"
    assert any(f.rule == "bear-off-early" for f in rep.findings)


# -- every fast path of every variant is its generic default ----------------------------------------------------

_RULES = {
    "backgammon": lambda: get_variant("backgammon").rules,
    "long": lambda: get_variant("long").rules,
    "long-conditional-koks": lambda: get_variant("long", {"head_exception": "conditional", "koks": True}).rules,
    "gulbara": lambda: get_variant("gulbara").rules,
    "threehome": ThreeHome,
}


def _game(rules, rng: random.Random, plies: int):
    """Positions of a random game of ``rules`` (the mover first), with the roll about to be played there, its
    turn state and the play chosen: ``(me, opp, (d1, d2), turn, steps)``."""
    me, opp = rules.initial()
    for ply in range(plies):
        if borne_off(me) == 15 or borne_off(opp) == 15:
            return
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        turn = rules.start_turn(me, opp, ply < 2, (d1, d2))
        plays = generate(rules, me, opp, Dice.roll(d1, d2).numbers, turn).plays
        (m, o), steps = rng.choice(sorted(plays.items()))
        yield me, opp, (d1, d2), turn, steps
        me, opp = o, m


def _check_play_exact(rules, me, opp, dice, turn, steps, rng):
    full = Dice.roll(*dice).numbers
    written = [(s, d) for s, d, _ in steps]
    tries = [written, written[::-1], written[:1], [(rng.randint(0, 25), rng.randint(0, 24)) for _ in written]]
    if written:
        s, d = written[0]
        tries.append([(s, max(d - 1, 0))] + written[1:])
    for w in tries:
        for bear_off in (True, False):
            assert rules.play_exact(me, opp, full, w, turn, bear_off) == \
                Rules.play_exact(rules, me, opp, full, w, turn, bear_off), (me, opp, dice, w, bear_off)


def _check_hit_flags(rules, me, opp, dice, turn, steps, rng):
    path = [(s, d) for s, d, _ in steps]
    assert rules.hit_flags(me, opp, path) == Rules.hit_flags(rules, me, opp, path), (me, opp, path)


def _check_closed_flags(rules, me, opp, dice, turn, steps, rng):
    # the reference is ``closed`` asked point by point (``Rules.closed_flags`` itself hands the work to the
    # compiled core where it plays the rules); the rules' own with and without their core
    fast, pure, slow = rules.closed_flags(), _without_core(rules).closed_flags(), closed_flags_py(rules)
    for side in (me, opp):
        assert fast(side) == pure(side) == slow(side), side


def _without_core(rules):
    """The same rules without the compiled core: the pure-Python engine's paths."""
    pure = copy.copy(rules)
    pure.core = None
    return pure


def _check_forced(rules, me, opp, dice, turn, steps, rng):
    numbers = Dice.roll(*dice).numbers
    assert rules.forced(me, opp, numbers, turn) == Rules.forced(rules, me, opp, numbers, turn) == \
        (len(generate(rules, me, opp, numbers, turn).plays) <= 1), (me, opp, numbers)


_CHECKS = {"play_exact": _check_play_exact, "hit_flags": _check_hit_flags, "closed_flags": _check_closed_flags,
           "forced": _check_forced}


def test_every_fast_path_has_a_check():
    assert set(_CHECKS) == set(Rules.FAST_PATHS)


# the fast paths each variant writes for itself: the checks above compare them with the default, so a fast path
# that went missing (the default left) would pass them; this pins that each one is there
_OWN_FAST_PATHS = {"backgammon": {"play_exact", "hit_flags", "closed_flags", "forced"},
                   "long": {"closed_flags"}, "gulbara": {"closed_flags"}}


@pytest.mark.parametrize("variant", list(_OWN_FAST_PATHS))
def test_each_variant_keeps_its_own_fast_paths(variant):
    cls = type(get_variant(variant).rules)
    assert {m for m in Rules.FAST_PATHS if getattr(cls, m) is not getattr(Rules, m)} == _OWN_FAST_PATHS[variant]


@pytest.mark.parametrize("method", Rules.FAST_PATHS)
@pytest.mark.parametrize("variant", list(_RULES))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(1, 200))
def test_fast_path_is_the_generic_default(variant, method, seed, plies):
    rules = _RULES[variant]()
    rng = random.Random(seed)
    checked = 0
    for me, opp, dice, turn, steps in _game(rules, rng, plies):
        _CHECKS[method](rules, me, opp, dice, turn, steps, rng)
        checked += 1
    assert checked >= 1


# -- one alias table ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("alias", ["bg", "short-nardy", "Short Nardy", "shortnardy", "backgammon"])
def test_a_backgammon_alias_converts_to_sgf_and_mat(tmp_path, alias):
    """``; [Variation "bg"]`` is backgammon to the notations as to the engine (it was refused: "bg has no
    sgf form")."""
    from typer.testing import CliRunner
    from nardy_analyze.cli import app

    src = tmp_path / "club.mat"
    src.write_text(f'; [Variation "{alias}"]\n' + (ROOT / "examples" / "club-night.mat").read_text(encoding="utf-8"),
                   encoding="utf-8")
    for target in ("sgf", "mat", "json"):
        r = CliRunner().invoke(app, ["convert", "--to", target, "--out-dir", str(tmp_path / target), str(src)],
                               catch_exceptions=False)
        assert r.exit_code == 0, r.output
        assert "1 written, 0 refused" in r.output
    doc = (tmp_path / "json" / "club.json").read_text(encoding="utf-8")
    assert '"variant": "backgammon"' in doc


@pytest.mark.parametrize("alias, title", [("nardy", "long nardy"), ("long-nardy", "long nardy"),
                                          ("gul-bara", "Gul bara"), ("plakoto", "plakoto")])
def test_other_variants_have_no_mat_form(alias, title):
    from nardy_analyze import notation
    from nardy_analyze.record import Game, Loc, Match

    m = Match(path="x.ngn", notation="ngn", tags={"Variant": alias}, games=[Game(number=1, loc=Loc(1, 1))])
    assert f"game 1: {title} has no sgf form" in notation.get("sgf").losses(m)


def test_every_alias_names_one_variant():
    for cls in (engine.Backgammon, engine.LongNardy, engine.GulBara):
        for name in (cls.name, *cls.aliases, cls.name.upper()):
            assert canonical_name(name) == cls.name == get_variant(name).name
    assert canonical_name("plakoto") is None and canonical_name("") == canonical_name(None) == "backgammon"
    with pytest.raises(ValueError):
        register(type("Clash", (Backgammon,), {"name": "clash", "aliases": ("bg",)}))
    assert canonical_name("clash") is None

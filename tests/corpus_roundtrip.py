"""Round trips of one corpus file, in memory through the library API (no subprocess), for a worker pool.

``check_file(path)`` reads the file once, replays it once (:func:`roundtrip.expected`, whose normalised
view the writers share), writes it as ``.sgf``, ``.json`` and ``.ngn``, reads each back (one replay per
middle record, for the ``.mat`` writer), writes that as ``.mat`` and reads it back, and compares:

- the games that come back with the original's normalised games (:mod:`roundtrip`): players, score,
  game numbers, comments, and per action its kind, player, dice, single-die steps (hence positions),
  cube value or points, flags, clock time and comments; match length, tags in order, comment lines;
- the JSON middle record with the original as read (JSON keeps spelling too);
- every JSON document against the schema ``docs/schema/match.schema.json``;
- that no target reports a loss for the record (a lossless conversion says so, and shows it above).

It returns ``(name, games, actions, failures)``; failures are strings, so one run lists them all.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from helpers import ROOT
from nardy_analyze import notation
from nardy_analyze.convert import write_text
from roundtrip import actual, expected, first_difference

SCHEMA_PATH = ROOT / "docs" / "schema" / "match.schema.json"


def _inline(node, defs):
    """The schema with every local ``$ref`` replaced by its definition (the same schema; jsonschema is
    several times faster without reference resolution). The schema has no recursive definition."""
    if isinstance(node, dict):
        if "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/$defs/") and set(node) <= {"$ref", "description"}, node
            return _inline(defs[ref[len("#/$defs/"):]], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(x, defs) for x in node]
    return node


@lru_cache(maxsize=1)
def _validators():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    flat = _inline(schema, schema["$defs"])
    action = flat["properties"]["games"]["items"]["properties"]["actions"]["items"]
    # what the action validator below relies on: "steps" and "move" are checked by their own definitions
    # only; the action's other rules ask whether "steps" is present, never what it holds
    assert json.dumps(action["allOf"]).count('"steps"') == 2 and '"move"' not in json.dumps(action["allOf"])
    V = jsonschema.Draft202012Validator
    return (V(flat), V(action), V(action["properties"]["steps"]["items"]), V(action["properties"]["move"]))


_VALID: set[tuple[str, str]] = set()


def _check(validator, kind: str, value, errors: list[str]) -> None:
    key = (kind, json.dumps(value, sort_keys=True))
    if key in _VALID:
        return
    errs = [f"{kind} {value}: {e.message}" for e in validator.iter_errors(value)]
    if errs:
        errors += errs
    else:
        _VALID.add(key)


def schema_errors(doc: dict) -> list[str]:
    """Errors of ``doc`` against the match schema.  A document is valid when its frame (the document with
    each game's actions left out) is valid and every action is valid against the action definition; an
    action is, when it is valid with its steps left out (the list kept, empty) and without its move number,
    and each step and the move number are valid against their definitions.  Each distinct part (a double,
    a take, the step 13/7) is validated once per process: the same schema, checked in a fraction of the time."""
    whole, action, step, move = _validators()
    frame = dict(doc)
    actions = []
    if isinstance(doc.get("games"), list):
        frame["games"] = []
        for g in doc["games"]:
            if isinstance(g, dict) and isinstance(g.get("actions"), list):
                actions += g["actions"]
                g = {**g, "actions": []}
            frame["games"].append(g)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in whole.iter_errors(frame)]
    for a in actions:
        if not isinstance(a, dict):
            _check(action, "action", a, errors)
            continue
        rest = {k: v for k, v in a.items() if k != "move"}
        if isinstance(a.get("steps"), list):
            rest["steps"] = []
            for s in a["steps"]:
                _check(step, "step", s, errors)
        if "move" in a:
            _check(move, "move", a["move"], errors)
        _check(action, "action", rest, errors)
    return errors


def _problems(m) -> list:
    return list(m.problems) + [p for g in m.games for p in g.problems]


def check_file(path: str) -> tuple[str, int, int, list[str]]:
    name = str(Path(path).relative_to(ROOT.parent / "shared" / "corpus")) if "corpus" in path else path
    fails: list[str] = []
    m = notation.read_path(path)
    if _problems(m):
        return name, len(m.games), 0, [f"{name}: original unreadable: {_problems(m)[:3]}"]
    want = expected(m)                      # the one replay of the original; writers reuse it
    want_nosp = expected(m, spelling=False)
    mat = notation.get("mat")
    for via in ("sgf", "json", "ngn"):
        target = notation.get(via)
        lost = target.losses(m)
        if lost:
            fails.append(f"{name} -> {via}: reports losses {lost}")
        text = write_text(m, via)
        if via == "json":
            fails += [f"{name} -> json: schema: {e}" for e in schema_errors(json.loads(text))[:3]]
        middle = notation.read_text(text, "x." + via)
        if _problems(middle):
            fails.append(f"{name} -> {via}: reading it back: {_problems(middle)[:3]}")
            continue
        if via == "json" and actual(middle) != actual(m):
            fails.append(f"{name} -> json: {first_difference(actual(m), actual(middle))}")
        back = notation.read_text(write_text(middle, "mat"), "y.mat")     # one replay of the middle record
        if _problems(back):
            fails.append(f"{name} -> {via} -> mat: reading it back: {_problems(back)[:3]}")
            continue
        got, wanted = (actual(back, spelling=False), want_nosp) if via == "ngn" else (actual(back), want)
        if got != wanted:
            fails.append(f"{name} -> {via} -> mat: {first_difference(wanted, got)}")
    return name, len(m.games), sum(len(g.actions) for g in m.games), fails

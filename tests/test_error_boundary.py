"""One error boundary: a bug in a reader, the engine or the replay is an ``internal-error`` naming the
version, with exit code 2, and the other files are still processed, in every command that reads
records (validate, convert, stats, analyze, show); never a ``parse-error`` (a problem of the file) and
never a traceback.  The bug is planted with monkeypatch: the patched function raises on its first call,
so the first file (``a.mat``) meets it and the second (``b.mat``) does not."""
from __future__ import annotations

import json

import pytest

from helpers import ROOT
from nardy_analyze import __version__
from nardy_analyze.engine.backgammon import Backgammon
from nardy_analyze.notation import ReadError, mat
from nardy_analyze.record import Loc
from nardy_analyze.replay import game as replay_game

RECORD = (ROOT / "tests" / "fixtures" / "selfplay" / "selfplay_0101_1pt.mat").read_bytes()

# where a bug is planted: (class or module, the name of its method or function)
PLACES = {"reader": (mat._Reader, "run"), "engine": (Backgammon, "initial"), "replay": (replay_game, "finish")}


class Planted(RuntimeError):
    pass


def plant(monkeypatch, where: str) -> None:
    cls, name = PLACES[where]
    real = getattr(cls, name)
    calls = [0]

    def once(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 1:
            raise Planted(f"planted in the {where}")
        return real(*args, **kwargs)

    monkeypatch.setattr(cls, name, once)


@pytest.fixture
def two(tmp_path):
    (tmp_path / "a.mat").write_bytes(RECORD)
    (tmp_path / "b.mat").write_bytes(RECORD)
    return tmp_path


def said_internal(text: str, path) -> bool:
    """``text`` names the internal error of ``path`` with the version (in any language: the version and
    the exception are not translated)."""
    return any(str(path) in ln and __version__ in ln and "Planted" in ln for ln in text.splitlines())


@pytest.mark.parametrize("where", sorted(PLACES))
def test_validate(two, monkeypatch, where, cli):
    plant(monkeypatch, where)
    code, out, err = cli("validate", "-j", "1", "--format", "json", two)
    assert code == 2
    doc = json.loads(out)
    by_file = {}
    for f in doc["findings"]:
        by_file.setdefault(f["path"].rsplit("/", 1)[1], []).append(f)
    [bug] = by_file["a.mat"]
    assert bug["rule"] == "internal-error" and __version__ in bug["message"] and "Planted" in bug["message"]
    assert all(f["rule"] != "internal-error" for f in by_file.get("b.mat", []))
    assert "parse-error" not in {f["rule"] for f in doc["findings"]}
    assert doc["summary"]["files"] == 2 and doc["summary"]["internal_errors"] == 1
    assert said_internal(err, two / "a.mat")                  # on standard error too


@pytest.mark.parametrize("where", sorted(PLACES))
def test_validate_text(two, monkeypatch, where, english, cli):
    plant(monkeypatch, where)
    code, out, err = cli("validate", "-j", "1", two)
    assert code == 2
    line = next(ln for ln in out.splitlines() if "internal-error" in ln)
    assert line.startswith(f"{two / 'a.mat'}:1:1: internal-error: internal error in nardy-analyze {__version__}")
    assert "please report this" in line and "parse-error" not in out


@pytest.mark.parametrize("where", sorted(PLACES))
def test_convert(two, tmp_path, monkeypatch, where, cli):
    plant(monkeypatch, where)
    out_dir = tmp_path / "out"
    code, out, err = cli("convert", "--to", "sgf", "-j", "1", "--out-dir", out_dir, two)
    assert code == 2
    assert said_internal(err, two / "a.mat")
    assert sorted(p.name for p in out_dir.iterdir()) == ["b.sgf"]        # the other file is converted


@pytest.mark.parametrize("where", sorted(PLACES))
def test_stats(two, monkeypatch, where, cli):
    pytest.importorskip("pandas")
    plant(monkeypatch, where)
    code, out, err = cli("stats", "-j", "1", "--by", "game", "-f", "csv", two)
    assert code == 2
    assert said_internal(err, two / "a.mat") and "parse-error" not in err
    rows = [ln for ln in out.splitlines()[1:] if ln]
    assert rows and all("b.mat" in ln for ln in rows) and not any("a.mat" in ln for ln in rows)


@pytest.mark.parametrize("where", sorted(PLACES))
def test_analyze(two, monkeypatch, where, cli):
    pytest.importorskip("pandas")
    from nardy_analyze.stats import skill
    if not skill.engine_available():
        pytest.skip("the analysis extra (bgsage) is not installed")
    plant(monkeypatch, where)
    code, out, err = cli("analyze", "-j", "1", "--by", "game", "-f", "csv", two)
    assert code == 2
    assert said_internal(err, two / "a.mat") and "parse-error" not in err
    rows = [ln for ln in out.splitlines()[1:] if ln]
    assert rows and all("b.mat" in ln for ln in rows)


@pytest.mark.parametrize("where", sorted(PLACES))
@pytest.mark.parametrize("as_", ["text", "gnubg", "svg", "html"])
def test_show(two, monkeypatch, where, as_, cli):
    plant(monkeypatch, where)
    code, out, err = cli("show", "--as", as_, two / "a.mat")
    assert code == 2 and out == ""
    assert said_internal(err, two / "a.mat") and "warning" not in err
    code, out, err = cli("show", "--as", as_, two / "b.mat")       # the bug met once: the next runs
    assert code == 0 and out


def test_a_readers_own_error_is_a_problem_of_the_file(tmp_path, monkeypatch, cli):
    """What a reader raises on purpose (input it cannot read on) stays a parse-error of the file, exit 1."""
    def cannot(self):
        raise ReadError(Loc(3, 7), "cannot read on here")

    monkeypatch.setattr(mat._Reader, "run", cannot)
    (tmp_path / "a.mat").write_bytes(RECORD)
    code, out, _ = cli("validate", "--format", "json", tmp_path / "a.mat")
    assert code == 1
    [f] = json.loads(out)["findings"]
    assert (f["rule"], f["line"], f["column"], f["message"]) == ("parse-error", 3, 7, "cannot read on here")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_what_was_being_done_is_a_value_with_its_own_message(lang):
    """The runner's guard words an internal error by what was being done (``runner.Doing``, a work
    function's ``doing``), each in the catalog: a different sentence for each, in English and Russian,
    with the version and the exception."""
    from nardy_analyze.convert import _convert_entry
    from nardy_analyze.i18n import set_language
    from nardy_analyze.runner import Doing, guarded, internal_error_message

    set_language(lang)
    try:
        texts = {d: internal_error_message(Planted("x"), d) for d in Doing}
        assert len(set(texts.values())) == len(Doing)
        assert all(__version__ in t and "Planted: x" in t for t in texts.values())
        assert all(("internal error" in t) == (lang == "en") for t in texts.values())

        def bad_load(entry, max_bytes):
            raise Planted("x")

        def bad_work(entry, match):
            raise Planted("x")

        assert guarded(bad_work, None, (), None, bad_load) == ("internal-error", texts[Doing.READING])
        assert guarded(bad_work, None, (), None, lambda e, m: None) == ("internal-error", texts[Doing.VALIDATING])
        assert _convert_entry.doing is Doing.CONVERTING
    finally:
        set_language("en")

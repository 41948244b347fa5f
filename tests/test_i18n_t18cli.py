"""The command line in Russian: ``--lang ru|en`` on every command, else the environment's language; every
``--help``, the usage errors of typer/click, the commands' own messages; the fast path and the typer path
alike; the worker processes and the Dask workers in the command's language.  English stays as it was
(tests/test_fastcli.py and the rest of the suite compare it)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import EXAMPLES, ROOT
from nardy_analyze import fastcli, inputs, runner
from nardy_analyze.commands import NAMES
from nardy_analyze.i18n import ENV, set_language

CYRILLIC = re.compile("[А-Яа-яЁё]")
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", ENV)
# the command line through typer even where the fast path would read it (the language chosen as run() does)
TYPER = ("import sys; from nardy_analyze import fastcli; fastcli.run_fast = lambda: None; "
         "sys.argv[0] = 'nardy-analyze'; fastcli.run()")
FAST = "import sys; from nardy_analyze.fastcli import run; sys.argv[0] = 'nardy-analyze'; run()"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARS}
    env.update(PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8", COLUMNS="100", **extra)
    return env


def _run(args: list[str], cwd: Path = ROOT, code: str | None = None, **env: str) -> tuple[int, str, str]:
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "nardy_analyze", *args]
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=_env(**env))
    return r.returncode, r.stdout, r.stderr


@pytest.fixture
def notes(tmp_path: Path) -> Path:
    """A folder of a text file that is no game record (validate: exit 2, 'no game records found')."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "notes.txt").write_text("no record here\n", encoding="utf-8")
    return folder


# ------------------------------------------------------------------------------- the language chosen

@pytest.mark.parametrize("args", [
    ["validate", "examples/"],
    ["validate", "examples/", "--select", "no-such-rule"],
    ["convert", "examples/club-night.mat", "--to", "sgf", "-o", "-"],
])
def test_lang_option_and_russian_environment_give_the_same_text(args):
    by_env = _run(args, LANG="ru_RU.UTF-8")
    by_option = _run(args + ["--lang", "ru"])
    by_equals = _run(args + ["--lang=ru"])
    assert by_env == by_option == by_equals
    if "--select" in args:
        assert by_option[0] == 2
        assert "--select: неизвестные идентификаторы правил: no-such-rule" in by_option[2]
    if args[0] == "convert":
        assert "записано: 1, отклонено: 0, с ошибкой: 0 (в sgf)" in by_option[2]


def test_no_record_found_in_russian_with_the_plural(notes: Path):
    code, out, err = _run(["validate", str(notes), "--lang", "ru"])
    assert code == 2
    assert f"nardy-analyze: не найдено ни одной записи партии в {notes} (1 файл пропущен: не запись партии)" in err
    (notes / "more.txt").write_text("no record either\n", encoding="utf-8")
    assert "(2 файла пропущено: не записи партий)" in _run(["validate", str(notes), "--lang", "ru"])[2]
    english = _run(["validate", str(notes)])
    assert english[2] == f"nardy-analyze: no game records found in {notes} (2 file(s) skipped: not game records)\n"


def test_lang_en_overrides_a_russian_environment():
    args = ["validate", "examples/", "--select", "no-such-rule"]
    english = _run(args)
    assert english == _run(args + ["--lang", "en"], LANG="ru_RU.UTF-8")
    assert english == _run(args + ["--lang", "en"], LANGUAGE="ru", LC_ALL="ru_RU.UTF-8")
    assert english[2] == ("nardy-analyze: --select: unknown rule id(s) no-such-rule; 'nardy-analyze rules' "
                          "lists them\n")
    # an English or C locale first: English, though a Russian one follows
    assert english == _run(args, LANGUAGE="en_GB:ru")
    assert english == _run(args, LANG="C.UTF-8")


@pytest.mark.parametrize("value", ["xx", "RU", ""])
def test_an_unknown_language_is_a_usage_error(value):
    for args in (["validate", "examples/", "--lang", value], ["validate", "examples/", f"--lang={value}"],
                 ["rules", "--lang", value]):
        code, out, err = _run(args)
        assert code == 2, args
        assert out == ""
        assert "--lang" in err and "'en', 'ru'" in err, err


# ------------------------------------------------------------------------------------------ --help

def _panel_rows(text: str) -> list[str]:
    """The rows of the help's panels (an option or argument with its help), continuation lines joined."""
    rows: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("╭─"):
            inside = True
            continue
        if line.startswith("╰"):
            inside = False
            continue
        if not inside:
            continue
        cell = line.strip("│").rstrip()
        if re.match(r"\s{1,6}(\*\s+)?(--?[\w-]|[A-Z][A-Z.]+)", cell):
            rows.append(cell)
        elif rows:
            rows[-1] += " " + cell.strip()
    return rows


@pytest.mark.parametrize("command", [None, *NAMES])
def test_every_help_is_russian(command):
    args = ([command] if command else []) + ["--help", "--lang", "ru"]
    code, out, err = _run(args)
    assert code == 0 and err == ""
    for english in ("Usage:", "Options", "Arguments", "Show this message and exit", "[default:", "[required]"):
        assert english not in out, english
    assert "Использование:" in out and "─ Опции ─" in out
    rows = _panel_rows(out)
    assert len(rows) >= 2, out
    for row in rows:
        assert CYRILLIC.search(row), row            # every option's and argument's help is translated
    head = out[:out.index("╭")]
    assert len(CYRILLIC.findall(head)) > 20, head   # the command's own description
    if command in ("validate", "stats", "analyze"):
        assert "[по умолчанию:" in out
    assert _run(args, LANG="ru_RU.UTF-8")[1] == _run(args[:-2], LANG="ru_RU.UTF-8")[1] == out


def test_help_in_english_is_untouched():
    out = _run(["validate", "--help", "--lang", "en"], LANG="ru_RU.UTF-8")[1]
    assert out == _run(["validate", "--help"])[1]
    assert "Usage:" in out and "Show this message and exit." in out and not CYRILLIC.search(out)


@pytest.mark.parametrize("args, expected", [
    (["validate"], "Не указан аргумент 'PATH...'."),
    (["show", "--game", "x", "examples/club-night.mat"], "Неверное значение '--game' / '-g': 'x' — не целое число."),
    (["show", "--bogus", "examples/club-night.mat"], "Нет такой опции: --bogus"),
    (["stats", "--by", "team", "examples/"], "'team' — не одно из значений 'player', 'game', 'match'."),
    (["show", "examples/club-night.mat", "extra"], "Лишние аргументы (extra)"),
])
def test_usage_errors_in_russian(args, expected):
    code, out, err = _run(args + ["--lang", "ru"])
    assert code == 2 and out == ""
    assert "Использование: " in err and "Справка: «" in err and "─ Ошибка ─" in err
    assert expected in " ".join(line.strip("│ ") for line in err.splitlines()), err
    assert "Usage" not in err and "Error" not in err and "Try " not in err


def test_commands_messages_in_russian(tmp_path: Path):
    code, _, err = _run(["stats", "examples/", "--plot", str(tmp_path / "x.pdf"), "--lang", "ru"])
    assert (code, err) == (2, f"nardy-analyze: --plot: {tmp_path / 'x.pdf'}: имя файла должно оканчиваться на "
                              ".png или .svg\n")
    code, _, err = _run(["generate", "--variant", "long", "--players", "A", "--lang", "ru"])
    assert (code, err) == (2, "nardy-analyze: --players принимает два имени через запятую, а не 'A'\n")
    code, _, err = _run(["validate", "examples/", "--scheduler", "tcp://x:1", "--engine", "local", "--lang", "ru"])
    assert code == 2 and "--scheduler требует --engine dask" in err
    code, _, err = _run(["show", "examples/club-night.mat", "-o", str(tmp_path), "--lang", "ru"])
    assert code == 2 and f"нельзя записать в {tmp_path}: это папка (-o принимает имя файла)" in err


def test_convert_summary_in_russian_and_english(tmp_path: Path):
    work = tmp_path / "w"
    shutil.copytree(EXAMPLES, work)
    (work / "notes.txt").write_text("no record here\n", encoding="utf-8")
    code, _, err = _run(["convert", ".", "--to", "sgf", "--lang", "ru"], cwd=work)
    last = err.splitlines()[-1]
    assert re.fullmatch(r"записано: \d+, отклонено: \d+, с ошибкой: 0, пропущено: \d+ \((?:\d+ уже в sgf, )?"
                        r"1 не запись партии; их перечисляет --verbose\) \(в sgf\)", last), last
    code, _, err = _run(["convert", ".", "--to", "sgf"], cwd=work)          # again: all already sgf
    last = err.splitlines()[-1]
    assert re.fullmatch(r"0 written, \d+ refused, \d+ failed, \d+ skipped \(\d+ already sgf, 1 not a game record; "
                        r"--verbose lists them\) \(to sgf\)", last), last


# ------------------------------------------------------------------------ fast path and typer agree

@pytest.mark.parametrize("args", [
    ["validate", "examples", "--select", "no-such-rule", "--lang", "ru"],
    ["validate", "examples", "-f", "json", "--lang=ru"],
    ["validate", "notes", "--lang", "ru"],
    ["convert", "examples/club-night.mat", "--to", "sgf", "-o", "-", "--lang", "ru"],
    ["convert", "examples", "--to", "ngn", "--lang", "ru", "-v"],
    ["convert", "examples/club-night.mat", "--to", "mat", "--analyse", "--lang", "ru", "-o", "-"],
])
def test_fast_path_and_typer_give_the_same_russian(tmp_path: Path, args):
    assert fastcli.parse(args) is not None, args          # the fast path reads it (else nothing is compared)
    results = []
    for name, code in (("typer", TYPER), ("fast", FAST)):
        work = tmp_path / name
        shutil.copytree(EXAMPLES, work / "examples")
        (work / "notes").mkdir()
        (work / "notes" / "notes.txt").write_text("no record here\n", encoding="utf-8")
        results.append(_run(args, cwd=work, code=code))
    assert results[0] == results[1]
    assert CYRILLIC.search(results[0][2]) or "json" in args, results[0]


# ------------------------------------------------------------------------------- worker processes

def _work(entry, match):
    return entry.path


def _broken_load(entry, max_bytes):
    raise RuntimeError("a reader's bug")


def _records(tmp_path: Path, n: int = 4) -> list:
    for i in range(n):
        shutil.copy(EXAMPLES / "club-night.mat", tmp_path / f"r{i}.mat")
    return list(inputs.discover([str(tmp_path)]))


def test_worker_processes_make_their_messages_in_the_language(tmp_path: Path, russian):
    entries = _records(tmp_path)
    results = list(runner.map_records(entries, _work, load=_broken_load, jobs=2))
    assert len(results) == 4
    for _, kind, value in results:
        assert kind == "internal-error"
        assert value.startswith("внутренняя ошибка nardy-analyze ")
        assert "при чтении этого файла: RuntimeError: a reader's bug; файл проверен не полностью" in value


def test_worker_processes_of_the_command_line_follow_lang():
    """-j 2 (the findings made in two worker processes) gives the text of one process, in either way of
    choosing the language."""
    two = _run(["validate", "examples/", "-j", "2", "--lang", "ru"])
    assert two == _run(["validate", "examples/", "-j", "1"], LANG="ru_RU.UTF-8")
    assert two[0] == 1 and two[1].count("\n") > 10


def test_dask_workers_get_the_language_with_the_task(tmp_path: Path):
    pytest.importorskip("distributed", reason="Dask is not installed (pip install '.[dask]')")
    import cloudpickle

    from nardy_analyze.cluster import connect

    cloudpickle.register_pickle_by_value(sys.modules[__name__])    # the workers need not import this file
    entries = _records(tmp_path, 2)
    set_language("en")                 # the workers start in English...
    try:
        with connect(None, jobs=1) as engine:
            set_language("ru")         # ...and the command's language goes with each task
            got = list(runner.map_records(entries, _work, load=_broken_load, engine=engine))
            assert [kind for _, kind, _ in got] == ["internal-error"] * 2
            assert all(v.startswith("внутренняя ошибка nardy-analyze ") for _, _, v in got), got
            set_language("en")
            got = list(runner.map_records(entries, _work, load=_broken_load, engine=engine))
            assert all(v.startswith("internal error in nardy-analyze ") for _, _, v in got), got
    finally:
        set_language(None)

"""The message catalogs and the choice of language (nardy_analyze/i18n.py, scripts/catalogs.py, docs/i18n.md).

The catalog test extracts the messages from the code as the maintainers' tool does, so a new English message
without its Russian translation (or with a fuzzy or obsolete entry, or with other {fields}) fails here.
"""
from __future__ import annotations

import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import catalogs  # noqa: E402

sys.path.pop(0)

from nardy_analyze import i18n  # noqa: E402

RU = ROOT / "nardy_analyze" / "locale" / "ru" / "LC_MESSAGES" / "nardy_analyze.po"


@pytest.fixture
def clean_env(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", i18n.ENV):
        monkeypatch.delenv(var, raising=False)
    i18n.set_language(None)
    yield monkeypatch
    i18n.set_language(None)


@pytest.fixture(scope="module")
def template():
    pytest.importorskip("babel", reason="extracting the messages needs Babel (the test extra: pip install '.[test]')")
    return catalogs.extract()


def test_the_code_has_messages_to_translate(template):
    ours = [m for m in template if m.id and any(loc[0].startswith("nardy_analyze/") for loc in m.locations)]
    assert len(ours) > 300, "the extraction finds the package's messages"
    theirs = [m for m in template if m.id and any(loc[0].startswith(("click/", "typer/")) for loc in m.locations)]
    assert theirs, "and click's and typer's"


def test_every_message_has_its_russian_translation(template):
    problems = catalogs.problems(RU, template)
    assert not problems, f"{len(problems)} problem(s) in the Russian catalog (python3 scripts/catalogs.py " \
                         "update, translate, then check):\n" + "\n".join(problems[:60])


def test_the_check_catches_what_it_must(tmp_path, template):
    """The check itself: a missing, an untranslated, a fuzzy, an obsolete entry and a changed field are found."""
    from babel.messages.catalog import Catalog

    catalog = catalogs.read(RU)
    ids = [m for m in catalog if m.id and isinstance(m.id, str) and "{" in m.id]
    assert ids, "the catalog has messages with fields"
    victim = ids[0]
    broken = Catalog(locale="ru", domain=catalogs.DOMAIN)
    for m in catalog:
        if m.id and m.id != victim.id:
            broken[m.id] = m
    first = next(m for m in broken if m.id and isinstance(m.id, str) and m.id != victim.id)
    first.string = ""
    broken.add("a message nobody uses any more", "сообщение")
    second = next(m for m in broken if m.id and isinstance(m.id, str) and m.string and "{" in m.id
                  and m.id != first.id)
    second.string = second.string.replace("{", "{x", 1)
    third = next(m for m in broken if m.id and isinstance(m.id, str) and m.string and m.id not in (first.id, second.id))
    third.flags.add("fuzzy")
    po = tmp_path / "ru" / "LC_MESSAGES" / "nardy_analyze.po"
    po.parent.mkdir(parents=True)
    catalogs.write(po, broken)
    found = "\n".join(catalogs.problems(po, template))
    assert f"missing: {victim.id!r}" in found
    assert f"untranslated: {first.id!r}" in found
    assert "obsolete (not in the code): 'a message nobody uses any more'" in found
    assert "are not those of the English" in found and repr(second.id) in found
    assert f"fuzzy: {third.id!r}" in found


def test_plural_forms_of_russian():
    with open(RU.with_suffix(".mo"), "rb") as fp:
        t = gettext.GNUTranslations(fp)
    assert t.info()["language"] == "ru"
    catalog = catalogs.read(RU)
    plurals = [m for m in catalog if m.id and not isinstance(m.id, str)]
    assert plurals, "the catalog has plural messages"
    for m in plurals:
        assert len(m.string) == 3 and all(m.string), m.id
        forms = [t.ngettext(m.id[0], m.id[1], n) for n in (1, 2, 5, 11, 21, 22, 25, 111, 0)]
        assert forms == [m.string[0], m.string[1], m.string[2], m.string[2], m.string[0], m.string[1],
                         m.string[2], m.string[2], m.string[2]], m.id


def test_language_from_the_environment_as_gettext_reads_it(clean_env):
    assert i18n.language() == "en"
    for env, want in [({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),
                      ({"LANGUAGE": "ru:en", "LANG": "C.UTF-8"}, "ru"), ({"LANGUAGE": "en", "LANG": "ru_RU"}, "en"),
                      ({"LC_MESSAGES": "ru_UA.UTF-8"}, "ru"), ({"LANG": "C"}, "en"), ({"LANG": "POSIX"}, "en"),
                      ({"LANG": "de_DE.UTF-8"}, "en"), ({"LANGUAGE": "de:ru"}, "ru"), ({"LANG": "ru"}, "ru")]:
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
            clean_env.delenv(var, raising=False)
        for var, value in env.items():
            clean_env.setenv(var, value)
        i18n.set_language(None)
        assert i18n.language() == want, env


def test_set_language_wins_over_the_environment_and_reaches_child_processes(clean_env):
    clean_env.setenv("LANG", "ru_RU.UTF-8")
    i18n.set_language("en")
    assert i18n.language() == "en" and os.environ[i18n.ENV] == "en"
    out = subprocess.run([sys.executable, "-c", "from nardy_analyze import i18n; print(i18n.language())"],
                         capture_output=True, text=True, cwd=ROOT, check=True).stdout.strip()
    assert out == "en"
    i18n.set_language(None)
    assert i18n.language() == "ru"


def test_english_is_the_message_as_written(clean_env):
    i18n.set_language("en")
    assert i18n._("no such message {x}") == "no such message {x}"
    assert i18n.ngettext("{n} game", "{n} games", 1) == "{n} game"
    assert i18n.ngettext("{n} game", "{n} games", 2) == "{n} games"
    assert i18n.pgettext("ctx", "home") == "home"


def test_a_russian_message(clean_env):
    catalog = catalogs.read(RU)
    m = next(m for m in catalog if m.id and isinstance(m.id, str) and m.string and not m.context)
    i18n.set_language("ru")
    assert i18n._(m.id) == m.string
    i18n.set_language("en")
    assert i18n._(m.id) == m.id


def test_no_message_is_translated_at_import_time():
    """Every module of the package imports without making a translated message (the language is chosen after
    the imports: a message made at import would stay in the language of the moment). The command line's
    typer module is the exception: it is imported after --lang is read."""
    code = ("import importlib, pkgutil, nardy_analyze, nardy_analyze.i18n as i\n"
            "for m in pkgutil.walk_packages(nardy_analyze.__path__, 'nardy_analyze.'):\n"
            "    if m.name not in ('nardy_analyze.__main__', 'nardy_analyze.cli'):\n"
            "        importlib.import_module(m.name)\n"
            "print(i._translation is None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, i18n.ENV: "ru"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True", "a module translates a message when it is imported"


def test_the_install_compiles_the_catalogs(tmp_path):
    """setup.py's build step writes the compiled catalog into the build (the wheel ships it)."""
    out = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    mo = tmp_path / "nardy_analyze" / "locale" / "ru" / "LC_MESSAGES" / "nardy_analyze.mo"
    with open(mo, "rb") as fp:
        assert gettext.GNUTranslations(fp).info()["language"] == "ru"


def test_skipped_files_are_counted_by_kind_in_russian(tmp_path):
    """The summary groups the skipped files by why, whatever the language the reasons were made in."""
    (tmp_path / "club.mat").write_bytes((ROOT / "examples" / "club-night.mat").read_bytes())
    (tmp_path / "list.txt").write_text("shopping list\n", encoding="utf-8")
    (tmp_path / ".hidden.mat").write_text("x\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", i18n.ENV)}
    out = {lang: subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", str(tmp_path), "--lang", lang],
                                capture_output=True, text=True, cwd=ROOT, env=env).stdout.splitlines()[-1]
           for lang in ("en", "ru")}
    assert out["en"] == "2 file(s) skipped: hidden files, not game records (--verbose lists them)"
    # each kind worded for its own count: one hidden file, one file that is no record
    assert out["ru"] == "2 файла пропущено: скрытый файл, не запись партии (список — с --verbose)"


def test_help_and_a_usage_error_in_russian():
    """The typer command line in Russian: its own help headings (typer's gettext), the option help (ours) and
    the usage errors of typer's copy of click (nardy_analyze/typertext.py)."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", i18n.ENV)}
    env["COLUMNS"] = "200"
    out = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", "--help", "--lang", "ru"],
                         capture_output=True, text=True, cwd=ROOT, env=env)
    assert out.returncode == 0, out.stderr
    assert "Использование:" in out.stdout or "Использование" in out.stdout, out.stdout[:400]
    assert "Options" not in out.stdout and "Show this message and exit" not in out.stdout
    bad = subprocess.run([sys.executable, "-m", "nardy_analyze", "validate", "--no-such-option", "x",
                          "--lang", "ru"], capture_output=True, text=True, cwd=ROOT, env=env)
    assert bad.returncode == 2
    assert "--no-such-option" in bad.stderr and "No such option" not in bad.stderr
    assert any("\u0400" <= ch <= "\u04ff" for ch in bad.stderr), bad.stderr


def test_tests_are_collected_without_babel(tmp_path):
    """Without Babel (the plain test extra less Babel) the suite is still collected: conftest.py leaves the
    catalogs as they are, says so in the run's header, and the catalog checks skip with the reason."""
    runner = tmp_path / "no_babel.py"
    runner.write_text("import sys\nsys.modules['babel'] = None   # import babel fails, as where it is not installed\n"
                      "import pytest\nsys.exit(pytest.main(sys.argv[1:]))\n")
    r = subprocess.run([sys.executable, str(runner), "-p", "no:cacheprovider", "-rs",
                        str(ROOT / "tests" / "test_i18n.py"), "-k", "every_message_has"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "message catalogs not compiled: Babel is not installed" in r.stdout
    assert "1 skipped" in r.stdout and "needs Babel" in r.stdout

"""The suite passes in any locale: tests that match English message text run under a Russian environment
(``LANGUAGE=ru``, ``LANG=ru_RU.UTF-8``, no ``NARDY_ANALYZE_LANG``) and pass, because tests/conftest.py
starts every test with the messages in English.  A representative set: the command line through
subprocesses (text, JSON, the summary), statistics, the analysis, reading and conversion, hand-typed
records, archives.  The run under the Russian environment is slow (pytest in a subprocess)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import ROOT

# tests that compare English text: failed under LANGUAGE=ru before conftest pinned the language
REPRESENTATIVE = [
    "tests/test_cli_output.py::test_text_is_compiler_style_and_matches_json",
    "tests/test_cli_output.py::test_select_ignore_and_statistics",
    "tests/test_stats.py::test_bad_files_are_reported_and_the_others_counted",
    "tests/test_stats.py::test_bad_arguments",
    "tests/test_analysis_outputs.py::test_validate_analyse_says_in_one_line_when_no_engine_exists",
    "tests/test_hand_typed.py",
    "tests/test_archives.py",
    "tests/test_inputs.py::test_skips_do_not_change_the_exit_code",
]


@pytest.mark.slow
@pytest.mark.parametrize("env", [{"LANGUAGE": "ru"}, {"LANG": "ru_RU.UTF-8", "LC_ALL": "ru_RU.UTF-8"}],
                         ids=["LANGUAGE", "LANG"])
def test_message_text_tests_pass_under_a_russian_environment(env):
    base = {k: v for k, v in os.environ.items()
            if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NARDY_ANALYZE_LANG", "NARDY_FULL")}
    p = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *REPRESENTATIVE],
                       cwd=ROOT, env={**base, **env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    assert " passed" in p.stdout and " failed" not in p.stdout


def test_the_pin_is_english_and_yields_to_a_test_that_asks_for_russian(russian):
    from nardy_analyze.i18n import _, language

    assert language() == "ru" and _("no findings") != "no findings"


def test_every_test_starts_in_english():
    from nardy_analyze.i18n import ENV, language

    assert os.environ.get(ENV) == "en" and language() == "en"

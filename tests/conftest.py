"""The quick suite and the full one.

A plain ``python3 -m pytest -q`` leaves out the tests marked ``slow`` (the shared corpus, GNU Backgammon,
the browser, many subprocesses); it still imports and exercises every module. ``NARDY_FULL=1`` runs
everything (``.ci/run`` does); an explicit ``-m`` expression (``-m slow``) is obeyed as written.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def _compile_catalogs() -> str:
    """The checkout's message catalogs compiled (.po -> .mo, when a .mo is missing or older), as the install
    does: the tests read the translations the way an installed copy does.  Without Babel (the compiler) the
    catalogs are left as they are and the note returned says so (shown in the run's header): the tests that
    pin English or assert rule ids run as always; those in Russian read the .mo there is (none: they fail)."""
    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        import catalogs
    finally:
        sys.path.remove(str(scripts))
    try:
        import babel  # noqa: F401  (scripts/catalogs.py compiles with it)
    except ImportError:
        pos = catalogs.catalogs()
        missing = [po for po in pos if not po.with_suffix(".mo").exists()]
        stale = [po for po in pos if po not in missing and po.with_suffix(".mo").stat().st_mtime < catalogs.newest(po)]
        note = "message catalogs not compiled: Babel is not installed (pip install babel, or the test extra)"
        if missing:
            return note + "; no .mo for " + ", ".join(str(po.parent.parent.name) for po in missing) + \
                ": the tests in that language fail, those that pin English run"
        if stale:
            return note + "; the .mo files are older than their .po: the tests read the translations compiled before"
        return note + "; the .mo files there are up to date"
    catalogs.compile_all(stale_only=True)
    return ""


CATALOG_NOTE = _compile_catalogs()


def _build_core() -> str:
    """The checkout's compiled core (nardy_analyze/engine/_core.c) built in place when it is missing or older
    than its source, as ``pip install .`` builds it: the tests run the engine the installed tool runs (and
    tests/test_core_twin.py compares it with the Python reference).  Nothing is built with
    ``NARDY_ANALYZE_PURE`` set; a build that fails (no C compiler) leaves the pure-Python engine, and the
    note returned says so (shown in the run's header)."""
    import subprocess

    root = Path(__file__).resolve().parent.parent
    source = root / "nardy_analyze" / "engine" / "_core.c"
    if os.environ.get("NARDY_ANALYZE_PURE") or not source.exists():
        return ""
    fresh = True
    for src in (source, root / "nardy_analyze" / "notation" / "_matrows.c"):   # the engine's, the .mat reader's
        built = list(src.parent.glob(src.stem + "*.so")) + list(src.parent.glob(src.stem + "*.pyd"))
        fresh = fresh and bool(built) and min(b.stat().st_mtime for b in built) >= src.stat().st_mtime
    if fresh:
        return ""
    r = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=root,
                       capture_output=True, text=True)
    if r.returncode != 0 or not list(source.parent.glob("_core*.so")) + list(source.parent.glob("_core*.pyd")):
        return "the compiled core could not be built here (the tests run the pure-Python engine): " + \
            ((r.stderr + r.stdout).strip().splitlines() or ["no message"])[-1]
    return ""


CORE_NOTE = _build_core()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """Every test starts with the messages in English, whatever the environment's language (``LANGUAGE=ru``,
    ``LANG=ru_RU.UTF-8``): tests that match message text pass anywhere.  A hook, not an autouse fixture (a
    function-scoped fixture would trip Hypothesis's health check on every @given test).  The pin is
    ``NARDY_ANALYZE_LANG=en`` (i18n.set_language), which worker processes and subprocesses inherit; a test
    that wants Russian asks for it: the ``russian`` fixture, ``set_language("ru")``, or a subprocess
    environment that sets ``NARDY_ANALYZE_LANG`` or clears it with the locale variables
    (tests/test_locale_proof.py runs command tests under a Russian environment)."""
    from nardy_analyze.i18n import set_language

    set_language("en")


@pytest.fixture
def russian():
    """The messages made in the test in Russian (nardy_analyze.i18n), the environment's language after."""
    from nardy_analyze.i18n import set_language

    set_language("ru")
    yield
    set_language(None)


@pytest.fixture
def english():
    """The messages made in the test in English, whatever the environment says."""
    from nardy_analyze.i18n import set_language

    set_language("en")
    yield
    set_language(None)


@pytest.fixture
def cli():
    """The command line: ``cli(*args)`` in this process, ``cli.subprocess(*args)`` in a process of its own;
    each gives a ``CliResult`` (``exit_code``, ``stdout``, ``stderr``, ``output``; it unpacks as the first
    three) and fails the test on a traceback (tests/helpers.py, ``Cli``: what hypothesis tests and module
    fixtures, which take no function fixture, import as ``helpers.cli``)."""
    from helpers import cli as run

    return run


# whole files of slow tests (GNU Backgammon, the browser, the shared corpus, signals to many processes)
SLOW_FILES = {"test_corpus.py", "test_engine_corpus_gnubg.py", "test_gnubg_oracle.py", "test_convert_gnubg.py",
              "test_skill_gnubg.py", "test_stats_gnubg.py", "test_html_browser.py", "test_replayer_browser.py",
              "test_interrupt.py",
              # the command line in Russian: dozens of subprocesses (every --help, both paths, the workers,
              # Dask); tests/test_i18n.py keeps a quick one of the typer path in Russian
              "test_i18n_t18cli.py"}


# single tests that take many seconds each (differential and property tests over many generated games, the
# engine's evaluations, many subprocesses): in the full suite only; their files keep quick tests of the same
# modules
SLOW_TESTS = {
    "test_evaluator.py::test_analyze_summarises_a_long_game_with_the_backgammon_columns",
    "test_evaluator.py::test_hint_refuses_bad_input_with_a_message_and_exit_2",
    "test_evaluator.py::test_the_bot_protocol_answers_every_line_whatever_it_holds",
    "test_skill.py::test_the_long_games_are_analysed_by_the_shipped_evaluator",
    "test_i18n_t18report.py::test_stats_csv_and_json_columns_unchanged",
    "test_i18n_t18report.py::test_stats_table_and_markdown_headings_in_russian",
    "test_i18n_t18report.py::test_plot_labels_in_russian",
    "test_i18n_t18report.py::test_show_ids_keep_their_form_and_refuse_in_russian",
    "test_names_scripts.py::test_text_output_on_terminals_without_those_letters",
    "test_engine_long.py::test_differential_against_naive_generator",
    "test_engine_gulbara.py::test_differential_against_naive_generator",
    "test_mutations.py::test_planted_illegal_play_is_flagged_at_its_line",
    "test_speed_paths.py::test_fast_rows_read_records_as_the_grammar_does",
    "test_speed_paths.py::test_row_reader_and_lark_build_the_same_actions_on_corpus_rows",
    "test_speed_paths.py::test_replay_with_and_without_the_quick_turn_gives_the_same_reports",
    "test_speed_paths.py::test_recorded_play_checked_first_gives_the_same_verdict",
    "test_skill.py::test_thresholds_change_the_grades",
    "test_skill.py::test_cli_formats",
    "test_skill.py::test_luck_averages_to_zero_over_the_rolls_and_matches_the_rows",
    "test_skill.py::test_plot",
    "test_skill.py::test_the_engines_own_plays_have_zero_error",
    "test_stats_stream.py::test_folded_tables_are_the_whole_frames_tables",
    "test_streaming.py::test_a_streamed_run_keeps_no_report",
    "test_stats_fast_paths.py::test_backgammon_short_cuts_agree_with_the_list_of_plays",
    "test_stats.py::test_properties_over_any_set_of_games",
    "test_stats_stream.py::test_real_records_folded_are_the_whole_frames",
    "test_fuzz.py::test_analyze_never_raises",
    "test_ngn.py::test_hypothesis_records_survive_ngn",
    "test_ngn.py::test_reading_line_by_line_after_a_bad_line_gives_the_same_record",
    "test_consistency.py::test_long_nardy_stats_table_names_mars_and_koks",
    "test_consistency.py::test_warnings_never_change_an_exit_code",
    "test_fuzz.py::test_real_records_with_lines_deleted_duplicated_swapped",
    "test_convert_fast.py::test_json_encoder_writes_what_json_dumps_writes",
    "test_judge_properties.py::test_verdicts_agree_with_the_legal_set",
    "test_replay_visitor.py::test_findings_via_the_visitor_are_replays_findings",
    # the heaviest of the rest (a second or more each, mostly subprocesses or many generated games); each file
    # keeps quick tests of the same paths
    "test_analysis_outputs.py::test_streamed_decision_table_is_the_whole_tables_bytes",
    "test_analysis_outputs.py::test_streamed_parquet_reads_back_as_the_whole_table",
    "test_analysis_outputs.py::test_streamed_terminal_table_shows_the_first_rows_and_counts_them",
    "test_analysis_outputs.py::test_decision_frames_come_a_file_at_a_time_in_input_order",
    "test_skill.py::test_a_deeper_search_gives_complete_rows",
    "test_skill.py::test_the_direct_engine_call_gives_the_public_calls_plays",
    "test_streaming.py::test_a_file_over_the_limit_in_a_folder_of_many",
    "test_streaming.py::test_the_records_entries_are_not_made_a_list",
    "test_fastcli.py::test_the_console_script_takes_the_fast_path_too",
    "test_fuzz.py::test_commands_never_raise",
    "test_fuzz.py::test_thousands_of_empty_games",
    "test_fuzz.py::test_real_records_with_bytes_flipped",
    "test_stats.py::test_dice_test_is_scipys_chisquare",
    "test_convert_archive.py::test_an_output_that_cannot_be_written_exits_2_as_validate_does",
    "test_convert_archive.py::test_converting_a_folder_twice_converts_the_same_files",
    "test_convert_archive.py::test_out_dir_inside_the_folder_is_not_read_again",
    "test_stats_fast_paths.py::test_names_once_per_distinct_name_as_row_by_row",
    "test_tournament_rules.py::test_switched_last_roll_breaks",
    "test_tournament_rules.py::test_switched_head_exception_breaks",
    "test_tournament_rules.py::test_switched_home_mars_breaks",
    "test_consistency.py::test_a_record_naming_no_variant_gets_a_hint",
    "test_consistency.py::test_plot_draws_top_players_only",
    "test_ngn.py::test_reader_never_raises_on_damaged_records",
    "test_ngn.py::test_whatever_reads_cleanly_survives_the_round_trip",
}


def pytest_itemcollected(item):
    if item.path.name in SLOW_FILES or f"{item.path.name}::{item.originalname}" in SLOW_TESTS:
        item.add_marker("slow")


def _full(config) -> bool:
    return os.environ.get("NARDY_FULL", "") not in ("", "0") or bool(config.getoption("markexpr", ""))


def pytest_collection_modifyitems(config, items):
    if _full(config):
        return
    keep, slow = [], []
    for item in items:
        (slow if item.get_closest_marker("slow") else keep).append(item)
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = keep


def pytest_report_header(config):
    """Which suite runs, and the notes of :func:`_compile_catalogs` (catalogs left uncompiled without Babel)
    and :func:`_build_core` (the compiled core not built)."""
    lines = [n for n in (CATALOG_NOTE, CORE_NOTE) if n]
    if not _full(config):
        lines.append("quick suite: tests marked slow are left out (NARDY_FULL=1 runs everything)")
    return lines or None

"""--help at 80 columns, in English and Russian: every line fits, no option name, metavar or help text is cut
or split, and no value is named by typer's type words ("<int range>", "<str>")."""
from __future__ import annotations

import re

import pytest

from helpers import cli

COMMANDS = ["", "validate", "convert", "show", "stats", "analyze", "generate", "rules"]


def _help(command: str, lang: str, columns: int = 80) -> str:
    env = {"COLUMNS": str(columns), "NARDY_ANALYZE_LANG": lang, "PYTHONIOENCODING": "utf-8"}
    r = cli.subprocess(*([command] if command else []), "--help", env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("command", COMMANDS)
def test_help_fits_80_columns_with_nothing_cut(command, lang):
    out = _help(command, lang)
    assert max(map(len, out.splitlines())) <= 80, [x for x in out.splitlines() if len(x) > 80]
    assert "\u2026" not in out and not re.search(r"\w\.\.\.$", out, re.M), out      # nothing cut
    assert "<int range>" not in out and "<str>" not in out and "<path>" not in out and "<float" not in out
    if command == "validate":
        for metavar in ("[VARIANT:]KEY=VALUE", "<text|json|sarif|html>", "RULE[,RULE...]", "--analyse, --analyze"):
            assert metavar in out, metavar                                     # whole, on one line
        assert "gulbara:chain_from_turn=4" in out.replace("\n", " ").replace("  ", " ") or \
            "gulbara:chain_from_turn=4" in re.sub(r"\s+", " ", out)
    if command == "":
        # each command's line is its whole first sentence, wrapped, never cut
        for word in ("validate", "convert", "show", "stats", "analyze", "generate", "rules"):
            assert re.search(rf"^  {word} ", out, re.M), word

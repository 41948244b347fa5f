"""README.ru.md's samples are what the tool really prints in Russian.

Every command line of README.ru.md (``$ nardy-analyze ...`` in a code block) whose inputs are in the
repository (examples/, tests/fixtures/, or none) is run in Russian, and its output is compared with the lines
under it: exactly, except that a line ``...`` stands for any lines and a line ending in `` ...`` for a line
that begins so (a table's further columns).  A command whose inputs a reader brings (``match.mat``,
``games/``) is only checked to show Russian output.  So a change of a message, a heading or a plural form
that leaves the README behind fails here, naming the command."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

from helpers import ROOT

README_RU = ROOT / "README.ru.md"


def samples() -> list[tuple[str, list[str]]]:
    """(command line, the lines printed under it) of each ``$ nardy-analyze`` line of the README."""
    out = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", README_RU.read_text(encoding="utf-8"), re.S | re.M):
        current = None
        for line in block.splitlines():
            if line.startswith("$ "):
                current = (re.sub(r"\s+#.*$", "", line[2:]).strip(), [])
                out.append(current)
            elif current is not None:
                current[1].append(line)
    return out


def _runnable(command: str) -> bool:
    """Whether every input the command reads is in the repository (or written by the command before it)."""
    words = shlex.split(command.split("|")[0])
    made = {w for i, w in enumerate(words) if i and words[i - 1] in ("-o", "--output", "--out-dir")}
    paths = [w for w in words[2:] if not w.startswith("-") and w not in made
             and ("/" in w or re.search(r"\.(ngn|sgf|mat|json|txt)$", w))]
    return all(w.startswith(("examples/", "tests/")) or w in _MADE for w in paths)


_MADE = {"games.ngn"}          # written by the command before it in the same block


def _matches(expected: list[str], got: list[str]) -> bool:
    i = 0
    for k, line in enumerate(expected):
        if line == "...":
            rest = expected[k + 1:]
            if not rest:
                return True
            while i < len(got) and not _line_matches(rest[0], got[i]):
                i += 1
            continue
        if i >= len(got) or not _line_matches(line, got[i]):
            return False
        i += 1
    return i == len(got)


def _line_matches(want: str, got: str) -> bool:
    if want.endswith(" ...") and want != "...":
        return got.startswith(want[:-4])
    return want == got


def test_the_samples_are_found():
    found = samples()
    commands = [c for c, _ in found]
    assert len(found) >= 10 and any(c.startswith("nardy-analyze validate examples/club-night.mat") for c in commands)


def test_the_comparison_knows_elisions():
    assert _matches(["a", "...", "d"], ["a", "b", "c", "d"]) and not _matches(["a", "d"], ["a", "b", "d"])
    assert _matches(["игрок  партии ..."], ["игрок  партии  победы"]) and not _matches(["a"], ["a", "b"])


def test_the_readme_samples_are_the_russian_output(tmp_path):
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    env = {**os.environ, "NARDY_ANALYZE_LANG": "ru", "PYTHONPATH": str(ROOT), "COLUMNS": "1000"}
    ran, wrong = 0, []
    for command, expected in samples():
        if not command.startswith("nardy-analyze "):
            continue
        words, _, pipe = command.partition("|")
        if not _runnable(command):
            assert all(not re.search(r"[A-Za-z]{3,} [a-z]{3,} [a-z]{3,}", x) for x in expected), (command, expected)
            continue
        args = shlex.split(words)[1:]
        r = subprocess.run([sys.executable, "-m", "nardy_analyze", *args], capture_output=True, text=True,
                           env=env, cwd=tmp_path, timeout=300)
        got = (r.stdout + r.stderr).splitlines()
        m = re.fullmatch(r"\s*head -(\d+)\s*", pipe)
        if m:
            got = got[:int(m.group(1))]
        ran += 1
        if not _matches(expected, got):
            wrong.append((command, expected, got))
    assert ran >= 7, ran
    assert not wrong, "\n\n".join(f"$ {c}\nREADME:\n" + "\n".join(e) + "\nthe tool:\n" + "\n".join(g)
                                  for c, e, g in wrong)

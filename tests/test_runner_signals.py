"""A Ctrl-C that comes while the runner starts its worker processes is not lost (nardy_analyze.runner).

Python runs the at-fork handlers of loaded modules (logging's among them) in the parent right after a
fork, and drops an exception raised there ("Exception ignored"): a signal arriving in that instant used to
be swallowed, and the command ran on to its end with exit 0 instead of 130. The runner holds such signals
back while it submits work (which is when the pool forks) and raises them after."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from nardy_analyze import runner

# the signal comes exactly in the parent's at-fork handler, as Ctrl-C did under load
SCRIPT = textwrap.dedent("""
    import os, signal, sys
    from concurrent.futures import ProcessPoolExecutor
    from nardy_analyze import runner

    fired = []
    def after_fork_in_parent():
        if not fired:
            fired.append(1)
            signal.raise_signal(signal.SIGINT)
    os.register_at_fork(after_in_parent=after_fork_in_parent)
    if sys.argv[1] == "forked":          # the runner's own workers (runner._Forked), then none of them left
        try:
            runner._Forked(2, (abs, (), None, abs, None)).stop(True)
            print("ran on")
        except KeyboardInterrupt:
            print("interrupted")
        try:
            os.waitpid(-1, 0)
            print("a worker was left")
        except ChildProcessError:
            pass
        sys.exit()
    pool = ProcessPoolExecutor(max_workers=1, initializer=runner._worker_start)
    try:
        if sys.argv[1] == "guarded":
            runner._submit(pool, abs, -1).result()
        else:
            pool.submit(abs, -1).result()
        print("ran on")
    except KeyboardInterrupt:
        print("interrupted")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
""")


def _run(how: str) -> str:
    p = subprocess.run([sys.executable, "-c", SCRIPT, how], capture_output=True, text=True, timeout=60)
    return p.stdout.strip()


def test_a_signal_while_the_pool_forks_is_delivered_after():
    assert _run("guarded") == "interrupted"


def test_a_signal_while_the_runners_own_workers_fork_is_delivered_after_and_none_is_left():
    assert _run("forked") == "interrupted"


def test_the_case_is_real_without_the_guard():
    """The same script with a plain submit loses the signal: the guard above is what delivers it."""
    assert _run("plain") == "ran on"


def test_held_signals_are_raised_once_on_leaving(monkeypatch):
    with pytest.raises(KeyboardInterrupt):
        with runner._ForkSafe():
            import signal

            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
            inside = True          # no exception inside the block
    assert inside

"""``--engine dask``: validate and stats on a Dask cluster give the output of a local run.

A LocalCluster of two worker processes is started once for the module; the command line is pointed at
it with ``--scheduler``.  Output is compared whole: text and JSON reports, stats CSV and JSON, exit codes
and standard error, on generated records (always) and on the shared GNU Backgammon self-play corpus
(when present)."""
from __future__ import annotations

import io
import json
import os
import shutil
import socket
import sys

import pytest

from helpers import CORPUS, EXAMPLES, cli
from nardy_analyze import inputs
from nardy_analyze import __version__, analyze
from nardy_analyze import stats as st, statsrun
from nardy_analyze.analyze import validate_paths
from nardy_analyze.generate import generate_match
from nardy_analyze.notation import get as notation
from nardy_analyze.report import write_json, write_text

distributed = pytest.importorskip("distributed", reason="Dask is not installed (pip install '.[dask]')")

SELFPLAY = CORPUS / "gnubg-selfplay"


@pytest.fixture(scope="module")
def cluster():
    import cloudpickle

    import dask

    cloudpickle.register_pickle_by_value(sys.modules[__name__])   # the injected failures reach the workers
    # a task that kills its worker once is given up at once (default: after 3 deaths), to keep the test short
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as c, distributed.Client(c) as client:
        yield c.scheduler_address, client


def same(args, address, input=None):
    """The command run locally and on the cluster: identical exit code, output and messages."""
    local = cli(*args, input=input)
    remote = cli(*args, "--scheduler", address, input=input)
    assert remote == local
    return local


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """8 generated records of the three variants with assorted player names, a record with broken plays,
    the examples, a .txt that is no record and a broken link: every kind of outcome."""
    root = tmp_path_factory.mktemp("records")
    names = [("Anna", "Bora"), ("anna", "Cem"), ("Bora,1650", "Cem"), ("Dana", "Anna")]
    for i in range(8):
        variant = ("backgammon", "long", "gulbara")[i % 3]
        a, b = names[i % len(names)]
        match = generate_match(variant, 1 + i % 2, i, (a, b), {})
        match.tags.update(White=a, Black=b)
        (root / "sub" if i % 4 == 0 else root).mkdir(exist_ok=True)
        folder = root / "sub" if i % 4 == 0 else root
        (folder / f"g{i:02d}.ngn").write_text(notation("ngn").write(match))
    text = (root / "g01.ngn").read_text().splitlines()
    moves = [i for i, line in enumerate(text) if line[:1].isdigit()]
    text[moves[3]] = text[moves[3]].rsplit(" ", 1)[0] + " 24/1"          # an illegal play
    (root / "broken.ngn").write_text("\n".join(text) + "\n")
    (root / "garbled.ngn").write_text("[Variant \"long\"]\n\nGame 1 score 0-0\n1... 14: what\n")
    for p in EXAMPLES.glob("*.mat"):
        shutil.copy(p, root / p.name)
    (root / "notes.txt").write_text("shopping list: milk, bread\n")
    (root / "gone.mat").symlink_to(root / "nowhere.mat")
    return root


@pytest.mark.slow
def test_validate_on_the_cluster_is_the_local_output(cluster, records):
    address, _ = cluster
    for fmt in (["--format", "text", "--verbose"], ["--format", "json"]):
        code, out, err = same(["validate", *fmt, records], address)
        assert code == 2 and "gone.mat" in err                     # the broken link: not everything read
    rep = json.loads(cli("validate", "--format", "json", records)[1])
    assert rep["summary"]["files"] >= 11 and rep["findings"]      # the broken plays are found


@pytest.mark.slow
def test_stats_on_the_cluster_is_the_local_output(cluster, records):
    address, _ = cluster
    for args in (["--by", "game", "-f", "csv"], ["--by", "player", "-f", "json", "--alias", "dana=Anna"],
                 ["--by", "match", "-f", "markdown"], ["--by", "player", "--sort", "wins"]):
        code, out, err = same(["stats", *args, records], address)
        assert code == 2 and out and "gone.mat" in err


@pytest.mark.slow
def test_analyze_on_the_cluster_is_the_local_output(cluster, records):
    pytest.importorskip("bgsage", reason="the analysis extra (bgsage) is not installed")
    address, _ = cluster
    code, out, err = same(["analyze", "--by", "match", "-f", "csv", records], address)
    assert code == 2 and out.count("\n") > 4 and "gone.mat" in err
    assert "no analysis engine exists" not in err               # the long games: the shipped evaluator


@pytest.mark.slow
def test_stats_batches_are_folded_on_the_workers(cluster, records):
    """Each batch's files come back as one partial aggregate (folded on the worker); the tables from
    them are those of a local run."""
    import pandas as pd

    from nardy_analyze.stats import aggregate as ag
    from nardy_analyze import cluster as cl, statsrun

    address, _ = cluster
    entries = list(inputs.discover([str(records)] * 3))
    with cl.connect(address) as engine:
        out = list(analyze.map_records(entries, statsrun.partial_of, ("backgammon", {}, frozenset({"player"})),
                                       engine=engine, combine=ag.combine))
        players = statsrun.players([str(records)] * 3, engine=engine)
        matches = statsrun.matches([str(records)], engine=engine)
    ok = [v for _, kind, v in out if kind == "ok"]
    assert None in ok and ok[-1] is not None            # folded: the last file of a batch carries it
    pd.testing.assert_frame_equal(players, statsrun.players([str(records)] * 3, jobs=1))
    pd.testing.assert_frame_equal(matches, statsrun.matches(statsrun.games([str(records)], jobs=1)))


@pytest.mark.slow
def test_standard_input_is_read_here_and_kept_in_its_place(cluster, records):
    address, _ = cluster
    data = (records / "g05.ngn").read_text()
    code, out, _ = same(["stats", "--by", "game", "-f", "csv", records / "g02.ngn", "-", records / "g03.ngn"],
                        address, input=data)
    assert code == 0
    paths = [line.split(",")[0] for line in out.splitlines()[1:]]
    assert list(dict.fromkeys(paths)) == [str(records / "g02.ngn"), "<stdin>", str(records / "g03.ngn")]
    assert same(["validate", "--format", "json", "-", records / "broken.ngn"], address, input=data)[0] == 1


@pytest.mark.slow
def test_the_library_takes_an_engine_and_gives_the_same_frame(cluster, records):
    address, _ = cluster
    from nardy_analyze.cluster import connect

    with connect(address) as engine:
        remote = statsrun.scan([str(records)], engine=engine)
        run = validate_paths([str(records)], engine=engine)
    local = statsrun.scan([str(records)], jobs=1)
    import pandas as pd

    pd.testing.assert_frame_equal(remote.games, local.games)
    assert (remote.problems, remote.unreadable, remote.skipped) == (local.problems, local.unreadable, local.skipped)
    assert [r.path for r in run.reports] == [r.path for r in validate_paths([str(records)], jobs=1).reports]


# ----------------------------------------------------------------------------- failures

def _inject():
    """On a worker: one file's replay fails inside nardy-analyze (validate and stats alike)."""
    from nardy_analyze import analyze as a, statsrun as s

    real_v, real_s = a.validate_match, s.match_rows

    def boom_v(match, *args, **kw):
        if match.path.endswith("boom.mat"):
            raise RuntimeError("injected failure in a variant's engine")
        return real_v(match, *args, **kw)

    def boom_s(match, *args, **kw):
        if match.path.endswith("boom.mat"):
            raise RuntimeError("injected failure in a variant's engine")
        return real_s(match, *args, **kw)

    a._before_injection, s._before_injection = real_v, real_s
    a.validate_match, s.match_rows = boom_v, boom_s


def _restore():
    from nardy_analyze import analyze as a, statsrun as s

    a.validate_match, s.match_rows = a._before_injection, s._before_injection


@pytest.mark.slow
def test_an_internal_error_on_a_worker_is_that_files_finding(cluster, tmp_path):
    address, client = cluster
    for i in range(5):
        shutil.copy(EXAMPLES / "selfplay-7pt.mat", tmp_path / f"f{i}.mat")
    shutil.copy(EXAMPLES / "selfplay-7pt.mat", tmp_path / "boom.mat")
    _inject()                                  # here, for the local run
    client.run(_inject)                        # and on every worker
    try:
        local = cli("validate", "--format", "json", tmp_path)
        remote = cli("validate", "--format", "json", "--scheduler", address, tmp_path)
        local_stats = cli("stats", "-f", "csv", tmp_path)
        remote_stats = cli("stats", "-f", "csv", "--scheduler", address, tmp_path)
    finally:
        _restore()
        client.run(_restore)
    assert remote == local
    code, out, err = remote
    rep = json.loads(out)
    assert code == 2 and [f["rule"] for f in rep["findings"]] == ["internal-error"]
    assert rep["findings"][0]["path"].endswith("boom.mat") and rep["summary"]["files"] == 6
    assert f"nardy-analyze {__version__}" in err and "RuntimeError: injected failure" in err
    assert remote_stats == local_stats and remote_stats[0] == 2 and "boom.mat" in remote_stats[2]


class _Dying(distributed.WorkerPlugin):
    """On every worker, including those that replace a dead one: validating boom.mat kills the process."""

    name = "nardy-dying"

    def setup(self, worker):
        from nardy_analyze import analyze as a

        real = a.validate_match

        def die(match, *args, **kw):
            if match.path.endswith("boom.mat"):
                os._exit(3)                                  # as if killed (out of memory, a signal)
            return real(match, *args, **kw)

        self.real, a.validate_match = real, die

    def teardown(self, worker):
        from nardy_analyze import analyze as a

        a.validate_match = self.real


@pytest.mark.slow
def test_a_file_that_kills_its_worker_costs_only_that_file(cluster, tmp_path):
    address, client = cluster
    for i in range(7):
        shutil.copy(EXAMPLES / "selfplay-7pt.mat", tmp_path / f"f{i}.mat")
    shutil.copy(EXAMPLES / "selfplay-7pt.mat", tmp_path / "boom.mat")
    client.register_plugin(_Dying())
    try:
        code, out, err = cli("validate", "--format", "json", "--scheduler", address, tmp_path)
    finally:
        client.unregister_worker_plugin(_Dying.name)
        client.wait_for_workers(2, timeout=60)
    rep = json.loads(out)
    assert code == 2 and rep["summary"]["files"] == 8 and rep["summary"]["internal_errors"] == 1
    assert [(f["rule"], os.path.basename(f["path"])) for f in rep["findings"]] == [("internal-error", "boom.mat")]
    assert "Dask worker process stopped" in rep["findings"][0]["message"]
    assert rep["summary"]["games"] == 7 * 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_an_unreachable_scheduler_is_a_clear_error(command, monkeypatch, records):
    monkeypatch.setenv("NARDY_ANALYZE_DASK_TIMEOUT", "0.5")
    address = f"tcp://127.0.0.1:{_free_port()}"
    code, out, err = cli(command, "--scheduler", address, records / "g01.ngn")
    assert code == 2 and not out
    assert f"cannot reach the Dask scheduler at {address} within 0.5 s" in err and "Traceback" not in err


def test_scheduler_with_the_local_engine_is_refused(records):
    code, _, err = cli("validate", "--engine", "local", "--scheduler", "tcp://127.0.0.1:8786", records)
    assert code == 2 and "--scheduler needs --engine dask" in err


@pytest.mark.parametrize("command", ["validate", "stats"])
def test_without_dask_the_message_says_what_to_install(command, monkeypatch, records):
    monkeypatch.setitem(sys.modules, "distributed", None)        # import distributed -> ImportError
    code, out, err = cli(command, "--engine", "dask", records / "g01.ngn")
    assert code == 2 and not out and "Traceback" not in err
    assert "pip install 'nardy-analyze[dask]'" in err
    assert cli(command, records / "g01.ngn")[0] == 0               # the local engine does not need it


# ----------------------------------------------------------------------------- the shared corpus

@pytest.mark.slow
@pytest.mark.skipif(not SELFPLAY.is_dir(), reason="../shared/corpus/gnubg-selfplay is not present")
def test_selfplay_corpus_on_the_cluster_is_the_local_output(cluster):
    address, _ = cluster
    from nardy_analyze.cluster import connect

    with connect(address) as engine:
        remote = validate_paths([str(SELFPLAY)], engine=engine)
        remote_stats = statsrun.scan([str(SELFPLAY)], engine=engine)
    local = validate_paths([str(SELFPLAY)], jobs=2)
    local_stats = statsrun.scan([str(SELFPLAY)], jobs=2)
    for write in (lambda run, fh: write_json(run, fh), lambda run, fh: write_text(run, fh, False, False, True)):
        a, b = io.StringIO(), io.StringIO()
        write(local, a)
        write(remote, b)
        assert a.getvalue() == b.getvalue()
    assert len(remote.reports) == 100 and not remote.findings
    import pandas as pd

    pd.testing.assert_frame_equal(remote_stats.games, local_stats.games)
    for by in ("player", "game", "match"):
        for fmt in ("csv", "json"):
            a, b = io.StringIO(), io.StringIO()
            st.write_frame(statsrun.frame(by, local_stats.games), fmt, a, by)
            st.write_frame(statsrun.frame(by, remote_stats.games), fmt, b, by)
            assert a.getvalue() == b.getvalue()

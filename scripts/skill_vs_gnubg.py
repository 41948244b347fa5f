#!/usr/bin/env python3
"""``analyze`` against GNU Backgammon's 0-ply ``analyse match`` on the same records (docs/analysis.md).

    python3 scripts/skill_vs_gnubg.py [FOLDER ...] [--every N] [--limit N] [--json OUT] [--gnubg PATH]

For every record (``.mat`` / ``.txt`` match files, sorted by path; ``--every N`` keeps every N-th,
``--limit`` the first so many of those; files listed in a ``GNUBG_CRASHES.list`` next to the folder are
left out): ONE ``gnubg -t -q -p`` process imports each file, runs ``analyse match`` with the checker play,
cube and luck analysis at 0 plies, and dumps its statistics (``gnubg.match(analysis=1, statistics=1)``)
and every analysed move.  nardy-analyze analyses the same files (``statsrun.analyse``, ``--plies 0``).

Printed: per match and player, Spearman's rank correlation of our ``error_rate``, ``checker_error_rate``,
``cube_error_rate`` and ``luck_rate`` with gnubg's (computed from gnubg's statistics as gnubg's ``show
statistics match`` does: error rate = 1000 x (checker + cube error) / (unforced moves + close or actual cube
decisions), luck rate = 1000 x luck / moves); per unforced checker decision found on both sides (same
game, Position ID and dice), the share where the best play reaches the same position, and the mean
absolute difference of the equity lost by the play made.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GNUBG_SCRIPT = r'''
import gnubg, json
files = json.loads(%(files)r)
for c in ["set analysis chequerplay evaluation plies %(plies)d", "set analysis cubedecision evaluation plies %(plies)d",
          "set analysis luckanalysis plies 0", "set analysis moves 0"]:
    gnubg.command(c)
out = {}
for f in files:
    try:
        gnubg.command('import mat "%%s"' %% f)
        gnubg.command("analyse match")
        m = gnubg.match(analysis=1, boards=1, statistics=1, verbose=0)
    except Exception as e:
        out[f] = {"error": repr(e)}
        continue
    info = m["match-info"]
    moves = []
    cubes = []
    for gi, g in enumerate(m["games"], start=1):
        for x in g["game"]:
            if x.get("action") != "move" or "analysis" not in x or "moves" not in x["analysis"]:
                continue
            an = x["analysis"]
            cand = an["moves"]
            im = an.get("imove")
            err = None
            if im is not None and im < len(cand):
                err = cand[0]["score"] - cand[im]["score"]
            moves.append([gi, x["board"], sorted(x["dice"], reverse=True), [list(s) for s in cand[0]["move"]],
                          len(cand), err, an.get("luck-value")])
        for x in g["game"]:
            an = x.get("analysis") or {}
            if "nd-cubeful-eq" in an and x.get("action") in ("move", "double"):
                cubes.append([gi, x["board"], x.get("player"), an["nd-cubeful-eq"], an["dt-cubeful-eq"],
                              x.get("action")])
    out[f] = {"names": [info["X"]["name"], info["O"]["name"]], "length": info["match-length"],
              "stats": m.get("stats"), "moves": moves, "cubes": cubes}
with open(%(out)r, "w") as fh:
    json.dump(out, fh)
'''


def gnubg_analyse(files: list[str], gnubg: str, tmp: str, plies: int = 2) -> tuple[dict, float]:
    out = os.path.join(tmp, "gnubg.json")
    script = os.path.join(tmp, "analyse.py")
    with open(script, "w") as fh:
        fh.write(GNUBG_SCRIPT % {"files": json.dumps(files), "out": out, "plies": plies})
    t = time.perf_counter()
    subprocess.run([gnubg, "-t", "-q", "-p", script], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                   timeout=36000)
    spent = time.perf_counter() - t
    with open(out) as fh:
        return json.load(fh), spent


def gnubg_rates(stats: dict, who: str) -> dict:
    s = stats[who]
    mv, cu, di = s["moves"], s["cube"], s["dice"]
    unforced, close = mv["unforced-moves"], cu["close-cube"]
    rate = lambda num, den: 1000.0 * num / den if den else float("nan")  # noqa: E731
    # the moves' "error-skill" is their total error; the cube's is its error per close or actual decision
    # (gnubg's Python statistics): the cube's total is the sum of its kinds of errors
    cube = sum(v for k, v in cu.items() if k.startswith("err-") and k.endswith("-skill"))
    return {"error_rate": rate(mv["error-skill"] + cube, unforced + close),
            "checker_error_rate": rate(mv["error-skill"], unforced),
            "cube_error_rate": rate(cube, close),
            "luck_rate": rate(di["luck"], mv["total-moves"]),
            "unforced": unforced, "close_cube": close}


def records(folders: list[str], every: int, limit: int | None) -> list[str]:
    files: list[str] = []
    for folder in folders:
        crashes: set[str] = set()
        cl = Path(folder) / "GNUBG_CRASHES.list"
        if cl.exists():
            crashes = {line.strip() for line in cl.read_text().splitlines() if line.strip()}
        found = []
        for dirpath, _, names in os.walk(folder):
            for n in names:
                if n.endswith((".mat", ".txt")):
                    p = os.path.join(dirpath, n)
                    if os.path.relpath(p, folder) not in crashes:
                        found.append(os.path.abspath(p))
        files.extend(sorted(found)[::every])
    return files[:limit] if limit else files


def _apply(rules, me, opp, steps):
    for src, dst in steps:
        me, opp, _ = rules.apply(me, opp, src, dst)
    return me, opp


def _parse(text: str):
    steps = []
    for part in text.split():
        a, b = part.rstrip("*").split("/")[:2]
        steps.append((25 if a == "bar" else int(a), 0 if b == "off" else int(b.rstrip("*"))))
    return steps


def _shares(d) -> dict:
    """Of our unforced checker decisions: how many, and the share with any error, above 0.04, above 0.08."""
    c = d[(d["kind"] == "checker") & ~d["forced"]]
    if c.empty:
        return {"n": 0}
    return {"n": int(len(c)), "error>0": float((c["error"] > 0).mean()), "error>0.04": float((c["error"] > 0.04).mean()),
            "error>0.08": float((c["error"] > 0.08).mean())}


def _pearson(pairs: list[tuple[float, float]]) -> float:
    n = len(pairs)
    if n < 3:
        return float("nan")
    mx = sum(a for a, _ in pairs) / n
    my = sum(b for _, b in pairs) / n
    sxy = sum((a - mx) * (b - my) for a, b in pairs)
    sxx = sum((a - mx) ** 2 for a, _ in pairs)
    syy = sum((b - my) ** 2 for _, b in pairs)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def _verdict(nd: float, dt: float, dp: float) -> tuple[bool, bool]:
    """(double, take) as the equities say: double when min(dt, dp) beats no double; take when dt <= dp."""
    return min(dt, dp) > nd, dt <= dp


def compare(files: list[str], gnubg: str, jobs: int | None, gnubg_plies: int = 2, plies: int = 0,
            keep: str | None = None) -> dict:
    from scipy.stats import spearmanr

    from nardy_analyze import statsrun
    from nardy_analyze.stats import skill
    from nardy_analyze.engine import get_variant
    from nardy_analyze.engine.posid import decode_position_id

    rules = get_variant("backgammon").rules
    if keep and os.path.exists(keep):         # gnubg's analysis of an earlier run on the same files
        with open(keep) as fh:
            g, gnubg_time = json.load(fh)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            g, gnubg_time = gnubg_analyse(files, gnubg, tmp, gnubg_plies)
        if keep:
            with open(keep, "w") as fh:
                json.dump([g, gnubg_time], fh)
    t = time.perf_counter()
    run = statsrun.analyse(files, plies=plies, jobs=jobs)
    ours_time = time.perf_counter() - t
    d = run.decisions
    m = skill.summary(run, "match")
    pairs = {k: [] for k in ("error_rate", "checker_error_rate", "cube_error_rate", "luck_rate")}
    rows = []
    same = total = 0
    err_diff: list[float] = []
    err_pairs: list[tuple[float, float]] = []
    by_class: dict[str, list[int]] = {"contact": [0, 0], "race": [0, 0], "bear-off": [0, 0]}
    cube_same = cube_close = cube_all = cube_all_same = 0
    luck_pairs: list[tuple[float, float]] = []
    for f in files:
        gf = g.get(f)
        if not gf or "error" in gf or not gf.get("stats"):
            continue
        ours = m[m["path"] == f]
        if ours.empty:
            continue
        for who, name in zip(("X", "O"), gf["names"]):
            row = ours[ours["player"] == name]
            if row.empty:
                continue
            gr = gnubg_rates(gf["stats"], who)
            r = row.iloc[0]
            rows.append((f, name, gr, {k: float(r[k]) for k in pairs} | {"unforced": int(r["unforced"])}))
            for k in pairs:
                if gr[k] == gr[k] and r[k] == r[k]:
                    pairs[k].append((gr[k], float(r[k])))
        # per decision: same game, Position ID and dice
        dd = d[(d["path"] == f) & (d["kind"] == "checker") & ~d["forced"]]
        index = {}
        for game, pid, dice, best, err, luck in zip(dd["game"], dd["position_id"], dd["dice"], dd["best"],
                                                    dd["error"], dd["luck"]):
            index.setdefault((int(game), pid, dice), (best, err, luck))
        for gi, pid, dice, gbest, n, gerr, gluck in gf["moves"]:
            if n <= 1:
                continue
            key = (gi, pid, f"{dice[0]}{dice[1]}")
            if key not in index:
                continue
            best, err, luck = index[key]
            if gluck is not None:
                luck_pairs.append((gluck, float(luck)))
            me, opp = decode_position_id(pid)
            theirs = _apply(rules, me, opp, [(a, b) for a, b in gbest])
            mine = _apply(rules, me, opp, _parse(best))
            total += 1
            same += theirs == mine
            cls = "bear-off" if skill._bearoff_homes(me, opp) else "race" if skill.is_race(me, opp) else "contact"
            by_class[cls][0] += theirs == mine
            by_class[cls][1] += 1
            if gerr is not None and err == err:
                err_diff.append(abs(gerr - float(err)))
                err_pairs.append((gerr, float(err)))
        # cube decisions: the verdict (double or not; take or pass) of gnubg's equities and of ours, same game
        # and Position ID; close as gnubg's rule says of its own equities
        cd = d[(d["path"] == f) & (d["kind"] == "double")]
        cindex = {}
        for game, pid, nd, dt, dp, away, opp_away, cube, crawford in zip(
                cd["game"], cd["position_id"], cd["nd"], cd["dt"], cd["dp"], cd["away"], cd["opp_away"], cd["cube"],
                cd["crawford"]):
            cindex.setdefault((int(game), pid), (nd, dt, dp, int(away), int(opp_away), int(cube), bool(crawford)))
        for gi, pid, _player, gnd, gdt, _action in gf.get("cubes", []):
            key = (gi, pid)
            if key not in cindex:
                continue
            nd, dt, dp, away, opp_away, cube, crawford = cindex[key]
            if gf["length"]:
                from nardy_analyze.stats.cube import Model, Stakes
                mm = Model(Stakes(gf["length"], away, opp_away, crawford), (0.5, 0, 0, 0, 0), 0.68)
                gnd, gdt = mm.normalise(gnd, cube), mm.normalise(gdt, cube)
            gdp = 1.0
            theirs_v, ours_v = _verdict(gnd, gdt, gdp), _verdict(nd, dt, dp)
            cube_all += 1
            cube_all_same += theirs_v[0] == ours_v[0]
            optimal = max(gnd, min(gdt, gdp))
            if optimal - min(gdt, gdp) < 0.16:
                cube_close += 1
                cube_same += theirs_v == ours_v
    def rho(v):       # undefined (NaN) for fewer than 3 pairs or a constant side (gnubg's 0 in its self-play)
        xs, ys = [a for a, _ in v], [b for _, b in v]
        if len(v) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
            return float("nan")
        return spearmanr(xs, ys).statistic

    corr = {k: (rho(v), len(v)) for k, v in pairs.items()}
    return {"files": len(files), "gnubg_seconds": gnubg_time, "ours_seconds": ours_time, "spearman": corr,
            "luck_spearman_per_roll": rho(luck_pairs), "rolls_compared": len(luck_pairs),
            "same_best": same, "compared": total, "mean_abs_error_diff": sum(err_diff) / len(err_diff) if err_diff
            else float("nan"), "rows": rows,
            "ours_error_rate_mean": float(m["error_rate"].mean()) if not m.empty else float("nan"),
            "ours_checker_error_rate_mean": float(m["checker_error_rate"].mean()) if not m.empty else float("nan"),
            "gnubg_error_rate_mean": sum(r[2]["error_rate"] for r in rows) / len(rows) if rows else float("nan"),
            "share_decisions_doubtful_or_worse": float((d["grade"].astype(str) != "").mean()) if len(d) else 0.0,
            "unforced_checker_error_shares": _shares(d),
            "decisions": int(len(d)),
            "error_pearson": _pearson(err_pairs),
            "share_error_diff_above_0.04": (sum(x > 0.04 for x in err_diff) / len(err_diff)) if err_diff else float("nan"),
            "same_best_by_class": by_class,
            "cube_close": cube_close, "cube_close_same_verdict": cube_same,
            "cube_compared": cube_all, "cube_same_double": cube_all_same,
            "gnubg_plies": gnubg_plies, "plies": plies}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="*", default=[str(ROOT.parent / "shared" / "corpus" / "bglab")])
    ap.add_argument("--every", type=int, default=1, help="keep every N-th file (sorted by path)")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--jobs", "-j", type=int, default=None)
    ap.add_argument("--gnubg", default="/usr/games/gnubg")
    ap.add_argument("--gnubg-plies", type=int, default=2, help="gnubg's depth for checker play and cube (default 2)")
    ap.add_argument("--plies", type=int, default=0, help="our depth (analyze --plies; default 0)")
    ap.add_argument("--keep-gnubg", metavar="FILE", help="keep gnubg's analysis in FILE and read it from there next "
                                                         "time (the same files and depth)")
    ap.add_argument("--json", metavar="OUT", help="also write every figure and the per-player rows as JSON")
    a = ap.parse_args()
    files = records(a.folders, a.every, a.limit)
    res = compare(files, a.gnubg, a.jobs, a.gnubg_plies, a.plies, a.keep_gnubg)
    print(f"gnubg {res['gnubg_plies']}-ply against ours at --plies {res['plies']}")
    print(f"files: {res['files']}  (gnubg analyse: {res['gnubg_seconds']:.1f} s, "
          f"nardy-analyze analyze: {res['ours_seconds']:.1f} s)")
    for k, (rho, n) in res["spearman"].items():
        print(f"Spearman {k:<20} {rho:+.3f}  over {n} match-players")
    if res["compared"]:
        print(f"same best play: {res['same_best']}/{res['compared']} unforced checker decisions "
              f"({100 * res['same_best'] / res['compared']:.1f} %)")
    print(f"Spearman luck per roll         {res['luck_spearman_per_roll']:+.3f}  over {res['rolls_compared']} "
          "unforced checker decisions")
    print(f"mean |equity lost (ours) - equity lost (gnubg)| per unforced checker decision: "
          f"{res['mean_abs_error_diff']:.4f}")
    print(f"Pearson of the equity lost per unforced checker decision: {res['error_pearson']:+.3f}; "
          f"decisions more than 0.04 apart: {100 * res['share_error_diff_above_0.04']:.2f} %")
    for cls, (same_c, n_c) in res["same_best_by_class"].items():
        if n_c:
            print(f"  same best play, {cls}: {same_c}/{n_c} ({100 * same_c / n_c:.1f} %)")
    if res["cube_compared"]:
        print(f"cube decisions compared: {res['cube_compared']}, same double / no double: "
              f"{100 * res['cube_same_double'] / res['cube_compared']:.1f} %; close (gnubg): {res['cube_close']}, "
              f"same verdict (double and take): "
              f"{100 * res['cube_close_same_verdict'] / max(res['cube_close'], 1):.1f} %")
    print(f"mean error rate per match-player: ours {res['ours_error_rate_mean']:.2f} mEMG, gnubg "
          f"{res['gnubg_error_rate_mean']:.2f} mEMG; ours checker only {res['ours_checker_error_rate_mean']:.2f}")
    print(f"decisions: {res['decisions']}, graded doubtful or worse by us: "
          f"{100 * res['share_decisions_doubtful_or_worse']:.2f} %")
    sh = res["unforced_checker_error_shares"]
    if sh.get("n"):
        print(f"our unforced checker decisions: {sh['n']}; with an error: {100 * sh['error>0']:.1f} %, above 0.04: "
              f"{100 * sh['error>0.04']:.2f} %, above 0.08: {100 * sh['error>0.08']:.2f} %")
    ours = [r[3]["checker_error_rate"] for r in res["rows"] if r[3]["checker_error_rate"] == r[3]["checker_error_rate"]]
    theirs = [r[2]["checker_error_rate"] for r in res["rows"] if r[2]["checker_error_rate"] == r[2]["checker_error_rate"]]
    if ours and theirs:
        print(f"checker error rate per match-player: ours mean {sum(ours) / len(ours):.2f}, median "
              f"{sorted(ours)[len(ours) // 2]:.2f}, max {max(ours):.2f}; gnubg mean {sum(theirs) / len(theirs):.2f}, "
              f"max {max(theirs):.2f} mEMG")
    for k, label in (("error_rate", "PR (error rate / 2)"), ("luck_rate", "luck rate")):
        diffs = [abs(r[3][k] - r[2][k]) for r in res["rows"] if r[3][k] == r[3][k] and r[2][k] == r[2][k]]
        scale = 0.5 if k == "error_rate" else 1.0
        if diffs:
            print(f"per match-player {label}: mean |ours - gnubg| {scale * sum(diffs) / len(diffs):.2f}, largest "
                  f"{scale * max(diffs):.2f} over {len(diffs)}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(res, fh, indent=1, default=float)
    return 0


if __name__ == "__main__":
    sys.exit(main())

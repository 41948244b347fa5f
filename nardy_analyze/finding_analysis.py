"""``validate --analyse``: the engine's analysis of the position of each finding.

For each finding of a backgammon record at a turn (its game and line), the skill analysis
(:func:`nardy_analyze.stats.skill.position_analysis`, the ``analysis`` extra) of the decisions of that turn
is attached to the finding as plain data (``Finding.analysis``), which the text, JSON and HTML reports
show: the best plays with their equities and the play's loss, the cube decision when there was one.  A
record of long nardy or Gul bara gets the same from the shipped evaluator (:mod:`.stats.skill_long`, 0-ply,
equities in points of the variant's scoring): the roll's legal plays, and for a finding about a later part
of a Gul bara turn (a chain double, a handover: ``Finding.part``) that part's own decision.  A record of a
variant without an engine gets one note (``MatchReport.analysis_note``).  Only the turns with a finding
are evaluated.  The keys: docs/json-report.md.
"""
from __future__ import annotations

import multiprocessing
from typing import Any

from .engine import rules_named, variant_display
from .i18n import _
from .record import Match
from .replay import MatchReport

__all__ = ["annotate"]

_ORDER = {"double": 0, "take": 1, "checker": 2}


def annotate(match: Match, report: MatchReport, variant: str, options: dict[str, Any] | None,
             plies: int = 0) -> MatchReport:
    """Attach the analysis of each finding's turn to ``report`` (the validation of ``match``); returned."""
    rules = rules_named(report.variant)
    if rules is not None and not rules.position_id:
        from .stats import skill_long      # (the evaluator: only with --analyse)

        if skill_long.available(rules):
            return _annotate_long(match, report, variant, options)
    if rules is None or not rules.position_id:
        # TRANSLATORS: {variant}: the variant's name in the genitive ("for long nardy")
        report.analysis_note = _("{path}: no analysis engine exists for {variant} (no equities "
                                 "given)").format(path=report.path, variant=variant_display(report.variant, "gen"))
        return report
    wanted = {(f.game, f.line) for f in report.findings if f.game is not None}
    if not wanted:
        return report
    from .stats import skill      # (pandas and the engine: only with --analyse)

    if not skill.engine_available():
        # TRANSLATORS: {variant}: the variant's name in the genitive ("коротких нард"); {command}: the pip
        # command line that installs the engine
        report.analysis_note = _("{path}: the analysis of {variant} needs the bgsage engine: {command} (no "
                                 "equities given)").format(path=report.path,
                                                           variant=variant_display(report.variant, "gen"),
                                                           command=skill.INSTALL_HINT.partition(": ")[2])
        return report
    # one engine thread in a worker process (the others run beside it), every core otherwise
    threads = 1 if multiprocessing.parent_process() is not None else 0
    spots, _names = skill.position_analysis(match, variant, options, plies, only=wanted, threads=threads)
    spots.sort(key=lambda s: (s["game"], s["line"], _ORDER[s["kind"]]))
    for f in report.findings:
        turn = [s for s in spots if s["game"] == f.game and s["line"] == f.line]
        if f.side is not None:
            # the finding's player's decisions, and the double that a take or pass of theirs answered
            answers = any(s["kind"] == "take" and s["side"] == f.side for s in turn)
            turn = [s for s in turn if s["side"] == f.side or s["kind"] == "double" and answers]
        if turn:
            f.analysis = {"engine": "bgsage", "plies": plies, "decisions": turn}
    return report


# the keys of a checker decision, as backgammon's (docs/json-report.md)
_CHECKER_KEYS = ("game", "line", "side", "kind", "dice", "plays", "played", "replayed", "rank", "moves",
                 "equity_played", "equity_best", "error", "grade", "luck")


def _annotate_long(match: Match, report: MatchReport, variant: str, options: dict[str, Any] | None
                   ) -> MatchReport:
    """Long nardy and Gul bara: each finding's decision from the shipped evaluator: the roll's play for a
    finding about the roll (or about its turn), the part's play for a finding about a later part of a Gul
    bara turn (its ``address`` M.K)."""
    wanted = {(f.game, f.move) for f in report.findings if f.game is not None and f.move is not None}
    if not wanted:
        return report
    from .stats import skill      # (pandas: only with --analyse)

    spots, _res = skill.position_analysis(match, variant, options, 0, moves=wanted)
    for f in report.findings:
        if f.game is None or f.move is None:
            continue
        turn = [s for s in spots if s["game"] == f.game and str(s["move"]) == f.address
                and (f.side is None or s["side"] == f.side)]
        if turn:
            f.analysis = {"engine": "evaluator", "plies": 0,
                          "decisions": [_decision(s) for s in turn]}
    return report


def _decision(spot: dict) -> dict:
    """A decision as backgammon's (its keys), and ``part`` (``chain``, ``handover``) for a later part of a
    Gul bara turn."""
    d = {k: spot[k] for k in _CHECKER_KEYS}
    if spot.get("part"):
        d["part"] = spot["part"]
    return d

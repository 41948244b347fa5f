"""A match under replay: its games in order, the score between them, the Crawford game.

:class:`MatchWalk` replays each game (a :class:`.state.GameState` through :func:`.game.play`) and checks what links the games: the
score lines against the results before them, games left out of an excerpt, the Crawford game, the end of
the match.  Everything it finds goes to the visitor (:mod:`.visitor`).
"""
from __future__ import annotations

from functools import lru_cache

from ..engine import Variant
from ..engine.core import Pos
from ..record import Game, Loc, Match, game_numbers
from .clock import RunningClock
from .game import play
from ..events import ERROR, WARNING, Finding, GameReport
from ..i18n import _, ngettext
from .results import possible_results, scored
from .state import new_state
from .telling import Teller
from .turns import player_text
from .visitor import Events, ReplayVisitor, ReportBuilder

_YES = {"on", "yes", "true", "1"}
_NO = {"off", "no", "false", "0"}


def _plus(score: list[int], result: tuple[int, int]) -> list[int]:
    out = list(score)
    out[result[0]] += result[1]
    return out


def match_name(game: Game, side: int) -> str:
    """The player ``side`` of ``game`` for messages (in the current language when the record names nobody)."""
    n = game.players[side] if side in (0, 1) else ""
    return n or player_text(side)


def crawford_tag(match: Match) -> bool | None:
    """Whether the first game of an excerpt is the Crawford game, when a header tag says so
    (``CrawfordGame "Yes"/"No"``, ``PostCrawford "Yes"``); None when no tag settles it."""
    v = (match.tag("CrawfordGame") or "").strip().lower()
    if v in _YES or v in _NO:
        return v in _YES
    if (match.tag("PostCrawford") or "").strip().lower() in _YES:
        return False
    return None


@lru_cache(maxsize=64)
def _asked(wants: Events) -> tuple[bool, bool, bool, bool, bool]:
    """What a visitor that asks for ``wants`` is told: action states, exact ones, routes, turn rows, game ends."""
    exact = Events.STATES in wants
    plays = exact or Events.PLAYS in wants
    return (plays, exact, Events.ROUTES in wants and Events.PLAYS in wants and not exact, Events.TURNS in wants,
            Events.ENDS in wants)


class MatchWalk:
    """The replay of one match, told to ``visitor``."""

    def __init__(self, match: Match, variant: Variant, visitor: ReplayVisitor, start: Pos | None):
        self.match, self.variant, self.visitor, self.start = match, variant, visitor, start
        self.tell_finding = visitor.finding
        # the costly events: None when the visitor does not ask for them
        states, exact, routed, turns, ends = _asked(visitor.wants)
        self.tell_state = visitor.action_state if states else None
        self.exact_states = exact
        # a sparse observer that takes the routes of the plain rolls in its ``routes`` dict (Events.ROUTES)
        self.routed = routed
        self.tell_turn = visitor.turn if turns else None
        self.tell_end = visitor.game_end if ends else None
        self.costly = self.tell_state is not None or self.tell_turn is not None or self.tell_end is not None
        self.last: GameReport | None = None   # the report of the last game replayed
        self.length = match.match_length or 0
        self.crawford_rule = variant.get("crawford", False) and self.length > 0
        self.crawford_done = False
        self.score = [0, 0]           # the score the replay judges by (the score lines, once reported)
        self.credit = [0, 0]          # the one count of points (GameReport.score, docs/stats.md)
        self.unknown = False          # the previous game broke off (unreadable text) before its result
        self.crawford_unknown = False  # an excerpt's first game, which may or may not be the Crawford game
        self.slips: list[tuple[int, int]] = []      # other results the previous game's score may reflect
        self.open_ends: list[tuple[int, int]] = []  # the results an unfinished previous game could still have had
        self.before = [0, 0]                        # the score at the start of the previous game
        # after a score line that disagreed with the results (reported once): the score those results give,
        # carried on with the games after it; the next score line may follow it or the written one
        self.by_results: list[int] | None = None
        self.prev: Game | None = None
        # the games' numbers as findings give them (record.game_numbers), by the reader's order number
        self.shown = dict(zip((g.number for g in match.games), game_numbers(match.games)))
        # a clock that runs over the whole match (clock_per, docs/rules.md): carried from game to game
        self.match_clock = RunningClock.of(variant) if RunningClock.per_match(variant, self.length) else None

    def note(self, rule: str, msg: str, loc: Loc, severity: str, game: int | None) -> None:
        """A finding of the match; ``game``: the reader's order number of its game (given as shown)."""
        if game is not None:
            game = self.shown.get(game, game)
        self.tell_finding(Finding(rule, msg, self.match.path, loc.line, loc.column, severity, game))

    def run(self) -> None:
        match, visitor = self.match, self.visitor
        visitor.begin_match(match, self.variant)
        if type(visitor).finding is ReportBuilder.finding:
            # the report's own list's append (what ReportBuilder.finding does, without a frame)
            self.tell_finding = visitor.report.findings.append
        for pr in match.problems:
            self.note(pr.rule, pr.message, pr.loc, WARNING if pr.warning else ERROR, pr.game)
        for game in match.games:
            self.game(game)
        self.end_of_match()
        visitor.end_match((self.credit[0], self.credit[1]))

    def game(self, game: Game) -> None:
        """Check the score line before ``game``, replay it, and count its result."""
        match = self.match
        self.visitor.begin_game(game)
        for pr in game.problems:
            self.note(pr.rule, pr.message, pr.loc, ERROR, game.number)
        score, length = self.score, self.length
        after_match = length > 0 and max(score) >= length
        self.missing_games(game)
        if game.score is not None:
            self.score_line(game, after_match)
        is_crawford = self.crawford_of(after_match)
        score = self.score
        need = (length - score[0], length - score[1]) if length > 0 else None
        st = new_state(self.variant, game, self.shown.get(game.number, game.number), match.path,
                       self.tell_finding, is_crawford, length == 0, need, (score[0], score[1]), self.start,
                       keep_parts=self.tell_state is not None and not self.variant.rules.one_part_turns)
        st.clock.attach(self.match_clock)
        r = st.report
        r.crawford = is_crawford
        r.score = (self.credit[0], self.credit[1])
        actions = game.actions
        if game.problems:   # replay a broken game only up to the unreadable text
            first_bad = min(p.loc.line for p in game.problems)
            actions = [a for a in actions if a.loc.line < first_bad]
        play(st, actions, Teller(self.tell_state, self.tell_turn, self.tell_end, self.exact_states,
                                  self.visitor.routes if self.routed else None)
                                  if self.costly else None)
        r.credited = scored(st)
        r.conceded = st.conceded
        self.last = r
        self.visitor.end_game(r)
        self.before = list(score)
        self.slips = st.slips
        self.open_ends = possible_results(st) if r.winner is None and r.how != "draw" \
            and actions and not game.broken else []
        self.prev = game
        if r.winner is not None and r.points is not None:
            score[r.winner] += r.points
            if self.by_results is not None:
                self.by_results[r.winner] += r.points
        elif self.by_results is not None:
            self.by_results = None           # no known result to carry the other reading on with
        if r.winner is not None and r.credited is not None:
            self.credit[r.winner] += r.credited
        # the previous game's points are unknown (unreadable text, or a resignation with no points written)
        self.unknown = r.points is None and (game.broken or r.winner is not None)

    def missing_games(self, game: Game) -> None:
        """Games the file leaves out before ``game`` (an excerpt): its score line is taken as written."""
        prev, score = self.prev, self.score
        if prev is None or prev.written_number is None or game.written_number is None \
                or game.written_number <= prev.written_number + 1 or game.score is None:
            return
        a, b = prev.written_number + 1, game.written_number - 1
        if not any(game.score[i] < score[i] for i in (0, 1)):
            fields = dict(n=game.written_number, prev=prev.written_number,
                          score=f"{game.score[0]}-{game.score[1]}", earlier=f"{score[0]}-{score[1]}")
            if a == b:
                # TRANSLATORS: {n}, {prev}: game numbers as written in the file; {missing}: the game left out;
                # {score}, {earlier}: scores ("4-3")
                msg = _("Game {n} follows Game {prev}: game {missing} is not in the file (an excerpt); the score "
                        "line {score} is taken as written (the earlier results give {earlier})").format(
                    missing=a, **fields)
            else:
                # TRANSLATORS: {missing}: the games left out ("3-5")
                msg = _("Game {n} follows Game {prev}: games {missing} are not in the file (an excerpt); the "
                        "score line {score} is taken as written (the earlier results give {earlier})").format(
                    missing=f"{a}-{b}", **fields)
            self.note("match-score", msg, game.score_loc or game.loc, WARNING, game.number)
            self.score = list(game.score)
            self.credit = list(game.score)     # the points of the games left out are in the line alone

    def score_line(self, game: Game, after_match: bool) -> None:
        """``game``'s score line against the results before it."""
        score, length, written = self.score, self.length, list(game.score)
        if written == score and not after_match:      # (nearly every line: as the results say)
            self.by_results = None
            self.score = written
            return
        loc = game.score_loc or game.loc
        written_label = game.written_number is not None
        n = game.written_number if written_label else game.number
        explained = [r for r in self.slips if _plus(self.before, r) == written]
        ends = [r for r in self.open_ends if _plus(score, r) == written]
        by_results, self.by_results = self.by_results, None
        if written != score and explained:
            score = written       # the previous game's result was reported wrong already
        elif written != score and by_results == written:
            score = written       # a score line before disagreed (reported there): this one follows the results
        elif written != score and ends and not after_match:
            w, pts = ends[0]
            if written_label:
                msg = ngettext("the previous game has no written result; the score line {score} of Game {n} is "
                               "explained by {player} winning {points} point(s) there (a result the position "
                               "allowed), and is taken as written",
                               "the previous game has no written result; the score line {score} of Game {n} is "
                               "explained by {player} winning {points} point(s) there (a result the position "
                               "allowed), and is taken as written", pts)
            else:
                msg = ngettext("the previous game has no written result; the score line {score} of game {n} is "
                               "explained by {player} winning {points} point(s) there (a result the position "
                               "allowed), and is taken as written",
                               "the previous game has no written result; the score line {score} of game {n} is "
                               "explained by {player} winning {points} point(s) there (a result the position "
                               "allowed), and is taken as written", pts)
            self.note("match-score", msg.format(score=f"{written[0]}-{written[1]}", n=n,
                                                player=match_name(game, w), points=pts),
                      loc, WARNING, game.number)
            score = written
            self.credit = list(written)        # the previous game's points are in the line alone
        if after_match:
            if written_label:
                msg = ngettext("Game {n} follows the end of the {length}-point match (score {score})",
                               "Game {n} follows the end of the {length}-point match (score {score})", length)
            else:
                msg = ngettext("game {n} follows the end of the {length}-point match (score {score})",
                               "game {n} follows the end of the {length}-point match (score {score})", length)
            self.note("match-score", msg.format(n=n, length=length, score=f"{score[0]}-{score[1]}"), loc, WARNING,
                      game.number)
        elif game is self.match.games[0] and written != score and max(written) < (length or 1 << 30):
            # one game (or more) exported from a longer match: the record starts at this score
            self.note("match-score", _("the record starts at {score}, not 0-0: an excerpt of a longer match; later "
                                       "games are checked from this score").format(
                score=f"{written[0]}-{written[1]}"), loc, WARNING, game.number)
            self.excerpt_crawford(written)
            self.credit = list(written)        # the record starts at this score
        elif written != score and not self.unknown:
            msg = (_("Game {n}: the score line says {score}; the earlier results give {earlier}") if written_label
                   else _("game {n}: the score line says {score}; the earlier results give {earlier}"))
            self.note("match-score", msg.format(n=n, score=f"{written[0]}-{written[1]}",
                                                earlier=f"{score[0]}-{score[1]}"), loc, ERROR, game.number)
            self.by_results = list(score)
        elif written != score and self.unknown:
            self.credit = list(written)        # the previous game's points are in the line alone
        self.score = list(game.score)

    def excerpt_crawford(self, written: list[int]) -> None:
        """A record that starts mid-match at ``written``: whether the Crawford game is past, ahead or unknown."""
        length = self.length
        if self.crawford_rule and written[0] == written[1] == length - 1:
            self.crawford_done = True      # both at match length - 1: the Crawford game is past
        elif self.crawford_rule and length - 1 in written:
            settled = crawford_tag(self.match)
            if settled is None:
                self.crawford_unknown = True
            else:
                self.crawford_done = not settled

    def crawford_of(self, after_match: bool) -> bool | None:
        """Whether the next game is the Crawford game (None: an excerpt that does not say)."""
        if self.crawford_unknown:      # after it, every game is past the Crawford game
            self.crawford_done, self.crawford_unknown = True, False
            return None
        if self.crawford_rule and not self.crawford_done and not after_match and self.length - 1 in self.score:
            self.crawford_done = True
            return True
        return False

    def end_of_match(self) -> None:
        """Every game complete, and nobody has won the match: the record may be unfinished or cut short (a
        game cut short already has its own warning, result-mismatch)."""
        match, score, length = self.match, self.score, self.length
        if length > 0 and match.games and max(score) < length and not self.unknown and self.last.winner is not None:
            last = match.games[-1]
            loc = last.actions[-1].loc if last.actions else last.loc
            self.note("match-score", ngettext(
                "the record ends at {score}, before either player reaches the {length}-point match: an unfinished "
                "or cut short match?",
                "the record ends at {score}, before either player reaches the {length}-point match: an unfinished "
                "or cut short match?", length).format(score=f"{score[0]}-{score[1]}", length=length),
                loc, WARNING, last.number)

"""What people read of a statistics table: the headings of the terminal table and of markdown, and the
words of the columns whose values are words (result, kind, grade, cube owner).

The column names and values themselves are the tables' interface: CSV, JSON and Parquet keep them in every
language, and ``--sort``, ``--columns`` and the notes that name columns use them (docs/i18n.md)."""
from __future__ import annotations

from ..i18n import pgettext

__all__ = ["heading", "headings", "value_words", "WORD_COLUMNS"]

# the columns whose values are words people read (translated in the terminal table and in markdown)
WORD_COLUMNS = ("result", "kind", "grade", "cube_owner")


def headings() -> dict[str, str]:
    """{column: its heading in the current language} (English: the column's name)."""
    return {**_game_headings(), **_player_and_decision_headings()}


def _game_headings() -> dict[str, str]:
    """The headings of the columns of ``--by game`` (and of what the other tables share with it)."""
    # TRANSLATORS: the headings of the statistics tables (terminal and markdown): short, as a column's title;
    # the English heading is the column's name in CSV and JSON
    return {
        "path": pgettext("column heading", "path"),
        "game": pgettext("column heading", "game"),
        "match": pgettext("column heading", "match"),
        "variant": pgettext("column heading", "variant"),
        "date": pgettext("column heading", "date"),
        "length": pgettext("column heading", "length"),
        "player": pgettext("column heading", "player"),
        "opponent": pgettext("column heading", "opponent"),
        "side": pgettext("column heading", "side"),
        "score": pgettext("column heading", "score"),
        "opp_score": pgettext("column heading", "opp_score"),
        "turns": pgettext("column heading", "turns"),
        "rolls": pgettext("column heading", "rolls"),
        "doubles": pgettext("column heading", "doubles"),
        "die_1": pgettext("column heading", "die_1"),
        "die_2": pgettext("column heading", "die_2"),
        "die_3": pgettext("column heading", "die_3"),
        "die_4": pgettext("column heading", "die_4"),
        "die_5": pgettext("column heading", "die_5"),
        "die_6": pgettext("column heading", "die_6"),
        "hits": pgettext("column heading", "hits"),
        "hit": pgettext("column heading", "hit"),
        "pips": pgettext("column heading", "pips"),
        "borne_off": pgettext("column heading", "borne_off"),
        "cube_offered": pgettext("column heading", "cube_offered"),
        "cube_taken": pgettext("column heading", "cube_taken"),
        "cube_dropped": pgettext("column heading", "cube_dropped"),
        "max_cube": pgettext("column heading", "max_cube"),
        "result": pgettext("column heading", "result"),
        "kind": pgettext("column heading", "kind"),
        "points": pgettext("column heading", "points"),
        "illegal": pgettext("column heading", "illegal"),
        "primes": pgettext("column heading", "primes"),
        "shutouts": pgettext("column heading", "shutouts"),
        "forced": pgettext("column heading", "forced"),
        "handover_steps": pgettext("column heading", "handover_steps"),
        "longest_chain": pgettext("column heading", "longest_chain"),
    }


def _player_and_decision_headings() -> dict[str, str]:
    """The headings of the columns of ``--by player`` and ``--by match``, and of the skill analysis."""
    return {
        "games": pgettext("column heading", "games"),
        "finished": pgettext("column heading", "finished"),
        "wins": pgettext("column heading", "wins"),
        "losses": pgettext("column heading", "losses"),
        "win_rate": pgettext("column heading", "win_rate"),
        "points_for": pgettext("column heading", "points_for"),
        "points_against": pgettext("column heading", "points_against"),
        "points_per_game": pgettext("column heading", "points_per_game"),
        "gammons_won": pgettext("column heading", "gammons_won"),
        "gammons_lost": pgettext("column heading", "gammons_lost"),
        "backgammons_won": pgettext("column heading", "backgammons_won"),
        "backgammons_lost": pgettext("column heading", "backgammons_lost"),
        "mars_won": pgettext("column heading", "mars_won"),
        "mars_lost": pgettext("column heading", "mars_lost"),
        "koks_won": pgettext("column heading", "koks_won"),
        "koks_lost": pgettext("column heading", "koks_lost"),
        "resigned": pgettext("column heading", "resigned"),
        "dropped": pgettext("column heading", "dropped"),
        "draws": pgettext("column heading", "draws"),
        "home_mars_won": pgettext("column heading", "home_mars_won"),
        "home_mars_lost": pgettext("column heading", "home_mars_lost"),
        "timed_out": pgettext("column heading", "timed_out"),
        "doubles_rate": pgettext("column heading", "doubles_rate"),
        "doubles_low": pgettext("column heading", "doubles_low"),
        "doubles_high": pgettext("column heading", "doubles_high"),
        "dice_chi2": pgettext("column heading", "dice_chi2"),
        "dice_p": pgettext("column heading", "dice_p"),
        "hits_per_game": pgettext("column heading", "hits_per_game"),
        "pips_per_roll": pgettext("column heading", "pips_per_roll"),
        "illegal_per_100": pgettext("column heading", "illegal_per_100"),
        "player1": pgettext("column heading", "player1"),
        "player2": pgettext("column heading", "player2"),
        "score1": pgettext("column heading", "score1"),
        "score2": pgettext("column heading", "score2"),
        "winner": pgettext("column heading", "winner"),
        "complete": pgettext("column heading", "complete"),
        "turn": pgettext("column heading", "turn"),
        "line": pgettext("column heading", "line"),
        "away": pgettext("column heading", "away"),
        "opp_away": pgettext("column heading", "opp_away"),
        "crawford": pgettext("column heading", "crawford"),
        "cube": pgettext("column heading", "cube"),
        "cube_owner": pgettext("column heading", "cube_owner"),
        "position_id": pgettext("column heading", "position_id"),
        "match_id": pgettext("column heading", "match_id"),
        "dice": pgettext("column heading", "dice"),
        "play": pgettext("column heading", "play"),
        "best": pgettext("column heading", "best"),
        "equity_played": pgettext("column heading", "equity_played"),
        "equity_best": pgettext("column heading", "equity_best"),
        "error": pgettext("column heading", "error"),
        "grade": pgettext("column heading", "grade"),
        "trivial": pgettext("column heading", "trivial"),
        "counted": pgettext("column heading", "counted"),
        "moves": pgettext("column heading", "moves"),
        "luck": pgettext("column heading", "luck"),
        "equity_average": pgettext("column heading", "equity_average"),
        "nd": pgettext("column heading", "nd"),
        "dt": pgettext("column heading", "dt"),
        "dp": pgettext("column heading", "dp"),
        "part": pgettext("column heading", "part"),
        "decisions": pgettext("column heading", "decisions"),
        "unforced": pgettext("column heading", "unforced"),
        "checker_decisions": pgettext("column heading", "checker_decisions"),
        "unforced_checker": pgettext("column heading", "unforced_checker"),
        "cube_decisions": pgettext("column heading", "cube_decisions"),
        "checker_error": pgettext("column heading", "checker_error"),
        "cube_error": pgettext("column heading", "cube_error"),
        "error_rate": pgettext("column heading", "error_rate"),
        "checker_error_rate": pgettext("column heading", "checker_error_rate"),
        "cube_error_rate": pgettext("column heading", "cube_error_rate"),
        "pr": pgettext("column heading", "pr"),
        "doubtful": pgettext("column heading", "doubtful"),
        "bad": pgettext("column heading", "bad"),
        "very_bad": pgettext("column heading", "very_bad"),
        "luck_rate": pgettext("column heading", "luck_rate"),
        "opp_luck": pgettext("column heading", "opp_luck"),
        "luck_adjusted": pgettext("column heading", "luck_adjusted"),
    }


def heading(column: str) -> str:
    """The heading of ``column`` in the current language (English: the column's name)."""
    return headings().get(column, column)


def value_words() -> dict[str, dict[str, str]]:
    """{column of WORD_COLUMNS: {value: the word people read}}."""
    return {
        "result": {
            "win": pgettext("result value", "win"),
            "loss": pgettext("result value", "loss"),
            "draw": pgettext("result value", "draw"),
        },
        "kind": {
            "single": pgettext("kind value", "single"),
            "gammon": pgettext("kind value", "gammon"),
            "backgammon": pgettext("kind value", "backgammon"),
            "mars": pgettext("kind value", "mars"),
            "koks": pgettext("kind value", "koks"),
            "home-mars": pgettext("kind value", "home-mars"),
            "resign": pgettext("kind value", "resign"),
            "drop": pgettext("kind value", "drop"),
            "timeout": pgettext("kind value", "timeout"),
            "draw": pgettext("kind value", "draw"),
            "checker": pgettext("kind value", "checker"),
            "double": pgettext("kind value", "double"),
            "take": pgettext("kind value", "take"),
        },
        "grade": {
            "doubtful": pgettext("grade value", "doubtful"),
            "bad": pgettext("grade value", "bad"),
            "very bad": pgettext("grade value", "very bad"),
        },
        "cube_owner": {
            "centered": pgettext("cube_owner value", "centered"),
            "player": pgettext("cube_owner value", "player"),
            "opponent": pgettext("cube_owner value", "opponent"),
        },
    }

"""The columns of the statistics tables, their dtypes and meanings (docs/stats.md), in one place: read by the
tally (:mod:`.tally`: its rows are in :data:`GAME_COLUMNS` order), the frames (:mod:`.frames`) and the
rendering (:mod:`.render`)."""
from __future__ import annotations

from ..engine import level_words

# name -> (dtype, meaning).  The order is the order of the frame's columns.
GAME_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("category", "the record file"),
    "game": ("int64", "the game's number: its own Game N (the order in the file when unnumbered)"),
    "match": ("category", "match id: the header's \"Match ID\" tag, else the path"),
    "variant": ("category", "backgammon, long or gulbara"),
    "date": ("datetime64[ns]", "the header's EventDate (or Date) tag; NaT when absent"),
    "length": ("int64", "match length in points; 0 for money play"),
    "player": ("category", "this player's normalised name (see --alias)"),
    "opponent": ("category", "the opponent's normalised name"),
    "side": ("int64", "0 = first name on the score line (left column), 1 = second"),
    "score": ("int64", "this player's match score at the start of the game"),
    "opp_score": ("int64", "the opponent's match score at the start of the game"),
    "turns": ("int64", "turns played (rolls, plus cube actions that ended the game)"),
    "rolls": ("int64", "rolls played (a roll with unreadable dice is a turn, not a roll)"),
    "doubles": ("int64", "doubles rolled"),
    "die_1": ("int64", "dice showing 1 (each die of each roll counted once)"),
    "die_2": ("int64", "dice showing 2"),
    "die_3": ("int64", "dice showing 3"),
    "die_4": ("int64", "dice showing 4"),
    "die_5": ("int64", "dice showing 5"),
    "die_6": ("int64", "dice showing 6"),
    "hits": ("int64", "opposing blots hit by this player"),
    "hit": ("int64", "own checkers hit by the opponent"),
    "pips": ("int64", "pips moved: the drop of this player's pip count (a bear-off counts the point's pips)"),
    "borne_off": ("int64", "checkers this player bore off"),
    "cube_offered": ("int64", "doubles offered by this player"),
    "cube_taken": ("int64", "doubles of the opponent this player took"),
    "cube_dropped": ("int64", "doubles of the opponent this player dropped"),
    "max_cube": ("int64", "the highest cube value of the game (1 when never turned)"),
    "result": ("category", "win, loss or draw (the last-roll draw); missing (NaN) when the record ends without "
                           "a result"),
    "kind": ("category", "how the game ended: single, gammon, backgammon (mars, koks, home-mars in long nardy and "
                         "Gul bara), resign, drop, timeout, draw; missing when unfinished"),
    "points": ("int64", "points the variant's scoring credits this player for the game (0 for the loser)"),
    "illegal": ("int64", "error findings in this player's turns (rule breaks, as validate reports them)"),
    "primes": ("int64", "turns that made six adjacent blocked points with an opposing checker behind them"),
    "shutouts": ("int64", "turns that closed all six home points while an opposing checker was on the bar"),
    "forced": ("int64", "turns whose roll had at most one legal play (engine)"),
    "handover_steps": ("int64", "Gul bara: steps played with numbers handed over by the opponent"),
    "longest_chain": ("int64", "Gul bara: the longest doubles chain of one turn (1 = a double with no "
                               "chain); 0 when no double was rolled"),
}

PLAYER_COLUMNS: dict[str, tuple[str, str]] = {
    "player": ("category", "normalised name"),
    "games": ("int64", "games played (rows)"),
    "finished": ("int64", "games with a result"),
    "wins": ("int64", "games won"),
    "losses": ("int64", "games lost"),
    "win_rate": ("float64", "wins / finished games"),
    "points_for": ("int64", "points won"),
    "points_against": ("int64", "points the opponents won in these games"),
    "points_per_game": ("float64", "(points_for - points_against) / finished games"),
    "gammons_won": ("int64", "gammons (mars) won"),
    "gammons_lost": ("int64", "gammons (mars) lost"),
    "backgammons_won": ("int64", "backgammons (koks) won"),
    "backgammons_lost": ("int64", "backgammons (koks) lost"),
    "mars_won": ("int64", "mars won (long nardy, Gul bara)"),
    "mars_lost": ("int64", "mars lost"),
    "koks_won": ("int64", "koks won (long nardy, Gul bara)"),
    "koks_lost": ("int64", "koks lost"),
    "resigned": ("int64", "games this player resigned"),
    "dropped": ("int64", "games this player lost by dropping a double"),
    "draws": ("int64", "games drawn (the last-roll draw)"),
    "home_mars_won": ("int64", "home mars won (long nardy, Gul bara with option home_mars)"),
    "home_mars_lost": ("int64", "home mars lost"),
    "timed_out": ("int64", "games this player lost on time (a timeout)"),
    "rolls": ("int64", "rolls"),
    "doubles": ("int64", "doubles rolled"),
    "doubles_rate": ("float64", "doubles / rolls (fair dice: 1/6)"),
    "doubles_low": ("float64", "95% Wilson interval of the doubles rate: lower end"),
    "doubles_high": ("float64", "95% Wilson interval of the doubles rate: upper end"),
    "dice_chi2": ("float64", "chi-square statistic of the die faces against fair dice (5 degrees of freedom)"),
    "dice_p": ("float64", "its p-value (chi-square, 5 degrees of freedom); small values suggest unfair dice or records"),
    "die_1": ("int64", "dice showing 1"), "die_2": ("int64", "dice showing 2"),
    "die_3": ("int64", "dice showing 3"), "die_4": ("int64", "dice showing 4"),
    "die_5": ("int64", "dice showing 5"), "die_6": ("int64", "dice showing 6"),
    "hits": ("int64", "opposing blots hit"),
    "hits_per_game": ("float64", "hits / games"),
    "hit": ("int64", "own checkers hit"),
    "pips": ("int64", "pips moved"),
    "pips_per_roll": ("float64", "pips / rolls"),
    "borne_off": ("int64", "checkers borne off"),
    "cube_offered": ("int64", "doubles offered"),
    "cube_taken": ("int64", "doubles taken"),
    "cube_dropped": ("int64", "doubles dropped"),
    "max_cube": ("int64", "highest cube value in any of the games"),
    "turns": ("int64", "turns"),
    "illegal": ("int64", "error findings in this player's turns"),
    "illegal_per_100": ("float64", "illegal per 100 turns"),
    "primes": ("int64", "primes made"),
    "shutouts": ("int64", "shutouts made"),
    "forced": ("int64", "forced turns"),
    "handover_steps": ("int64", "Gul bara handover steps played"),
    "longest_chain": ("int64", "longest doubles chain in any game"),
}

MATCH_COLUMNS: dict[str, tuple[str, str]] = {
    "path": ("category", "the record file"),
    "match": ("category", "match id"),
    "variant": ("category", "variant"),
    "date": ("datetime64[ns]", "EventDate; NaT when absent"),
    "player1": ("category", "first player (left column)"),
    "player2": ("category", "second player"),
    "length": ("int64", "match length; 0 for money play"),
    "games": ("int64", "games in the record"),
    "score1": ("int64", "final score of player1: the last game's starting score plus its result"),
    "score2": ("int64", "final score of player2"),
    "winner": ("category", "who reached the match length (money play: who is ahead); missing when "
                           "the match is unfinished or level"),
    "complete": ("bool", "a player reached the match length (money play: the last game has a result)"),
    "illegal": ("int64", "error findings in the match"),
}

_ENDS = ["resign", "drop", "timeout", "draw"]      # the kinds of a game's end that are not a win level
RESULTS = ["win", "loss", "draw"]                  # the values of the result column


def kinds() -> list[str]:
    """The values of the ``kind`` column: every variant's words for its win levels (backgammon's single,
    gammon, backgammon; the long games' mars, koks), then the other ends."""
    return list(dict.fromkeys([*level_words(), *_ENDS]))
COUNTERS = ("turns", "rolls", "doubles", "die_1", "die_2", "die_3", "die_4", "die_5", "die_6", "hits", "hit",
             "pips", "borne_off", "cube_offered", "cube_taken", "cube_dropped", "primes", "shutouts", "forced",
             "handover_steps", "longest_chain")


# of nardy_analyze.stats.aggregate are these, then games, points_for, points_against, max_cube, longest_chain).
PLAYER_SUMS = ["finished", "wins", "losses", "gammons_won", "gammons_lost", "backgammons_won", "backgammons_lost",
               "mars_won", "mars_lost", "koks_won", "koks_lost", "resigned", "dropped", "draws", "home_mars_won",
               "home_mars_lost", "timed_out", "rolls", "doubles",
               "die_1", "die_2", "die_3", "die_4", "die_5", "die_6", "hits", "hit", "pips", "borne_off",
               "cube_offered", "cube_taken", "cube_dropped", "turns", "illegal", "primes", "shutouts", "forced",
               "handover_steps"]


def returns_doc(spec: dict[str, tuple[str, str]], what: str) -> str:
    """The "Returns" section of the docstring of a function that returns a table of ``spec``."""
    lines = ["", "", "    Returns", "    -------", f"    pandas.DataFrame, {what}, with these columns:", ""]
    lines += [f"    ``{col}`` ({dtype}): {meaning}" for col, (dtype, meaning) in spec.items()]
    return "\n".join(lines) + "\n"

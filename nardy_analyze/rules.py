"""The rule ids (public interface, docs/rules.md) with a one-line summary each."""
from __future__ import annotations

from .i18n import N_

RULES: dict[str, str] = {
    "dice-mismatch": N_("a step's distance is not an unused number of the roll, the roll text is not two dice 1-6, "
                        "or the play has more steps than the roll allows"),
    "no-checker": N_("a step starts from a point (or the bar) where the mover has no checker"),
    "blocked-point": N_("a step lands on a closed point"),
    "bar-first": N_("a checker moved while the mover still had a checker on the bar"),
    "bear-off-early": N_("a checker was borne off while not all 15 were home"),
    "bear-off-inexact": N_("a larger number bore off although a checker stood higher (any non-exact bear-off in "
                           "gulbara)"),
    "max-dice": N_("fewer numbers used than a legal play could use"),
    "larger-die": N_("only one number could be used and the smaller was used although the larger could be"),
    "head-rule": N_("more checkers left the head than allowed"),
    "six-block": N_("a six-point block with no opposing checker past it"),
    "home-move": N_("a checker moved inside home"),
    "doubles-chain": N_("the chain of doubles is missing, out of order or continued too far"),
    "handover": N_("unused numbers not handed to the opponent, or handed when they were playable"),
    "opening-roll": N_("the opening play is a double where the variant forbids it"),
    "cube-illegal": N_("a double when it is not allowed (Crawford game, cube owned by the other side, no cube, "
                       "after rolling), or a beaver when it is not (match play, beaver rule off, no double to answer)"),
    "cube-response": N_("a take or drop without a double, or a double with no answer"),
    "result-mismatch": N_("the declared winner or points do not follow from the final position, the cube and the "
                          "scoring; a resignation level the position no longer allows; an answer to no resignation"),
    "match-score": N_("a game's starting score differs from the sum of earlier results, or a game follows the end "
                      "of the match; warning: a match record that ends before anyone reaches the match length"),
    "time-limit": N_("a move took longer than the record's time control, or a running clock fell below zero, without "
                     "a timeout being declared; or a timeout declared with time left on the clock"),
    "parse-error": N_("the text is not a readable record at this place (or a set-up that is no position)"),
    "free-text": N_("warning: text that is no match text (a tournament's banner before the \"N point match\" "
                    "line), kept as the match's comments"),
}

# Ids of this tool beyond the shared rules reference (../shared/docs/RULES.md, whose ids all are ours, in its
# order): notices that are no broken rule, given an id of their own so that no filter of them hides one
ADDED: tuple[str, ...] = ("free-text",)

# Rules the replayer checks (every id of docs/rules.md: backgammon, long nardy, Gul bara, clock times).
CHECKED = tuple(RULES)

# Where a rule applies, in words, for a rule that is not a variant's own (for ``nardy-analyze rules``; the
# rules only some variants check are declared by the variants: ``Rules.OWN_RULES``).
WHERE: dict[str, str] = {
    "time-limit": N_("clock times with a time control (seconds per move, or a clock with an increment); "
                     "nardy500: 120 s"),
}

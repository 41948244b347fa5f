"""The rules engine: pure functions over positions, one module per variant.

A variant is a value: :class:`Variant` couples a rules object with its options.  The variants' registry
(``registry.py``: the one alias table, ``register``, ``get_variant``) and the rule set (``ruleset.py``: rule
options parsed and resolved in one precedence, presets, tags, the command line) are re-exported here.
"""
from __future__ import annotations

from .backgammon import Backgammon
from .core import (BAR, CHECKERS, OFF, OPPONENT, ROLLER, ROLL_NUMBERS, ROLLS, Dice, PlaySet, Pos, RuleResult, Rules,
                   SegmentSpec, Side, TurnDriver, borne_off, fmt_steps, generate, roll_plays, valid_dice, variant_title)
from .gulbara import GulBara
from .long import HEAD_EXCEPTION, LongNardy
from .registry import (DEFAULT_VARIANT, OPTIONS, VARIANTS, UnknownVariant, Variant, canonical_name, get_variant,
                       level_words, not_played, register, rules_classes, rules_named, unregister, variant_display,
                       variant_names)
from .ruleset import RuleSet, all_option_names, option_spec, parse_option
from .scoring import Scoring

__all__ = [
    "BAR", "OFF", "CHECKERS", "Variant", "VARIANTS", "OPTIONS", "get_variant", "legal_results",
    "PlaySet", "Pos", "Side", "borne_off", "fmt_steps", "generate", "UnknownVariant", "SegmentSpec",
    "TurnDriver", "ROLLER", "OPPONENT", "LongNardy", "GulBara", "Rules", "register", "unregister",
    "canonical_name", "rules_named", "variant_display", "variant_title", "level_words", "Backgammon", "DEFAULT_VARIANT",
    "variant_names", "rules_classes", "not_played", "RuleSet", "all_option_names", "option_spec", "parse_option",
    "Scoring", "HEAD_EXCEPTION",
    "Dice", "RuleResult", "ROLLS", "ROLL_NUMBERS", "roll_plays", "valid_dice",
]


def legal_results(variant: str | Variant, mover: Side, opponent: Side, dice, *,
                  first_turn: bool = False) -> set[Pos]:
    """The set of ``(mover_after, opponent_after)`` positions reached by legal plays of ``dice``.

    Positions are tuples of 25 ints in their owner's own numbering (index p-1 = point p,
    index 24 = bar, always 0 in long nardy and Gul bara).  The unchanged position when nothing can be
    played.  ``first_turn``: the mover's own first turn (long-nardy head exception).  For Gul bara this
    is the mover's own play of the one roll (the four steps of one double); chains and handovers are
    the turn driver's business (``rules.turn_segments``).
    """
    v = variant if isinstance(variant, Variant) else get_variant(variant)
    d1, d2 = int(dice[0]), int(dice[1])
    me, opp = tuple(mover), tuple(opponent)
    turn = v.rules.start_turn(me, opp, first_turn, (d1, d2))
    return set(generate(v.rules, me, opp, Dice.roll(d1, d2).numbers, turn).plays)

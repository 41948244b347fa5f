"""The rules engine: pure functions over positions, one module per variant.

A variant is a value: :class:`Variant` couples a rules object with its options.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .backgammon import Backgammon
from .core import (BAR, CHECKERS, OFF, OPPONENT, ROLLER, PlaySet, Pos, Rules, SegmentSpec, Side, TurnDriver,
                   borne_off, fmt_steps, generate)
from .gulbara import GulBara
from .long import HEAD_EXCEPTION, LongNardy

__all__ = [
    "BAR", "OFF", "CHECKERS", "Variant", "VARIANTS", "OPTIONS", "get_variant", "legal_results",
    "PlaySet", "Pos", "Side", "borne_off", "fmt_steps", "generate", "UnknownVariant", "SegmentSpec",
    "TurnDriver", "ROLLER", "OPPONENT", "LongNardy", "GulBara",
]


class UnknownVariant(ValueError):
    pass


# Rule options per variant, with defaults and the values allowed (RULES.md).
OPTIONS: dict[str, dict[str, tuple[Any, tuple]]] = {
    "backgammon": {
        "scoring": ("points", ("points", "nardy500")),
        "cube": (True, (True, False)),
        "crawford": (True, (True, False)),
        "jacoby": (False, (True, False)),
        "beaver": (False, (True, False)),
        "cube_limit": (None, ()),       # None = no limit; an int otherwise
        "time_limit": (None, ()),       # seconds per move (nardy500: 120)
    },
}

# Options every variant answers (the replayer reads them whatever the variant).
_COMMON: dict[str, tuple[Any, tuple]] = {
    "scoring": ("points", ("points",)),
    "cube": (False, (True, False)),
    "crawford": (True, (True, False)),
    "jacoby": (False, (True, False)),
    "beaver": (False, (True, False)),
    "cube_limit": (None, ()),
    "time_limit": (None, ()),
}
OPTIONS["long"] = {
    **_COMMON,
    "head_exception": ("standard", HEAD_EXCEPTION),   # RULES.md 2.3
    "koks": (False, (True, False)),                   # RULES.md 2.8
}
OPTIONS["gulbara"] = {
    **OPTIONS["long"],
    "chain_from_turn": (1, ()),                       # RULES.md 3.2: the roll of the game chains start at
}

_RULES: dict[str, Rules] = {"backgammon": Backgammon(), "long": LongNardy(), "gulbara": GulBara()}
VARIANTS = tuple(_RULES)
PLANNED: tuple[str, ...] = ()
_ALIASES = {"shortnardy": "backgammon", "short": "backgammon", "bg": "backgammon", "longnardy": "long",
            "longnardi": "long", "nardy": "long", "gulbara": "gulbara", "gul-bara": "gulbara",
            "gul_bara": "gulbara", "long-nardy": "long", "long_nardy": "long", "short-nardy": "backgammon",
            "short_nardy": "backgammon"}
_BUILT: dict[tuple, Rules] = {}


def _rules_for(key: str, opts: dict[str, Any]) -> Rules:
    """The rules object of a variant with its options (one instance per distinct option set)."""
    if key == "backgammon":
        return _RULES[key]
    args = {k: opts.get(k, OPTIONS[key][k][0]) for k in ("head_exception", "koks")}
    if key == "gulbara":
        args["chain_from_turn"] = opts.get("chain_from_turn", OPTIONS[key]["chain_from_turn"][0]) or 1
    sig = (key, tuple(sorted(args.items())))
    if sig not in _BUILT:
        _BUILT[sig] = (GulBara if key == "gulbara" else LongNardy)(**args)
    return _BUILT[sig]


@dataclass(frozen=True)
class Variant:
    name: str
    rules: Any
    options: dict[str, Any] = field(default_factory=dict)

    def opt(self, key: str) -> Any:
        return self.options.get(key, OPTIONS[self.name][key][0])


def parse_option(variant: str, key: str, value: str) -> Any:
    """Turn ``--rule key=value`` text into a typed option value (ValueError on nonsense)."""
    spec = OPTIONS.get(variant, {})
    if key not in spec:
        raise ValueError(f"unknown rule option {key!r} for {variant}; known: {', '.join(sorted(spec))}")
    default, allowed = spec[key]
    v = value.strip().lower()
    if isinstance(default, bool) or True in allowed:
        if v in ("1", "true", "yes", "on"):
            return True
        if v in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"rule option {key} takes on/off, not {value!r}")
    if allowed:
        if v not in allowed:
            raise ValueError(f"rule option {key} takes one of {', '.join(allowed)}, not {value!r}")
        return v
    if v in ("none", "", "off", "0"):
        return None
    try:
        return int(v)
    except ValueError:
        raise ValueError(f"rule option {key} takes a whole number, not {value!r}") from None


def get_variant(name: str, options: dict[str, Any] | None = None) -> Variant:
    key = name.strip().lower().replace(" ", "")
    key = _ALIASES.get(key, key)
    if key not in _RULES:
        raise UnknownVariant(f"unknown variant {name!r}; known: {', '.join(VARIANTS)}")
    opts = dict(options or {})
    if opts.get("scoring") == "nardy500":
        opts.setdefault("cube", False)
        opts.setdefault("time_limit", 120)
    try:
        rules = _rules_for(key, opts)
    except (TypeError, ValueError) as e:
        raise UnknownVariant(f"bad rule options for {key}: {e}") from None
    return Variant(key, rules, opts)


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
    return set(generate(v.rules, me, opp, d1, d2, turn).plays)

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


# Options every variant has: the clock (a record's TimeControl tag, seed 003's two minutes per move).
COMMON_OPTIONS: dict[str, tuple[Any, tuple]] = {
    "time_limit": (None, ()),       # seconds per move; None = no limit (nardy500: 120)
}

# Rule options per variant, with defaults and the values allowed (RULES.md).  The replayer reads only
# the options its variant has (``Variant.has``).
OPTIONS: dict[str, dict[str, tuple[Any, tuple]]] = {
    "backgammon": {
        "scoring": ("points", ("points", "nardy500")),
        "cube": (True, (True, False)),
        "crawford": (True, (True, False)),
        "jacoby": (False, (True, False)),
        "beaver": (False, (True, False)),
        "cube_limit": (None, ()),       # None = no limit; an int otherwise
        **COMMON_OPTIONS,
    },
}

# Long nardy (RULES.md 2.8): no cube by default; option ``cube`` multiplies as in backgammon (with a
# ``cube_limit`` where the record states one).  No Crawford, Jacoby or beaver rule and no nardy500 scoring:
# RULES.md names them for backgammon only, and the replayer reads only the options a variant has.
OPTIONS["long"] = {
    "cube": (False, (True, False)),
    "cube_limit": (None, ()),
    "head_exception": ("standard", HEAD_EXCEPTION),   # RULES.md 2.3
    "koks": (False, (True, False)),                   # RULES.md 2.8
    **COMMON_OPTIONS,
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

    def has(self, key: str) -> bool:
        """Whether this variant knows the rule option ``key``."""
        return key in OPTIONS[self.name]

    def opt(self, key: str) -> Any:
        """The option's value (the variant's default when not set); KeyError for an option the variant
        does not have -- ask ``has`` first, or use ``get``."""
        return self.options.get(key, OPTIONS[self.name][key][0])

    def get(self, key: str, absent: Any = None) -> Any:
        """The option's value, or ``absent`` when the variant has no such option."""
        return self.opt(key) if self.has(key) else absent

    # -- game-level policy, asked of the rules object with this variant's options ----------------------
    @property
    def cube_in_play(self) -> bool:
        return bool(self.rules.cube_in_play(self.get))

    def stake(self, level: int, cube: int = 1, cube_turned: bool = False) -> int:
        return self.rules.stake(level, cube, cube_turned, self.get)

    def resign_stakes(self, top: int, cube: int = 1, cube_turned: bool = False) -> dict[int, int]:
        return self.rules.resign_stakes(top, cube, cube_turned, self.get)

    def drop_stake(self, cube: int, cube_turned: bool = False) -> int:
        return self.rules.drop_stake(cube, cube_turned, self.get)

    def level_name(self, level: int) -> str:
        return self.rules.level_name(level, self.get)

    def level_kind(self, level: int) -> str:
        """One word for a game won at ``level`` (1-3): single, gammon, backgammon; single, mars, koks in the
        long games."""
        return self.rules.LEVEL_KINDS.get(level, "single")

    @property
    def level_kinds(self) -> tuple[str, str]:
        """The words of levels 2 and 3 (gammon, backgammon; mars, koks)."""
        return self.rules.LEVEL_KINDS[2], self.rules.LEVEL_KINDS[3]


def all_option_names() -> list[str]:
    """Every option some variant knows."""
    return sorted({k for spec in OPTIONS.values() for k in spec})


def option_spec(key: str, variant: str | None = None) -> tuple[Any, tuple]:
    """(default, allowed) of option ``key`` in ``variant``, or in the first variant that has it."""
    if variant is not None:
        spec = OPTIONS.get(variant, {})
        if key not in spec:
            raise ValueError(f"unknown rule option {key!r} for {variant}; known: {', '.join(sorted(spec))}")
        return spec[key]
    for spec in OPTIONS.values():
        if key in spec:
            return spec[key]
    raise ValueError(f"unknown rule option {key!r}; known: {', '.join(all_option_names())}")


def parse_option(variant: str | None, key: str, value: str) -> Any:
    """Turn ``--rule key=value`` text into a typed option value (ValueError on nonsense).  ``variant``
    None: the option of that name in any variant (the variant is chosen per record later)."""
    default, allowed = option_spec(key, variant)
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

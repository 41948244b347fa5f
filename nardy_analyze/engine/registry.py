"""The variants' registry: the one place a variant is made known, by its name and aliases (the package's one
alias table), and the one place a variant's rules object is built for a set of options.

A variant is a :class:`~nardy_analyze.engine.core.Rules` subclass registered here (:func:`register`); what it
declares (its options, scorings, level words and columns, the rule ids only it checks, what it has) is data
on that class, and nothing outside ``engine/`` names it.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from ..shapes import dataclass
from .backgammon import Backgammon
from .core import COMMON_OPTIONS, Rules, variant_title
from .gulbara import GulBara
from .long import LongNardy
from ..i18n import N_, _


class UnknownVariant(ValueError):
    pass


_RULES: dict[str, type[Rules]] = {}        # the engine's name -> the variant's rules class
_ALIASES: dict[str, str] = {}               # every spelling (names and aliases, normalised) -> name
# Rule options per variant (the rules classes' OPTIONS), with defaults and the values allowed.  The replayer
# reads only the options its variant has (``Variant.has``).
OPTIONS: dict[str, dict[str, tuple[Any, tuple]]] = {}
VARIANTS: tuple[str, ...] = ()
DEFAULT_VARIANT = "backgammon"              # a record that names no variant, and --variant's default
# the rules objects built, one per variant and distinct constructor arguments (a handful: see build_args)
# The rules objects built: one per distinct option set, keyed by value (the variant's name and its constructor's
# arguments), the last BUILT_MAX of them (a run over many option sets, home_mars=N for every N, keeps so many).
BUILT_MAX = 64
_BUILT: dict[tuple, Rules] = {}
_VARIANTS: dict[tuple, "Variant"] = {}    # get_variant's: (name, options' items) -> the Variant

# The built-in variants, in their order (the order of every list of variants): the one list of them.
BUILTIN: tuple[type[Rules], ...] = (Backgammon, LongNardy, GulBara)


def _key(text: str) -> str:
    return text.strip().lower().replace(" ", "")


def register(cls: type[Rules]) -> type[Rules]:
    """Make the variant ``cls`` (a :class:`Rules` subclass) known by its name and aliases: to
    ``get_variant``, and so to every notation, the command line and the replay.  Returns ``cls``."""
    global VARIANTS
    taken = [a for a in (cls.name, *cls.aliases) if _ALIASES.get(_key(a), cls.name) != cls.name]
    if taken:
        raise ValueError(f"variant {cls.name}: {', '.join(taken)} already names another variant")
    _RULES[cls.name] = cls
    OPTIONS[cls.name] = dict(cls.OPTIONS) or dict(COMMON_OPTIONS)
    for a in (cls.name, *cls.aliases):
        _ALIASES[_key(a)] = cls.name
    VARIANTS = tuple(_RULES)
    _VARIANTS.clear()                   # (the variants kept by get_variant: made again with this class)
    return cls


def unregister(name: str) -> None:
    """Forget the variant ``name`` (and its aliases): for a variant registered for a while (tests)."""
    global VARIANTS
    _RULES.pop(name, None)
    OPTIONS.pop(name, None)
    for a in [a for a, n in _ALIASES.items() if n == name]:
        del _ALIASES[a]
    for sig in [sig for sig in _BUILT if sig[0] == name]:
        del _BUILT[sig]
    _VARIANTS.clear()
    VARIANTS = tuple(_RULES)


for _cls in BUILTIN:
    register(_cls)


def variant_names() -> tuple[str, ...]:
    """The engine's names of the variants registered now, in their order (the built-in ones first)."""
    return VARIANTS


def spellings() -> set[str]:
    """Every spelling of a variant's name the alias table knows, normalised (lower case, no spaces)."""
    return set(_ALIASES)


def rules_classes() -> tuple[type[Rules], ...]:
    """The rules classes of the variants registered now, in their order."""
    return tuple(_RULES.values())


def canonical_name(text: str | None) -> str | None:
    """The engine's name of the variant that ``text`` names (any alias, any case, spaces ignored; the
    one alias table of the package, used by every notation and the command line); None when no variant
    has that name.  Empty or None text is the default variant."""
    return _ALIASES.get(_key(text or DEFAULT_VARIANT) or DEFAULT_VARIANT)


def level_words(level: int | None = None) -> list[str]:
    """The words of every variant for a game won at ``level`` (every level when None), in the order of
    the variants and levels, each once: single, gammon, backgammon, mars, koks."""
    return list(dict.fromkeys(w for cls in _RULES.values() for k, w in cls.LEVEL_KINDS.items()
                              if level is None or k == level))


def variant_display(name: str | None, case: str = "nom") -> str:
    """The name for people of the variant ``name`` names (an engine name or any alias: "long",
    "gulbara"), in the current language and the grammatical ``case`` (``Rules.display_title``); a name
    no variant has, as it is."""
    key = canonical_name(name)
    if key is None:
        return name or ""
    return variant_title(_RULES[key].title, case)


def rules_named(name: str | None) -> Rules | None:
    """The rules object (default options) of the variant ``name`` names (any alias); None if unknown."""
    key = canonical_name(name)
    return None if key is None else _rules_for(key, {})


def _rules_for(key: str, opts: dict[str, Any]) -> Rules:
    """The rules object of a variant with its options (one instance per distinct option set)."""
    cls = _RULES[key]
    args = cls.build_args(opts)
    sig = (key, tuple(sorted(args.items())))
    rules = _BUILT.get(sig)
    if rules is None:
        if len(_BUILT) >= BUILT_MAX:
            del _BUILT[next(iter(_BUILT))]          # the oldest
        rules = _BUILT[sig] = cls(**args)
    return rules


@dataclass(frozen=True)
class Variant:
    name: str
    rules: Any
    options: dict[str, Any] = field(default_factory=dict)
    # every option of the variant with its value (the default where not set), worked out once: the replay
    # asks them per game and per cube action
    values: dict[str, Any] = field(init=False, repr=False, compare=False)
    # whether the doubling cube is in play under these options (the rules' answer, asked once: every game asks)
    in_play: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spec = OPTIONS[self.name]
        object.__setattr__(self, "values", {k: self.options.get(k, d[0]) for k, d in spec.items()})
        object.__setattr__(self, "in_play", bool(self.rules.cube_in_play(self.values.get)))

    def has(self, key: str) -> bool:
        """Whether this variant knows the rule option ``key``."""
        return key in self.values

    def opt(self, key: str) -> Any:
        """The option's value (the variant's default when not set); KeyError for an option the variant
        does not have -- ask ``has`` first, or use ``get``."""
        return self.values[key]

    def get(self, key: str, absent: Any = None) -> Any:
        """The option's value, or ``absent`` when the variant has no such option."""
        return self.values.get(key, absent)

    # -- game-level policy, asked of the rules object with this variant's options ----------------------
    @property
    def cube_in_play(self) -> bool:
        return self.in_play

    def stake(self, level: int, cube: int = 1, cube_turned: bool = False) -> int:
        return self.rules.stake(level, cube, cube_turned, self.values.get)

    def resign_stakes(self, top: int, cube: int = 1, cube_turned: bool = False) -> dict[int, int]:
        return self.rules.resign_stakes(top, cube, cube_turned, self.values.get)

    def drop_stake(self, cube: int, cube_turned: bool = False) -> int:
        return self.rules.drop_stake(cube, cube_turned, self.values.get)

    def level_name(self, level: int) -> str:
        return self.rules.level_name(level, self.values.get)

    def level_kind(self, level: int) -> str:
        """One word for a game won at ``level`` (1-3): single, gammon, backgammon; single, mars, koks in the
        long games."""
        return self.rules.LEVEL_KINDS.get(level, "single")

    @property
    def level_kinds(self) -> tuple[str, str]:
        """The words of levels 2 and 3 (gammon, backgammon; mars, koks)."""
        return self.rules.LEVEL_KINDS[2], self.rules.LEVEL_KINDS[3]

    @property
    def level_columns(self) -> tuple[str, str]:
        """The stats' column words of levels 2 and 3 (gammons, backgammons; mars, koks): the rules'
        ``LEVEL_COLUMNS``, else the level's word."""
        cols = self.rules.LEVEL_COLUMNS
        return cols.get(2, self.rules.LEVEL_KINDS[2]), cols.get(3, self.rules.LEVEL_KINDS[3])


# Variants named in real records that the engine does not play: the spelling's key -> (name, what it is).
# Every command refuses such a record with one message naming it (not_played), never judges or writes it.
_NOT_PLAYED: dict[str, tuple[str, str]] = {
    "backgammon+1": ("Backgammon +1", N_("backgammon with 16 checkers a side instead of 15 (PPNards)")),
}


def not_played(name: str) -> str | None:
    """The refusal of a variant ``name`` that records use and the engine does not play (what it is, and that
    nardy-analyze does not play it); None for any other name."""
    known = _NOT_PLAYED.get(_key(name))
    if known is None:
        return None
    # TRANSLATORS: {name}: a variant as records name it ("Backgammon +1"); {what}: what that variant is;
    # {known}: the variants the tool plays
    return _("the record is of {name}, {what}: nardy-analyze does not play it, so the record is not judged, "
             "counted or converted (variants played: {known})").format(
        name=known[0], what=_(known[1]), known=", ".join(VARIANTS))


def check_options(key: str, opts: dict[str, Any]) -> None:
    """ValueError when a value of ``opts`` is not one the variant ``key``'s option takes (an option it does
    not have is ignored, as the replay ignores it)."""
    spec = OPTIONS[key]
    for name, value in opts.items():
        if name not in spec:
            continue
        default, allowed = spec[name]
        ok = value in allowed if allowed else (value is None or isinstance(value, (int, float)))
        if not ok:
            raise ValueError(_("rule option {key} takes one of {values}, not {value}").format(
                key=name, values=", ".join(map(str, allowed)) if allowed else "0, 1, 2...", value=repr(value)))


def get_variant(name: str, options: dict[str, Any] | None = None) -> Variant:
    """The variant ``name`` names (any alias) with the rule ``options`` (already resolved: the rule set's
    :func:`~nardy_analyze.engine.ruleset.resolve`), plus what its options imply where not given (nardy500's
    scoring: no cube, two minutes a move).  UnknownVariant for a name no variant has, or an option value the
    variant does not take; an error in a rules class itself is not the user's, and goes on up.  The same
    name and options give the same Variant object (kept: every record of an archive asks for it twice)."""
    try:
        sig = (name, tuple(options.items()) if options else ())
        known = _VARIANTS.get(sig)
    except TypeError:                        # an option value that is not hashable: not kept
        sig = known = None
    if known is not None:
        return known
    variant = _new_variant(name, options)
    if sig is not None:
        if len(_VARIANTS) >= BUILT_MAX:
            _VARIANTS.clear()
        _VARIANTS[sig] = variant
    return variant


def _new_variant(name: str, options: dict[str, Any] | None) -> Variant:
    """:func:`get_variant` without the variants kept."""
    key = _ALIASES.get(_key(name))
    if key is None and not_played(name):
        raise UnknownVariant(not_played(name))
    if key is None:
        raise UnknownVariant(_("unknown variant {name}; known: {known}").format(
            name=repr(name), known=", ".join(VARIANTS)))
    opts = dict(options or {})
    cls = _RULES[key]
    try:
        check_options(key, opts)
        for k, v in cls.implied_options(opts).items():
            opts.setdefault(k, v)
        rules = _rules_for(key, opts)          # a rules class refuses values with ValueError (home_mars=-1)
    except ValueError as e:
        # TRANSLATORS: {variant}: the variant's name in the genitive ("for long nardy")
        raise UnknownVariant(_("bad rule options for {variant}: {error}").format(
            variant=variant_display(key, "gen"), error=e)) from None
    return Variant(key, rules, opts)

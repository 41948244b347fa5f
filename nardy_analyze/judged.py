"""What a record is judged under: the variant it names (else the caller's) and the options of the rule set
(:class:`~nardy_analyze.engine.ruleset.RuleSet`) resolved with its header tags.  The one place every
command (validate, stats, convert, show, hint) decides it; the files themselves are ``inputs.py``'s.
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Mapping

from .shapes import dataclass
from .engine import DEFAULT_VARIANT, UnknownVariant, Variant, get_variant, not_played
from .engine import registry
from .engine.ruleset import RuleSet, bearing_tags
from .record import Loc, Match


def variant_name(match: Match, default: str) -> tuple[str, str | None]:
    """The variant a record names (own notation ``Variant``, .mat ``Variation``), or ``default``; and the
    tag that named it."""
    for tag in ("Variant", "Variation"):
        value = match.tag(tag)
        if value and value.strip():
            return value, tag
    return default, None


@dataclass
class VariantChoice:
    """How a record is judged: the variant it names (else the default) with the options its tags set (else
    the caller's ``--rule`` options).  ``variant`` is None when the record names a variant nobody supports
    (``error`` then says where and why)."""

    variant: Variant | None
    name: str                                            # the variant as named (for reports)
    error: tuple[Loc, str] | None = None                 # an unknown variant or refused option values
    arg_errors: list[str] = field(default_factory=list)  # --rule options the variant does not have
    tag_problems: list[tuple[Loc, str]] = field(default_factory=list)  # option tags that could not be read


# The choices made without a problem, by what they depend on (:func:`_choice_key`): every record of an archive
# asks, and most of them name the same variant and options.  At most CHOICES_MAX (emptied when full); emptied
# too when the variants registered change (``registry.VARIANTS`` is then another tuple).
CHOICES_MAX = 256
_CHOICES: dict[tuple, tuple[Variant, str, tuple[str, ...]]] = {}
_CHOICES_OF: list = [None]      # the registry's VARIANTS the kept choices were made with


def _options_key(options: RuleSet | Mapping[str, Any] | None) -> tuple:
    """``options`` as a hashable value (TypeError when one of its values is not hashable); () for none (None,
    an empty dict: the same rule set)."""
    if not options and not isinstance(options, RuleSet):
        return ()
    if isinstance(options, RuleSet):
        key = ("set", options.preset, tuple(options.common.items()),
               tuple((k, tuple(v.items())) for k, v in options.scoped.items()))
    else:
        key = ("map", tuple(options.items()))
    hash(key)
    return key


def _choice_key(match: Match, default: str, options: RuleSet | Mapping[str, Any] | None) -> tuple | None:
    """What :func:`choose_variant` decides by: the default, the caller's options and the record's tags that bear
    on the variant or its options (in their order, as written); None when it cannot be a key."""
    try:
        opts = _options_key(options)
    except TypeError:
        return None
    tags = match.tags
    return (default, opts, tuple([(k, tags[k]) for k in bearing_tags(tuple(tags))]))


def choose_variant(match: Match, default: str = "backgammon",
                   options: RuleSet | Mapping[str, Any] | None = None) -> VariantChoice:
    """The one place that decides the variant and options of a record (validate, stats and convert alike):
    ``options`` is the caller's rule set (a :class:`RuleSet`, or its flat dict form).  A choice made without a
    problem is kept (:data:`_CHOICES`) for the next record whose tags that bear on it are the same."""
    if _CHOICES_OF[0] is not registry.VARIANTS:
        _CHOICES.clear()
        _CHOICES_OF[0] = registry.VARIANTS
    key = _choice_key(match, default, options)
    kept = _CHOICES.get(key) if key is not None else None
    if kept is not None:
        return VariantChoice(kept[0], kept[1], None, list(kept[2]))
    choice = _choose_variant(match, default, options)
    if key is not None and choice.variant is not None and not choice.tag_problems:
        if len(_CHOICES) >= CHOICES_MAX:
            _CHOICES.clear()
        _CHOICES[key] = (choice.variant, choice.name, tuple(choice.arg_errors))
    return choice


def _choose_variant(match: Match, default: str, options: RuleSet | Mapping[str, Any] | None) -> VariantChoice:
    """:func:`choose_variant` without the choices kept."""
    name, tag = variant_name(match, default)
    try:
        v0 = get_variant(name)
    except UnknownVariant as e:
        key = next((k for k in match.tags if tag and k.casefold() == tag.casefold()), "")
        return VariantChoice(None, str(name), (match.tag_locs.get(key, Loc(1, 1)), str(e)))
    got = RuleSet.of(options).resolve(v0.name, match.tags)
    problems = [(match.tag_locs.get(t, Loc(1, 1)), msg) for t, msg in got.tag_problems]
    try:
        v = get_variant(v0.name, got.options)
    except UnknownVariant as e:      # option values the rules object refuses
        return VariantChoice(None, v0.name, (Loc(1, 1), str(e)), got.arg_problems, problems)
    return VariantChoice(v, v.name, None, got.arg_problems, problems)


def not_played_refusal(match: Match) -> str | None:
    """``path:line:col: parse-error: message`` when ``match`` names a variant that records use and the engine
    does not play (``Backgammon +1``): the one refusal every command gives such a record; else None."""
    name, tag = variant_name(match, DEFAULT_VARIANT)
    msg = not_played(name) if tag else None
    if msg is None:
        return None
    key = next((k for k in match.tags if k.casefold() == tag.casefold()), "")
    loc = match.tag_locs.get(key, Loc(1, 1))
    return f"{match.path}:{loc.line}:{loc.column}: parse-error: {msg}"


def variant_for(match: Match, default: str, options: RuleSet | Mapping[str, Any] | None) -> Variant:
    """The variant and options a record is judged under (UnknownVariant when nobody supports it)."""
    choice = choose_variant(match, default, options)
    if choice.variant is None:
        raise UnknownVariant(choice.error[1] if choice.error else choice.name)
    return choice.variant

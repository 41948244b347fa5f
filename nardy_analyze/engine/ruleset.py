"""The rule set: every rule option a record is judged under, parsed and resolved in one place, in one
precedence (docs/rules.md, "Rule options"; docs/architecture.md, "The rule set").

What the caller asks is a :class:`RuleSet` (the command line's ``--rules NAME`` and ``--rule KEY=VALUE`` /
``VARIANT:KEY=VALUE``: :meth:`RuleSet.from_command_line`; a library call's options dict: :meth:`RuleSet.of`).
:meth:`RuleSet.resolve` turns it, with a record's header tags, into the options of one variant, lowest
first:

1. the variant's defaults (``Rules.OPTIONS``), and what its options imply where they do not set an option
   (``Rules.implied_options``: nardy500 scoring, no cube and two minutes a move; added by ``get_variant``);
2. the caller's preset (``--rules NAME``: ``presets.py``), the options it sets for the variant;
3. the caller's ``--rule KEY=VALUE`` (a key the variant does not have is a problem of the record);
4. the caller's ``--rule VARIANT:KEY=VALUE`` for this variant;
5. the record's ``Rules`` tag (a preset);
6. the record's option tags (``Crawford``, ``Koks``, ``TimeControl``...).

Plain data in, plain data out: tags are a mapping of text, options a dict of values, problems messages.
"""
from __future__ import annotations

import re
from dataclasses import field
from functools import lru_cache
from typing import Any, Mapping

from ..shapes import dataclass
from .presets import preset_named, preset_names
from . import registry
from .registry import OPTIONS, get_variant, variant_display
from ..i18n import _

PRESET_KEY = "rules"      # the key of a preset in the flat options dict (``{"rules": "club", "koks": True}``)

_ON = {"on", "yes", "true", "1"}
_OFF = {"off", "no", "false", "0"}


# ----------------------------------------------------------------------------- one option's value
def all_option_names() -> list[str]:
    """Every option some variant knows."""
    return sorted({k for spec in OPTIONS.values() for k in spec})


def option_spec(key: str, variant: str | None = None) -> tuple[Any, tuple]:
    """(default, allowed) of option ``key`` in ``variant``, or in the first variant that has it."""
    if variant is not None:
        spec = OPTIONS.get(variant, {})
        if key not in spec:
            # TRANSLATORS: {variant}: the variant's name in the genitive ("for long nardy")
            raise ValueError(_("unknown rule option {key} for {variant}; known: {known}").format(
                key=repr(key), variant=variant_display(variant, "gen"), known=", ".join(sorted(spec))))
        return spec[key]
    for spec in OPTIONS.values():
        if key in spec:
            return spec[key]
    raise ValueError(_("unknown rule option {key}; known: {known}").format(
        key=repr(key), known=", ".join(all_option_names())))


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
        raise ValueError(_("rule option {key} takes on/off, not {value}").format(key=key, value=repr(value)))
    if allowed:
        if v not in allowed:
            raise ValueError(_("rule option {key} takes one of {values}, not {value}").format(
                key=key, values=", ".join(allowed), value=repr(value)))
        return v
    if v in ("none", "", "off", "0"):
        return None
    try:
        return int(v)
    except ValueError:
        raise ValueError(_("rule option {key} takes a whole number, not {value}").format(
            key=key, value=repr(value))) from None


# ----------------------------------------------------------------------------- time controls
_TIME = re.compile(r"^(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?)?"
                   r"(?:\s*(?:/|per)\s*move)?$", re.I)


def parse_time_control(value: str) -> float | None | str:
    """Seconds per move from a ``TimeControl`` tag: ``120``, ``120s``, ``2m``, ``2:00``, ``120/move``;
    ``-``/``none``/empty: no limit (None).  Anything else: the text ``"?"`` (not understood)."""
    v = value.strip()
    if v.lower() in ("", "-", "none", "no", "off", "unlimited"):
        return None
    m = re.fullmatch(r"(\d+):([0-5]\d)(?:\s*(?:/|per)\s*move)?", v, re.I)
    if m:
        return int(m.group(1)) * 60 + int(m.group(2))
    m = _TIME.match(v)
    if m:
        n = float(m.group(1))
        if (m.group(2) or "s").lower().startswith("m"):
            n *= 60
        return int(n) if n == int(n) else n
    return "?"


_SPAN = r"(\d+(?::[0-5]\d){0,2}|\d+\s*(?:s|sec|m|min|h))"
_CLOCK = re.compile(_SPAN + r"\s*\+\s*" + _SPAN + r"(?:\s*(?:/|per)\s*(game|match))?", re.I)


def _span(text: str) -> int:
    """``840``, ``14:00``, ``0:14:00``, ``14m``, ``8s``, ``1h`` -> seconds."""
    t = text.strip().lower().replace(" ", "")
    if ":" in t:
        n = 0
        for part in t.split(":"):
            n = n * 60 + int(part)
        return n
    unit = t.lstrip("0123456789")
    n = int(t[:len(t) - len(unit)])
    return n * {"": 1, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600}[unit]


def parse_clock(value: str) -> dict[str, Any] | None | str:
    """The options of a ``TimeControl`` tag: ``"840+8"`` (PGN's form: seconds on each clock, then seconds
    added after each move; ``14:00+8``, ``14m+8s`` too; ``/game`` or ``/match`` after it says which the
    clock runs over) -> ``{"clock": 840, "increment": 8, ...}``; a per-move limit (``120``, ``2:00``) ->
    ``{"time_limit": 120}``; no limit -> None; anything else ``"?"``."""
    m = _CLOCK.fullmatch(value.strip())
    if m:
        out: dict[str, Any] = {"clock": _span(m.group(1)), "increment": _span(m.group(2)), "time_limit": None}
        if m.group(3):
            out["clock_per"] = m.group(3).lower()
        return out
    t = parse_time_control(value)
    if t == "?":
        return "?"
    return {"time_limit": t, "clock": None} if t is not None else {"time_limit": None, "clock": None}


# ----------------------------------------------------------------------------- a record's tags
@lru_cache(maxsize=4096)
def _norm(key: str) -> str:
    """A tag's name as option names are compared: no case, spaces, ``_`` or ``-`` (asked for every tag of
    every record: the few names there are, once each)."""
    return key.casefold().replace(" ", "").replace("_", "").replace("-", "")


_BEARING: list = [None, frozenset()]     # (the registry's VARIANTS when made, the names)


def bearing_names() -> frozenset[str]:
    """The names (as :func:`_norm` gives them) of the header tags that can change the variant a record is judged
    under or its options: ``Variant``, ``Variation``, ``Rules``, ``TimeControl`` and every option of every
    variant registered now (:func:`from_tags`, ``judged.variant_name``).  Made again when the variants
    registered change (``registry.VARIANTS`` is then another tuple)."""
    if _BEARING[0] is not registry.VARIANTS:
        names = {"variant", "variation", "rules", "timecontrol"}
        names.update(_norm(k) for spec in OPTIONS.values() for k in spec)
        _BEARING[0], _BEARING[1] = registry.VARIANTS, frozenset(names)
    return _BEARING[1]


def bearing_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    """The names among ``tags`` (a record's tag names, in order) of the tags that can change the variant it is
    judged under or its options (:func:`bearing_names`)."""
    return _bearing(tags, bearing_names())


@lru_cache(maxsize=1024)
def _bearing(tags: tuple[str, ...], names: frozenset[str]) -> tuple[str, ...]:
    # (the records of one source write the same tags: worked out once for them all)
    return tuple(t for t in tags if _norm(t) in names)


def _tag_preset(tags: Mapping[str, str], opts: dict[str, Any], variant: str) -> list[tuple[str, str]]:
    """Step 5: the ``Rules`` tag's preset over ``opts``; its problems (tag, message)."""
    problems = []
    for tag, value in tags.items():
        if _norm(tag) == "rules":
            preset = preset_named(value)
            if preset is None:
                # TRANSLATORS: "Rules" is the tag's name (interface); {value}: its value as written
                problems.append((tag, _("Rules {value} names no rule set (known: {known}); the record is judged "
                                        "without it").format(value=repr(value), known=", ".join(preset_names()))))
            else:
                opts.update(preset.for_variant(variant))
    return problems


def _time_control(tag: str, value: str, opts: dict[str, Any]) -> list[tuple[str, str]]:
    t = parse_clock(value)
    if t == "?":
        # TRANSLATORS: "TimeControl" is the tag's name (interface); {value}: its value as written
        return [(tag, _("TimeControl {value} is not understood (seconds per move, e.g. \"120\" or \"2:00\", or a "
                        "clock with an increment, e.g. \"840+8\"): no time limit is checked").format(
            value=repr(value)))]
    if t is not None:
        opts.update(t)
    return []


def from_tags(tags: Mapping[str, str], base: dict[str, Any], variant: str = "backgammon"
              ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Steps 5 and 6: rule options from a record's header ``tags`` where present, otherwise ``base``.

    A tag names an option when its name, without case, spaces, ``_`` or ``-``, is the option's
    (``Crawford``, ``Jacoby``, ``CubeLimit``, ``Koks``, ``HeadException``, ``ChainFromTurn``...);
    ``Scoring`` and ``TimeControl`` (seconds per move, or a clock) too.  Only options of ``variant`` are
    read.  Returns (options, problems): a tag of one of the variant's options whose value cannot be read
    is a problem (tag name, message) and the option keeps its other value.
    """
    opts = dict(base)
    problems = _tag_preset(tags, opts, variant)      # a preset first: the other tags set options over it
    known = {_norm(k): k for k in OPTIONS.get(variant, {})}
    for tag, value in tags.items():
        n = _norm(tag)
        if n == "timecontrol" and "time_limit" in OPTIONS.get(variant, {}):
            problems += _time_control(tag, value, opts)
            continue
        key = known.get(n)
        if key is None or key in ("time_limit", "clock", "increment"):
            continue
        try:
            opts[key] = parse_option(variant, key, value)
        except ValueError as e:
            if key in ("crawford", "jacoby") and value.strip().lower() not in _ON | _OFF:
                continue       # .mat headers: an unreadable Crawford/Jacoby value has always been ignored
            problems.append((tag, str(e)))
    return opts, problems


def no_option(variant: str, key: str, spec: Mapping[str, Any], validated: bool = True) -> str:
    """The message of a ``--rule`` option ``key`` that ``variant`` (whose options are ``spec``) does not have;
    ``validated``: the record is validated without it (``validate``), else only the refusal (``generate``)."""
    if validated:
        # TRANSLATORS: {key}: the option as given (interface); {variant}: the variant's name in the genitive
        # ("long nardy have no option" -> "у длинных нард нет опции"); {options}: its options
        return _("--rule {key}: {variant} has no option {name} (its options: {options}); the record "
                 "is validated without it").format(key=key, variant=variant_display(variant, "gen"), name=repr(key),
                                                     options=", ".join(sorted(spec)))
    return _("--rule {key}: {variant} has no option {name} (its options: {options})").format(
        key=key, variant=variant_display(variant, "gen"), name=repr(key), options=", ".join(sorted(spec)))


# ----------------------------------------------------------------------------- the caller's rule set
@dataclass(frozen=True)
class Resolved:
    """The options of one variant for one record (:meth:`RuleSet.resolve`), with what could not be applied:
    ``arg_problems`` (``--rule`` keys the variant does not have: messages), ``tag_problems`` ((tag, message)
    of option tags that could not be read)."""

    options: dict[str, Any]
    arg_problems: list[str] = field(default_factory=list)
    tag_problems: list[tuple[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class RuleSet:
    """What the caller asks of the rules: a preset (its name as given), options for every variant that has
    them (``common``, in the order given), options for one variant (``scoped``: variant -> option -> value).
    Plain data (pickled to workers as it is)."""

    preset: str | None = None
    common: dict[str, Any] = field(default_factory=dict)
    scoped: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def of(cls, options: "RuleSet | Mapping[str, Any] | None") -> "RuleSet":
        """``options`` as a rule set: a RuleSet as it is; a flat dict (a library call's ``{"koks": True,
        "long:koks": True, "rules": "club"}``) read key by key; None: nothing asked."""
        if isinstance(options, RuleSet):
            return options
        common: dict[str, Any] = {}
        scoped: dict[str, dict[str, Any]] = {}
        for key, value in (options or {}).items():
            if key == PRESET_KEY:
                continue
            scope, sep, name = key.rpartition(":")
            if sep:
                scoped.setdefault(scope, {})[name] = value
            else:
                common[key] = value
        return cls((options or {}).get(PRESET_KEY) or None, common, scoped)

    @classmethod
    def from_command_line(cls, items: list[str], preset: str | None = None,
                          variant: str | None = None) -> "RuleSet":
        """``--rules NAME`` (``preset``) and ``--rule`` ``items``: ``KEY=VALUE`` for every record whose variant
        has the option (``variant`` None: the key must be an option of some variant; the variant is chosen
        per record), ``VARIANT:KEY=VALUE`` only for records of that variant.  ValueError (UnknownVariant for
        a bad scope) on an unknown key, value or preset."""
        name = None
        if preset:
            found = preset_named(preset)
            if found is None:
                raise ValueError(_("--rules {name} names no rule set; known: {known}").format(
                    name=repr(preset), known=", ".join(preset_names())))
            name = found.name
        common: dict[str, Any] = {}
        scoped: dict[str, dict[str, Any]] = {}
        for item in items:
            key, sep, value = item.partition("=")
            if not sep:
                raise ValueError(_("--rule takes KEY=VALUE, not {item}").format(item=repr(item)))
            key = key.strip()
            scope, colon, opt = key.rpartition(":")
            if colon:
                v = get_variant(scope).name          # UnknownVariant (a ValueError) for a bad scope
                scoped.setdefault(v, {})[opt.strip()] = parse_option(v, opt.strip(), value)
                continue
            if variant is None and key not in all_option_names():
                raise ValueError(_("unknown rule option {key}; known: {known}").format(
                    key=repr(key), known=", ".join(all_option_names())))
            common[key] = parse_option(variant if variant and key in OPTIONS.get(variant, {}) else None, key, value)
        return cls(name, common, scoped)

    def flat(self) -> dict[str, Any]:
        """The rule set as one flat dict (the form :meth:`of` reads): ``rules``, ``KEY``, ``VARIANT:KEY``."""
        out: dict[str, Any] = {PRESET_KEY: self.preset} if self.preset else {}
        out.update(self.common)
        out.update({f"{v}:{k}": value for v, opts in self.scoped.items() for k, value in opts.items()})
        return out

    def for_variant(self, variant: str) -> tuple[dict[str, Any], list[str]]:
        """Steps 2-4: the options of ``variant`` that the caller asks (the preset's, ``--rule``'s, the scoped
        ones), and the messages of the ``--rule`` keys the variant does not have (the record would not be
        judged as asked)."""
        spec = OPTIONS.get(variant, {})
        preset = preset_named(self.preset) if self.preset else None
        out: dict[str, Any] = preset.for_variant(variant) if preset is not None else {}
        problems = []
        for key, value in self.common.items():
            if key in spec:
                out[key] = value
            else:
                problems.append(no_option(variant, key, spec))
        out.update(self.scoped.get(variant, {}))
        return out, problems

    def resolve(self, variant: str, tags: Mapping[str, str]) -> Resolved:
        """The options of ``variant`` for a record whose header ``tags`` are given (steps 2-6; step 1 is
        ``get_variant``'s), with their problems."""
        opts, arg_problems = self.for_variant(variant)
        opts, tag_problems = from_tags(tags, opts, variant)
        return Resolved(opts, arg_problems, tag_problems)

    def variant(self, name: str, tags: Mapping[str, str] = {}) -> Any:
        """The :class:`Variant` ``name`` under this rule set and ``tags`` (their problems ignored)."""
        key = get_variant(name).name
        return get_variant(key, self.resolve(key, tags).options)

"""Players' names: the one way every command groups them (``stats``, ``analyze``, and the library).

A name is grouped by its key (:func:`normalise_name`): blanks around and inside collapsed, an underscore
taken as a blank (``Andreas_Humke`` is ``Andreas Humke``, as some sites write names), a trailing rating
suffix such as ``,1673`` removed, case ignored, and a letter typed composed or decomposed taken as the same
letter (Unicode's canonical caseless match).  The name shown for a key is its most frequent spelling
(:func:`display_names`), as written, or the one ``--alias`` gives (:func:`parse_aliases`).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Iterable

from .i18n import _

_RATING = re.compile(r"\s*,\s*[0-9]+(?:[.,][0-9]+)?\s*$")


def spelling(name: str) -> str:
    """``name`` as it is shown: blanks collapsed, the rating suffix removed (underscores kept)."""
    return _RATING.sub("", " ".join(str(name).split()))


def normalise_name(name: str) -> str:
    """The key a name is grouped by (see the module's docstring)."""
    return _key(spelling(str(name).replace("_", " ")))


def _key(text: str) -> str:
    text = " ".join(text.replace("_", " ").split())
    if text.isascii():
        return text.casefold()
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).casefold())


def parse_aliases(items: Iterable[str]) -> dict[str, str]:
    """``['name=canonical', ...]`` -> {normalised name: canonical}; ValueError on a malformed item."""
    out: dict[str, str] = {}
    for item in items:
        old, sep, new = item.partition("=")
        if not sep or not old.strip() or not new.strip():
            raise ValueError(_("--alias takes 'name=canonical', not {item!r}").format(item=item))
        out[normalise_name(old)] = " ".join(new.split())
    return out


def display_names(raw: dict[str, int], aliases: dict[str, str]) -> dict[str, str]:
    """{name as written: name shown}: ``raw`` counts each name as written (in the player and the opponent
    columns), in the order the names first appear; the name shown for a normalised key is its most
    frequent spelling (the first to appear among equals), or its alias."""
    counts: Counter = Counter()                  # (key, spelling) -> occurrences, in order of appearance
    key_of: dict[str, str] = {}
    for name, n in raw.items():
        shown = spelling(name)
        key = key_of[name] = _key(shown)
        counts[(key, shown)] += n
    display: dict[str, str] = {}
    for (key, shown), n in sorted(counts.items(), key=lambda kv: -kv[1]):
        display.setdefault(key, shown)
    alias = {k: aliases.get(k, v) for k, v in display.items()}
    # an alias may point at another name's key: use that name's display
    for k, v in list(alias.items()):
        target = normalise_name(v)
        if k in aliases and target in display and target not in aliases:
            alias[k] = display[target]
    return {name: alias[key] for name, key in key_of.items()}


class NameBook:
    """Names shown as they come, for tables written a file at a time (``analyze --by decision``): the key
    as :func:`normalise_name` makes it, the spelling shown the first one met (or the alias)."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.shown: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        key = normalise_name(name)
        if key not in self.shown:
            target = self.aliases.get(key)
            if target is not None:
                self.shown[key] = self.shown.get(normalise_name(target), target)
            else:
                self.shown[key] = spelling(name)
        return self.shown[key]

"""Named rule sets (``--rules NAME``, the ``Rules`` tag): several options at once, per variant.

Each preset is what one federation, school or kind of app plays, with its source (docs/rules.md
"Presets"). A preset sets only options of the variants it names; a record of another variant keeps its
defaults (a preset says nothing about a game it does not cover).
"""
from __future__ import annotations

from dataclasses import field
from typing import Any

from ..shapes import dataclass


@dataclass(frozen=True)
class Preset:
    name: str
    title: str
    source: str
    options: dict[str, dict[str, Any]] = field(default_factory=dict)   # variant -> option -> value
    every_variant: bool = False       # it speaks of every variant, registered later too (``standard``)

    def for_variant(self, variant: str) -> dict[str, Any]:
        return dict(self.options.get(variant, {}))

    def covers(self, variant: str) -> bool:
        """Whether the preset says how ``variant`` is played (its options, or every variant's defaults)."""
        return self.every_variant or variant in self.options


_PLAIN_LONG = {"head_exception": "standard", "koks": False, "home_mars": None, "last_roll": False}

PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("standard", "the built-in rules (every option at its default)", "docs/rules.md", every_variant=True),
    Preset("federation", "Russian sport-nardy federation events, 2025",
           "federation event pages: long nardy to 7 at 14 min + 8 s, short nardy to 9 at 18 min + 8 s; "
           "six-block only with an opposing checker ahead; no home mars, no koks; the official sport "
           "rules (2024) allow the cube in long nardy",
           {"long": {**_PLAIN_LONG, "cube": True, "clock": 840, "increment": 8, "clock_per": "match",
                     "time_limit": None},
            "backgammon": {"scoring": "points", "cube": True, "crawford": True, "clock": 1080, "increment": 8,
                           "clock_per": "match", "time_limit": None}}),
    Preset("federation-blitz", "Russian sport-nardy federation online blitz, 2025",
           "federation event pages: long nardy to 3 at 1 min + 10 s, short nardy to 5 at 2 min + 10 s",
           {"long": {**_PLAIN_LONG, "cube": True, "clock": 60, "increment": 10, "clock_per": "match",
                     "time_limit": None},
            "backgammon": {"scoring": "points", "cube": True, "crawford": True, "clock": 120, "increment": 10,
                           "clock_per": "match", "time_limit": None}}),
    Preset("nardy-app", "the nardy apps' short nardy: 500/1000/1500, no cube, two minutes per move",
           "the rules text of a short-nardy app (nardy500 scoring)",
           {"backgammon": {"scoring": "nardy500", "cube": False, "time_limit": 120}}),
    Preset("sheshbesh", "Azerbaijani şeş-beş: only 6-6 and 4-4 let two checkers leave the head",
           "Azerbaijani şeş-beş as implemented on Ludii",
           {"long": {"head_exception": "six-four"}}),
    Preset("club", "casual club play: koks counts 3, a home mars counts as an oin",
           "salon and club pages (koks; домашний марс)",
           {"long": {"koks": True, "home_mars": 1}, "gulbara": {"koks": True, "home_mars": 1}}),
    Preset("last-roll", "the second player's last roll, which can draw (one Moscow school's rules)",
           "a Moscow nardy school's rules text",
           {"long": {"last_roll": True}, "gulbara": {"last_roll": True}}),
)}


def preset_named(name: str | None) -> Preset | None:
    """The preset called ``name`` (case, blanks, ``_`` ignored); None when there is none."""
    key = (name or "").strip().lower().replace(" ", "-").replace("_", "-")
    return PRESETS.get(key)


def preset_names() -> list[str]:
    return list(PRESETS)

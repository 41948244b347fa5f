"""The language of every word the tool prints: gettext catalogs, English the source and the fallback.

Every text a person reads goes through this module (docs/i18n.md)::

    from ..i18n import _, ngettext, N_

    _("no record found in {path}").format(path=...)
    ngettext("{n} error", "{n} errors", n).format(n=n)
    WORDS = {"bar": N_("bar")}            # a module-level text: marked, translated where it is used
    _(WORDS["bar"])

The language is :func:`set_language`'s (the command line's ``--lang``), else the environment as gettext
reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``); a language without a catalog, ``C`` and
``POSIX`` give English, the messages exactly as written in the code.  The catalog is loaded at the first
translated message, once (a command that prints nothing translated never opens it).

The catalogs: ``nardy_analyze/locale/<lang>/LC_MESSAGES/nardy_analyze.po`` (sources, in the repository),
compiled to ``.mo`` by the install (setup.py) and by the test suite (tests/conftest.py); run from a
checkout whose ``.mo`` is missing or older than its ``.po``, the ``.po`` is compiled in memory when Babel is
installed.  This module imports only the standard library (it is in the lowest layer: the engine uses it).
"""
from __future__ import annotations

import os
from io import BytesIO
from pathlib import Path
from typing import Any

DOMAIN = "nardy_analyze"
LOCALEDIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ru")                 # --lang: the languages with a catalog (en: the messages as written)
# what --lang sets, for this process and the worker processes it starts (they read it at their first message)
ENV = "NARDY_ANALYZE_LANG"


class _English:
    """The messages as written (what gettext's ``NullTranslations`` does, without importing gettext: an
    English run never loads it)."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def info(self) -> dict[str, str]:
        return {}


_translation: Any = None


def set_language(lang: str | None) -> None:
    """Use ``lang`` (``"ru"``, ``"en"``) for the messages made from now on, in this process and in the
    worker processes it starts; ``None``: the environment's language again."""
    global _translation
    if lang:
        os.environ[ENV] = lang
    else:
        os.environ.pop(ENV, None)
    _translation = None


def language() -> str:
    """The language the messages are in: ``"en"`` or the code of a catalog (``"ru"``)."""
    return (_translation or _load()).info().get("language") or "en"


def requested() -> list[str] | None:
    """The languages asked for, in order, as gettext reads them (None: the environment says nothing)."""
    lang = os.environ.get(ENV)
    if lang:
        return [lang]
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return [v for v in value.split(":") if v]
    return None


def _english(lang: str) -> bool:
    """Whether the language asked for means the messages as written (English, or the C locale)."""
    return lang in ("C", "POSIX") or lang.startswith(("C.", "en"))


def _load() -> Any:
    global _translation
    langs = requested()
    t = None
    if langs and not _english(langs[0]):
        t = _catalog(langs)
    _translation = t or _English()
    return _translation


def _catalog(langs: list[str]) -> Any:
    import gettext as _gettext  # (only for a language with a catalog: English never loads it)

    for lang in langs:
        if _english(lang):
            return None
        # ru_RU.UTF-8@x -> ru_RU.UTF-8, ru_RU, ru (the compiled catalog: as gettext finds it)
        base = lang.split("@")[0]
        for code in dict.fromkeys((base, base.split(".")[0], base.split(".")[0].split("_")[0])):
            folder = LOCALEDIR / code / "LC_MESSAGES"
            po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
            if mo.exists() and (not po.exists() or po.stat().st_mtime <= mo.stat().st_mtime):
                with open(mo, "rb") as fp:
                    return _gettext.GNUTranslations(fp)
            if po.exists():
                t = _compile_in_memory(po, _gettext.GNUTranslations)
                if t is not None:
                    return t
    return None


def _compile_in_memory(po: Path, translations: type) -> Any:
    """A checkout's ``.po`` without its compiled ``.mo`` (Babel compiles it; without Babel: English)."""
    try:   # (Babel: a checkout's tool, not a dependency; only a checkout without compiled catalogs needs it)
        from babel.messages.mofile import write_mo  # (as above)
        from babel.messages.pofile import read_po  # (as above)
    except ImportError:
        return None
    with open(po, "rb") as fp:
        catalog = read_po(fp)
    buf = BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return translations(buf)


def _(message: str) -> str:
    """``message`` in the current language."""
    return (_translation or _load()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for the number ``n`` in the current language (Russian has three)."""
    return (_translation or _load()).ngettext(singular, plural, n)


def roll_text(a: int, b: int) -> str:
    """A roll of two dice as the current language writes it in prose: "64" in English (as gnubg writes it),
    "6-4" in Russian."""
    # TRANSLATORS: a roll of two dice inside a sentence ("the roll 64"); {a}, {b}: the two numbers
    return pgettext("roll in prose", "{a}{b}").format(a=a, b=b)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where the same English word needs different translations by
    ``context``."""
    return (_translation or _load()).pgettext(context, message)


def install() -> None:
    """Make the catalog the process's text domain, for the libraries that translate through the ``gettext``
    module's own functions (click and typer: the command line's usage errors and ``--help`` headings), in the
    language :func:`set_language` chose.  Call it before importing them (their headings are read at import)."""
    import gettext as _gettext  # (the command line's typer path only)

    _gettext.bindtextdomain(DOMAIN, str(LOCALEDIR.resolve()))
    _gettext.textdomain(DOMAIN)
    langs = requested()
    if langs:
        # gettext's own lookup, made to choose as _load does: the first language asked for decides (an
        # English or C locale first gives English, where gettext would go on down the list to a catalog)
        for i, lang in enumerate(langs):
            if _english(lang):
                langs = langs[:i] or ["C"]
                break
        os.environ["LANGUAGE"] = ":".join(langs)


def N_(message: str) -> str:
    """Mark a text for the catalog without translating it (module-level tables): translate it with
    :func:`_` where it is used."""
    return message

"""The usage errors and ``--help`` texts of typer's own copy of click, in the language of the messages.

typer 0.12 to 0.2x reads the command line with click, whose texts go through ``gettext`` (our catalog is its
text domain: :func:`nardy_analyze.i18n.install`); newer typers (0.26 on) carry a copy of click inside
(``typer._click``) whose texts are plain English.  :func:`install` makes that copy's texts the user reads
(``Usage:``, ``Show this message and exit.``, "Missing argument", "Invalid value for", "No such option", the
values a choice or a number option refuses...) come from the catalog.  :mod:`nardy_analyze.cli` calls it when
the language is not English: the English output is the copy's own, untouched.  Each patch is applied only
when the copy has the function it replaces; a typer without the copy is left alone.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from .i18n import N_, _, ngettext

# the names of the value types in "'x' is not a valid integer." (the copy's type names)
TYPE_NAMES = {"int": N_("integer"), "float": N_("number"), "int range": N_("integer"),
              "float range": N_("number"), "boolean": N_("boolean"), "uuid": N_("UUID"),
              "datetime": N_("date and time"), "filename": N_("file name")}


def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text, re.S)


# the copy's English sentences (what its parser and types write) -> the message of the catalog
_SENTENCES: list[tuple[re.Pattern[str], Callable[[dict[str, str]], str]]] = [
    (_pattern(r"No such option: (?P<name>.+)"), lambda g: _("No such option: {name}").format(**g)),
    (_pattern(r"Got unexpected extra argument\(s\) \((?P<args>.*)\)"),
     lambda g: _("Got unexpected extra argument(s) ({args})").format(**g)),
    (_pattern(r"Option (?P<name>.+) requires an argument\."),
     lambda g: _("Option {name} requires an argument.").format(**g)),
    (_pattern(r"Option (?P<name>.+) requires (?P<nargs>[0-9]+) arguments\."),
     lambda g: ngettext("Option {name} requires {nargs} argument.", "Option {name} requires {nargs} arguments.",
                        int(g["nargs"])).format(**g)),
    (_pattern(r"Option (?P<name>.+) does not take a value\."),
     lambda g: _("Option {name} does not take a value.").format(**g)),
    (_pattern(r"(?P<value>.*) is not one of (?P<choices>.*)\."),
     lambda g: _("{value} is not one of {choices}.").format(**g)),
    (_pattern(r"(?P<value>.*) is not in the range (?P<range>.*)\."),
     lambda g: _("{value} is not in the range {range}.").format(**g)),
    (_pattern(r"(?P<value>.*) is not a valid (?P<type>[a-z ]+)\."),
     lambda g: _("{value} is not a valid {type}.").format(
         value=g["value"], type=_(TYPE_NAMES[g["type"]]) if g["type"] in TYPE_NAMES else g["type"])),
]


def sentence(text: str) -> str:
    """``text``, a message of typer's copy of click, in the language of the messages (unchanged when it is
    not one of the sentences above)."""
    for pattern, make in _SENTENCES:
        m = pattern.fullmatch(text)
        if m:
            return make(m.groupdict())
    return text


def install() -> None:
    """Patch typer's copy of click (when it has one) to write its texts through the catalog."""
    try:
        from typer._click import decorators, exceptions, formatting   # (typer 0.26 on)
    except ImportError:
        return
    _usage(formatting)
    _help_option(decorators)
    _errors(exceptions)


def _usage(formatting: Any) -> None:
    cls = getattr(formatting, "HelpFormatter", None)
    if cls is None or not hasattr(cls, "write_usage"):
        return
    write_usage = cls.write_usage

    def translated(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        return write_usage(self, prog, args, _("Usage:") + " " if prefix is None else prefix)

    cls.write_usage = translated


def _help_option(decorators: Any) -> None:
    help_option = getattr(decorators, "help_option", None)
    if help_option is None:
        return

    def translated(param_decls):
        declare = help_option(param_decls)

        def apply(command):
            command = declare(command)
            if command.params and getattr(command.params[-1], "help", None) == "Show this message and exit.":
                command.params[-1].help = _("Show this message and exit.")
            return command

        return apply

    decorators.help_option = translated


def _errors(exceptions: Any) -> None:
    usage, bad, missing, no_such = (getattr(exceptions, name, None) for name in (
        "UsageError", "BadParameter", "MissingParameter", "NoSuchOption"))
    join = getattr(exceptions, "_join_param_hints", None)
    if None in (usage, bad, missing, no_such, join):
        return

    def usage_message(self) -> str:
        return sentence(self.message)

    def param_hint(self, default: Any) -> Any:
        """The parameter an error names, as click finds it (``default``: the error names none)."""
        if self.param_hint is not None:
            return self.param_hint
        if self.param is not None:
            return self.param.get_error_hint(self.ctx)
        return default

    def bad_message(self) -> str:
        hint = param_hint(self, bad_message)
        if hint is bad_message:
            return _("Invalid value: {message}").format(message=sentence(self.message))
        return _("Invalid value for {param_hint}: {message}").format(param_hint=join(hint),
                                                                      message=sentence(self.message))

    def missing_message(self) -> str:
        hint = join(param_hint(self, None))
        hint = f" {hint}" if hint else ""
        kind = self.param_type
        if kind is None and self.param is not None:
            kind = self.param.param_type_name
        msg = self.message
        if self.param is not None:
            extra = self.param.type.get_missing_message(param=self.param, ctx=self.ctx)
            if extra:
                msg = f"{msg}. {extra}" if msg else extra
        msg = f" {msg}" if msg else ""
        what = {"argument": _("Missing argument"), "option": _("Missing option"),
                "parameter": _("Missing parameter")}.get(kind) or _("Missing {param_type}").format(param_type=kind)
        return f"{what}{hint}.{msg}"

    def no_such_message(self) -> str:
        text = sentence(self.message)
        if not self.possibilities:
            return text
        return text + " " + _("(Possible options: {options})").format(options=", ".join(sorted(self.possibilities)))

    usage.format_message = usage_message
    bad.format_message = bad_message
    missing.format_message = missing_message
    no_such.format_message = no_such_message

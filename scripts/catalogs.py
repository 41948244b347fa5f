#!/usr/bin/env python3
"""The message catalogs (docs/i18n.md): extract, update, compile and check them (needs Babel).

    python3 scripts/catalogs.py extract          # nardy_analyze/locale/nardy_analyze.pot from the code
    python3 scripts/catalogs.py update           # new messages into each .po (untranslated), obsolete out
    python3 scripts/catalogs.py compile          # each .po -> .mo beside it (also: setup.py, the tests)
    python3 scripts/catalogs.py check [PREFIX]   # what lacks a translation (of the files under PREFIX,
                                                 # e.g. nardy_analyze/replay/); exit 1 when anything does
    python3 scripts/catalogs.py merge            # fold parts/*.po into the language's .po

The catalog of a language is ``nardy_analyze/locale/<lang>/LC_MESSAGES/nardy_analyze.po``.  The messages
are those the code marks (``_``, ``ngettext``, ``pgettext``, ``N_``: nardy_analyze/i18n.py) and the messages
of typer that the command line shows (its own ``gettext`` calls: help headings such as "Options"; the
command line makes this catalog the application's text domain, so they are translated with the rest).
typer's copy of click (``typer._click``) has no gettext calls: the command line translates its usage errors
itself (nardy_analyze/cli.py).
"""
from __future__ import annotations

import re
import sys
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "nardy_analyze"
LOCALEDIR = PACKAGE / "locale"
DOMAIN = "nardy_analyze"
POT = LOCALEDIR / f"{DOMAIN}.pot"
# the library whose gettext messages the command line shows (--help headings, "Aborted!")
THIRD_PARTY = ("typer",)
_FIELD = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z_0-9]*)?(?:[!:][^{}]*)?\}")


def catalogs() -> list[Path]:
    return sorted(LOCALEDIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _third_party_dirs() -> list[tuple[str, Path]]:
    import importlib.util

    out = []
    for name in THIRD_PARTY:
        spec = importlib.util.find_spec(name)
        if spec and spec.origin:
            out.append((name, Path(spec.origin).parent))
    return out


def extract(third_party: bool = True):
    """The catalog template (a Babel ``Catalog``) of the package's messages and click's and typer's."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(project="nardy-analyze", domain=DOMAIN, charset="utf-8")
    sources = [("nardy_analyze", PACKAGE)] + (_third_party_dirs() if third_party else [])
    for name, folder in sources:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(folder), method_map=[("**.py", "python")], comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            if name != "nardy_analyze" and (filename.startswith("_") and "/" not in filename):
                pass
            where = (f"{name}/{filename}" if name != "nardy_analyze" else f"nardy_analyze/{filename}", lineno)
            template.add(message, None, [where], auto_comments=comments, context=context)
    return template


def read(po: Path, parts: bool = True):
    """A language's catalog: its ``.po``, with the entries of ``parts/*.po`` beside it added (a work-in-progress
    split of the catalog; ``merge`` folds them in)."""
    from babel.messages.pofile import read_po

    with open(po, "rb") as fp:
        catalog = read_po(fp, locale=po.parent.parent.name, domain=DOMAIN)
    for part in sorted(po.parent.glob("parts/*.po")) if parts else ():
        with open(part, "rb") as fp:
            for m in read_po(fp, locale=po.parent.parent.name, domain=DOMAIN):
                if m.id:
                    catalog[m.id] = m
    return catalog


def newest(po: Path) -> float:
    return max([po.stat().st_mtime] + [p.stat().st_mtime for p in po.parent.glob("parts/*.po")])


def write(po: Path, catalog) -> None:
    from babel.messages.pofile import write_po

    buf = BytesIO()
    write_po(buf, catalog, width=100, sort_output=False, include_previous=False)
    tmp = po.with_suffix(".po.tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(po)


def compile_catalog(po: Path, target: Path | None = None) -> Path:
    from babel.messages.mofile import write_mo

    target = target or po.with_suffix(".mo")
    catalog = read(po)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".mo.tmp")
    tmp.write_bytes(buf.getvalue())
    tmp.replace(target)
    return target


def compile_all(stale_only: bool = False) -> list[Path]:
    done = []
    for po in catalogs():
        mo = po.with_suffix(".mo")
        if stale_only and mo.exists() and mo.stat().st_mtime >= newest(po):
            continue
        done.append(compile_catalog(po))
    return done


def _key(message) -> tuple:
    return (message.id if isinstance(message.id, str) else tuple(message.id), message.context)


def fields(text: str) -> set[str]:
    return {m.group(1) or "" for m in _FIELD.finditer(text.replace("{{", "").replace("}}", ""))}


def problems(po: Path, template=None, only: str = "") -> list[str]:
    """What is wrong with one catalog: a message of the code it lacks or leaves untranslated, a fuzzy entry,
    an obsolete one (no longer in the code), a translation whose {fields} differ from the English."""
    template = template or extract()
    catalog = read(po)
    wanted = {_key(m) for m in template if m.id}
    out = []
    for m in template:
        if not m.id or (only and not any(loc[0].startswith(only) for loc in m.locations)):
            continue
        have = catalog.get(m.id, context=m.context)
        where = f"{m.locations[0][0]}:{m.locations[0][1]}" if m.locations else "?"
        ident = m.id if isinstance(m.id, str) else m.id[0]
        if have is None:
            out.append(f"{where}: missing: {ident!r}")
            continue
        strings = [have.string] if isinstance(have.string, str) else list(have.string)
        if not all(strings) or (not isinstance(m.id, str) and len(strings) < catalog.num_plurals):
            out.append(f"{where}: untranslated: {ident!r}")
        elif have.fuzzy:
            out.append(f"{where}: fuzzy: {ident!r}")
        else:
            english = fields(m.id) if isinstance(m.id, str) else fields(m.id[0]) | fields(m.id[1])
            if "python-brace-format" in m.flags or any(fields(s) for s in strings) or english:
                for s in strings:
                    if fields(s) - english or (isinstance(m.id, str) and fields(s) != english):
                        out.append(f"{where}: the fields of the translation {sorted(fields(s))} are not those "
                                   f"of the English {sorted(english)}: {ident!r}")
                        break
    for m in catalog if not only else ():
        if m.id and _key(m) not in wanted:
            out.append(f"{po.name}: obsolete (not in the code): {m.id if isinstance(m.id, str) else m.id[0]!r}")
    for m in getattr(catalog, "obsolete", {}).values():
        out.append(f"{po.name}: obsolete entry (#~): {m.id if isinstance(m.id, str) else m.id[0]!r}")
    return out


def update() -> None:
    template = extract()
    for po in catalogs():
        catalog = read(po)
        catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
        catalog.obsolete.clear()
        write(po, catalog)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        from babel.messages.pofile import write_po

        buf = BytesIO()
        write_po(buf, extract(), width=100)
        POT.write_bytes(buf.getvalue())
        print(POT)
    elif command == "update":
        update()
    elif command == "compile":
        for mo in compile_all():
            print(mo)
    elif command == "merge":
        for po in catalogs():
            write(po, read(po))
            for part in po.parent.glob("parts/*.po"):
                part.unlink()
    elif command == "check":
        only = argv[1] if len(argv) > 1 else ""
        template = extract()
        bad = 0
        for po in catalogs():
            found = problems(po, template, only)
            for line in found:
                print(f"{po.relative_to(ROOT)}: {line}")
            bad += len(found)
        print(f"{bad} problem(s)", file=sys.stderr)
        return 1 if bad else 0
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

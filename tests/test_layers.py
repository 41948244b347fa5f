"""The package's layers, read from the source (``ast``): what docs/architecture.md promises.

* **The layer rule**: a module imports only modules of its own layer or of a lower one (every import,
  at module level and inside functions); within the package, no import cycle among the module-level
  imports (those that run when a module is imported; ``if TYPE_CHECKING:`` ones do not).
* **A package's face keeps to its layer**: a sub-package's ``__init__`` runs whenever any of its modules is
  imported, so it is in the package's layer (no exception: no ``__init__`` counted higher than its
  modules) and imports nothing above it, not even inside a function (a lazy ``__getattr__``); and no
  import cycle runs through a face, its imports inside functions counted (those of the package's own
  modules aside: a registry that loads them on demand).
* **No private name crosses a module boundary**: no ``from nardy_analyze.mod import _name`` and no
  ``mod._name`` on a module of the package imported by name.
* **Imports inside functions are few and say why**: each carries a one-line reason (a comment on its line,
  on the line above, or above the block of imports it belongs to), and there are at most ``MAX_FUNCTION_IMPORTS`` of them.

``LAYERS`` is the table of docs/architecture.md ("The layers"); a new module goes into it (the test fails on
a module it does not place).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import ROOT

PACKAGE = ROOT / "nardy_analyze"
PKG = "nardy_analyze"

# layer -> the modules (a sub-package stands for all its modules) -- the table of docs/architecture.md
LAYERS: dict[int, tuple[str, ...]] = {
    0: ("nardy_analyze", "engine", "i18n", "shapes"),            # the package's constants; the rules; the language;
                                                                 # the dataclass decorator
    1: ("record", "events", "rules", "safetext", "fsio", "names", "evaluator"),  # the record model, the
                                                                 # replay's events, rule ids, safe text,
                                                                 # atomic writes, players' names; the long
                                                                 # games' evaluator
    2: ("notation", "inputs", "judged", "cores"),                # read and write records; what a command reads;
                                                                 # what a record is judged under; which compiled
                                                                 # parts are in use
    3: ("replay", "result"),                                     # the replay and its events; a run's result
    4: ("report", "stats", "finding_analysis"),                  # rendering, statistics, analysis of findings
    5: ("analyze", "runner", "cluster", "convert", "generate", "statsrun", "commands"),   # the jobs
    6: ("cli", "fastcli", "options", "typertext", "__main__"),   # the command line
}

# imports inside functions: at most this many in the package (each must save start-up or break a cycle; the
# latest: the .mat writer, the JSON encoder, temporary files, position ids and HTML escaping, kept off the
# start-up of a text validate; which core is in use, asked only when a first run's progress bar shows; the compiled
# scan of a game's actions and of the .ngn sniff's lines, looked up by sniffs.compiled_part, kept off --help's
# start-up; the SGF writer's analysis properties, needed with --analyse alone; convert's replay and engine, imported
# by its worker processes as they start and not by the command's own process, which plans the run meanwhile)
MAX_FUNCTION_IMPORTS = 76


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(module: str) -> int | None:
    """The layer of a module of the package (``nardy_analyze.notation.mat``), None when the table lacks it."""
    if module == PKG:
        return 0
    first = module.split(".")[1]
    for layer, names in LAYERS.items():
        if first in names:
            return layer
    return None


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
PACKAGES = {module_name(p) for p in MODULES.values() if p.name == "__init__.py"}


@dataclass(frozen=True)
class Import:
    module: str          # the importing module
    line: int
    target: str          # the module of the package imported
    names: tuple[str, ...]   # the names taken from it (from-imports), () for ``import x``
    in_function: bool
    type_only: bool      # under ``if TYPE_CHECKING:``


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if module in PACKAGES else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_type_checking(node: ast.If) -> bool:
    return ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def imports_of(module: str, source: str) -> list[Import]:
    """Every import of a module of the package in ``source``; ``from pkg import sub`` counts as an import of
    the sub-module when ``sub`` is one (and of the package itself, which runs first)."""
    out: list[Import] = []

    def visit(node: ast.AST, in_function: bool, type_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            func = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            typed = type_only or (isinstance(child, ast.If) and _is_type_checking(child))
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name == PKG or alias.name.startswith(PKG + "."):
                        out.append(Import(module, child.lineno, alias.name, (), func, typed))
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(module, child)
                if target == PKG or target.startswith(PKG + "."):
                    names = tuple(a.name for a in child.names)
                    subs = [n for n in names if f"{target}.{n}" in MODULES]
                    rest = tuple(n for n in names if n not in subs)
                    if rest or not subs:
                        out.append(Import(module, child.lineno, target, rest, func, typed))
                    for sub in subs:
                        out.append(Import(module, child.lineno, f"{target}.{sub}", (), func, typed))
            visit(child, func, typed)

    visit(ast.parse(source), False, False)
    return out


ALL_IMPORTS = [i for m, p in MODULES.items() for i in imports_of(m, p.read_text(encoding="utf-8"))]


def _where(i: Import) -> str:
    return f"{MODULES[i.module].relative_to(ROOT)}:{i.line}"


def test_every_module_has_a_layer():
    missing = [m for m in MODULES if layer_of(m) is None]
    assert not missing, "place these modules in LAYERS (and docs/architecture.md): " + ", ".join(missing)


def test_no_import_from_a_lower_layer_to_a_higher_one():
    found = []
    for i in ALL_IMPORTS:
        low, high = layer_of(i.module), layer_of(i.target)
        if low is not None and high is not None and high > low:
            found.append(f"{_where(i)}: {i.module} (layer {low}) imports {i.target} (layer {high})")
    assert not found, "an import goes up the layers:\n" + "\n".join(found)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            strong(v)
    return out


def module_edges(imports: list[Import] | None = None) -> dict[str, set[str]]:
    """The module-level imports that run: module -> the modules it imports (a sub-module's import runs its
    package's ``__init__`` first, which counts when the importer lies outside that package)."""
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in ALL_IMPORTS if imports is None else imports:
        if i.in_function or i.type_only or i.target == i.module:
            continue
        edges.setdefault(i.module, set()).add(i.target)
        parent = i.target.rsplit(".", 1)[0]
        if parent in PACKAGES and parent != PKG and not i.module.startswith(parent + ".") and i.module != parent:
            edges[i.module].add(parent)
    return edges


def test_no_import_cycle():
    cycles = _cycles(module_edges())
    assert not cycles, "import cycles (module-level imports):\n" + "\n".join(" <-> ".join(c) for c in cycles)


# The replay's events and reports: what a visitor is told and what the replay returns
EVENTS = "nardy_analyze.events"
EVENT_TYPES = ("Finding", "ActionState", "PartState", "TurnRow", "GameEnd", "GameReport", "MatchReport", "How")


def test_the_events_are_defined_in_one_module_low_in_the_layers():
    """Every event type is defined in ``nardy_analyze.events`` and nowhere else; that module sits below the
    notations and the replay (layer 1, beside the record model), imports nothing above it, takes part in no
    cycle, and the notations' normalised match types its reports with it (no ``Any`` to dodge a layer)."""
    where: dict[str, list[str]] = {}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in EVENT_TYPES:
                where.setdefault(node.name, []).append(module)
    assert where == {name: [EVENTS] for name in EVENT_TYPES}
    assert layer_of(EVENTS) < min(layer_of("nardy_analyze.notation"), layer_of("nardy_analyze.replay"))
    assert all(layer_of(i.target) <= layer_of(EVENTS) for i in ALL_IMPORTS if i.module == EVENTS)
    assert not [c for c in _cycles(module_edges()) if EVENTS in c]
    users = {i.module for i in ALL_IMPORTS if i.target == EVENTS and not i.type_only}
    assert {"nardy_analyze.notation.normal", "nardy_analyze.replay", "nardy_analyze.replay.telling"} <= users
    normal = ast.parse(MODULES["nardy_analyze.notation.normal"].read_text(encoding="utf-8"))
    reports = [ast.unparse(node.annotation) for node in ast.walk(normal)
               if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "report"]
    assert reports == ["GameReport", "MatchReport"]


def face_edges(imports: list[Import] | None = None) -> dict[str, set[str]]:
    """:func:`module_edges` and, for each package's ``__init__``, its imports inside functions of modules
    outside the package (what a lazy ``__getattr__`` or helper of the face runs)."""
    imports = ALL_IMPORTS if imports is None else imports
    edges = module_edges(imports)
    for i in imports:
        if i.module in PACKAGES and i.module != PKG and i.in_function and not i.type_only \
                and not i.target.startswith(i.module + "."):
            edges[i.module].add(i.target)
    return edges


def test_no_package_init_imports_above_its_layer():
    found = []
    for i in ALL_IMPORTS:
        if i.module in PACKAGES and i.module != PKG:
            own, target = layer_of(i.module), layer_of(i.target)
            modules = {layer_of(m) for m in MODULES if m.startswith(i.module + ".")}
            if modules != {own}:
                found.append(f"{i.module}: its modules are in layers {sorted(modules)}, it in {own}")
            if target is not None and target > own:
                found.append(f"{_where(i)}: {i.module} (layer {own}) imports {i.target} (layer {target})"
                             + (" inside a function" if i.in_function else ""))
    assert not found, "a package's __init__ above its layer:\n" + "\n".join(sorted(set(found)))


def test_no_import_cycle_through_a_package_face():
    cycles = _cycles(face_edges())
    assert not cycles, "import cycles through a package's __init__:\n" + "\n".join(" <-> ".join(c) for c in cycles)


# gettext's ``_`` (nardy_analyze.i18n): public by the convention every translated message is written in
PUBLIC = {("nardy_analyze.i18n", "_")}


def _private_names() -> list[str]:
    found = []
    for i in ALL_IMPORTS:
        for name in i.names:
            if name.startswith("_") and not name.startswith("__") and (i.target, name) not in PUBLIC:
                found.append(f"{_where(i)}: {i.module} takes {name} from {i.target}")
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound: dict[str, str] = {}          # local name -> module of the package
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith(PKG + ".") and a.asname:
                        bound[a.asname] = a.name
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(module, node)
                for a in node.names:
                    if f"{target}.{a.name}" in MODULES:
                        bound[a.asname or a.name] = f"{target}.{a.name}"
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                    and bound[node.value.id] != module and (bound[node.value.id], node.attr) not in PUBLIC):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module} uses "
                             f"{node.value.id}.{node.attr} of {bound[node.value.id]}")
    return found


def test_no_private_name_crosses_a_module_boundary():
    found = _private_names()
    assert not found, "a private name used outside its module (make it public or move it):\n" + "\n".join(found)


def function_imports() -> list[tuple[Path, int, str]]:
    """(file, line, the import) of every import statement inside a function, anywhere in the package."""
    out = []
    for path in MODULES.values():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        out.append((path, node.lineno, ast.unparse(node)))
    return sorted(set(out))


def _has_reason(lines: list[str], line: int) -> bool:
    """A comment on the import's line, or on the line above it or above the block of imports it ends."""
    here = lines[line - 1]
    if "#" in here:
        return True
    above = lines[line - 2].strip() if line >= 2 else ""
    if above.startswith(("from ", "import ")):
        return _has_reason(lines, line - 1)
    return above.startswith("#")


def test_imports_inside_functions_say_why():
    found = []
    for path, line, text in function_imports():
        lines = path.read_text(encoding="utf-8").splitlines()
        if not _has_reason(lines, line):
            found.append(f"{path.relative_to(ROOT)}:{line}: {text}")
    assert not found, ("an import inside a function without its reason (a comment on its line or the line "
                       "above):\n" + "\n".join(found))


def test_few_imports_inside_functions():
    n = len(function_imports())
    assert n <= MAX_FUNCTION_IMPORTS, f"{n} imports inside functions (at most {MAX_FUNCTION_IMPORTS})"


# -- the checks themselves, on small sources -------------------------------------------------------------------

def _imports(module: str, source: str) -> list[Import]:
    return imports_of(module, source)


def test_relative_imports_resolve():
    got = _imports("nardy_analyze.notation.ngn", "from .mat import x\nfrom .. import record\nfrom ..engine import y\n")
    assert [(i.target, i.names) for i in got] == [
        ("nardy_analyze.notation.mat", ("x",)), ("nardy_analyze.record", ()), ("nardy_analyze.engine", ("y",))]
    got = _imports("nardy_analyze.notation", "from . import mat\nfrom .grammar import g\n")
    assert [i.target for i in got] == ["nardy_analyze.notation.mat", "nardy_analyze.notation.grammar"]


def test_function_and_type_only_imports_are_told_apart():
    src = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..replay import R\n"
           "def f():\n    from ..stats import S\n")
    got = _imports("nardy_analyze.notation.mat", src)
    assert [(i.target, i.in_function, i.type_only) for i in got] == [
        ("nardy_analyze.replay", False, True), ("nardy_analyze.stats", True, False)]


def test_cycles_are_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_a_face_re_exporting_a_job_is_found():
    """The shape the stats package's face once had: a lazy ``__getattr__`` importing the job that imports
    the package (an arrow up from layer 4, and a cycle through the face)."""
    face = _imports("nardy_analyze.stats", "from .columns import C\n"
                                          "def __getattr__(name):\n    from .. import statsrun\n")
    job = _imports("nardy_analyze.statsrun", "from .stats import columns\n")
    up = [(i.target, layer_of(i.target)) for i in face if i.in_function]
    assert up == [("nardy_analyze.statsrun", 5)] and layer_of("nardy_analyze.stats") == 4
    assert _cycles(module_edges(face + job)) == []                  # lazy: no cycle at import...
    assert ["nardy_analyze.stats", "nardy_analyze.statsrun"] in _cycles(face_edges(face + job))   # ...but one


@pytest.mark.parametrize("module, layer", [("nardy_analyze.engine.core", 0), ("nardy_analyze.notation.mat", 2),
                                           ("nardy_analyze.report.html", 4), ("nardy_analyze.cli", 6)])
def test_layer_table(module, layer):
    assert layer_of(module) == layer


def test_every_sub_package_is_installed():
    """pyproject's package list names every folder of the package (a folder left out is missing from the
    installed wheel: the command line then fails on import outside the checkout)."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {module_name(p.parent) for p in PACKAGE.rglob("__init__.py")}
    assert folders - listed == set(), "add to [tool.setuptools] packages in pyproject.toml"


# ------------------------------------------------------- a new variant or notation touches only its own file
#
# tests/variant_race.py (a variant on engine.Rules) and tests/notation_plain.py (a notation on
# notation.Notation) are what a fourth variant and a fifth notation are: one file each, registered at run time
# (tests/test_extensions.py runs them through the commands).  They may use the package's public face only:
# the engine's and the notations' registries and base classes, the record model.

EXTENSIONS = {"variant_race.py": {"nardy_analyze.engine"},
              "notation_plain.py": {"nardy_analyze.notation", "nardy_analyze.record"}}


@pytest.mark.parametrize("name", sorted(EXTENSIONS))
def test_an_extension_uses_only_the_public_face_of_its_registry(name):
    source = (ROOT / "tests" / name).read_text(encoding="utf-8")
    got = imports_of("tests." + name[:-3], source)
    assert got, name
    for i in got:
        assert i.target in EXTENSIONS[name], f"{name}:{i.line} imports {i.target}"
        assert not any(n.startswith("_") for n in i.names), f"{name}:{i.line}: a private name"
    tree = ast.parse(source)
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("_")
                and not n.attr.startswith("__")], f"{name}: a private attribute of the package"


def test_the_extensions_are_built_on_the_base_classes():
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        from notation_plain import NOTATION
        from variant_race import Race
    finally:
        sys.path.remove(str(ROOT / "tests"))
    from nardy_analyze.engine import Rules
    from nardy_analyze.notation import Notation
    assert Race.__bases__ == (Rules,)
    assert type(NOTATION) is Notation

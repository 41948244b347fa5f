"""The build steps pyproject.toml cannot declare.

* The message catalogs compiled into the wheel: ``nardy_analyze/locale/<lang>/LC_MESSAGES/nardy_analyze.po``
  (the sources, in the repository) become the ``.mo`` files gettext reads, in the build directory
  (scripts/catalogs.py, with Babel: a build requirement).
* The compiled core: the rules engine's ``nardy_analyze/engine/_core.c`` and the ``.mat`` reader's
  ``nardy_analyze/notation/_matrows.c`` (the CPython C API only), optional extensions: where no C
  compiler (or no Python headers) can build them, the install goes on without
  them and the package runs its pure-Python code (``nardy-analyze --version`` says which core is in use).
  ``NARDY_ANALYZE_PURE_BUILD=1`` leaves them out on purpose.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
        catalogs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(catalogs)
        for po in catalogs.catalogs():
            target = Path(self.build_lib) / po.relative_to(ROOT).with_suffix(".mo")
            catalogs.compile_catalog(po, target)


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: a compiler missing or failing leaves the pure-Python engine."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:        # no compiler at all (distutils' errors derive from Exception)
            self._skipped(exc)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:        # CompileError, LinkError, a missing Python.h
            self._skipped(exc)

    @staticmethod
    def _skipped(exc: Exception) -> None:
        print(f"nardy-analyze: the compiled core was not built ({exc}); the pure-Python engine is used",
              file=sys.stderr)


CORE = Extension("nardy_analyze.engine._core", sources=["nardy_analyze/engine/_core.c"], depends=["nardy_analyze/_slots.h", "nardy_analyze/_packed.h"],
                 optional=True)
# the .mat reader's common rows (notation/_matrows.c: the twin of mat.row_items and _Reader._build_rows)
MATROWS = Extension("nardy_analyze.notation._matrows", sources=["nardy_analyze/notation/_matrows.c"],
                    depends=["nardy_analyze/_slots.h", "nardy_analyze/_packed.h"], optional=True)

setup(cmdclass={"build_py": BuildWithCatalogs, "build_ext": OptionalBuildExt},
      ext_modules=[] if os.environ.get("NARDY_ANALYZE_PURE_BUILD") else [CORE, MATROWS])

"""The build step pyproject.toml cannot declare: the message catalogs compiled into the wheel.

``nardy_analyze/locale/<lang>/LC_MESSAGES/nardy_analyze.po`` (the sources, in the repository) become the
``.mo`` files gettext reads, in the build directory (scripts/catalogs.py, with Babel: a build requirement).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from setuptools import setup
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


setup(cmdclass={"build_py": BuildWithCatalogs})

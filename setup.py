"""Build hook: the bundled example games go into the wheel.

The games live at the top of the repository (cards/<game>/ and templates/<game>/), where the
README's `pnpgen build` and the tests use them as they are. A wheel has no such folders, so
building one copies both trees into the package as pnpgen/examples/cards/ and
pnpgen/examples/templates/, where `pnpgen examples` and `pnpgen new NAME --example GAME` find
them after a pip install. An editable install (`pip install -e .`) copies nothing: pnpgen then
reads the games from the checkout itself (pnpgen/schema/examples.py). Everything else about
the package is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
EXAMPLE_TREES = ("cards", "templates")
"""The repository folders that hold the bundled games, copied whole."""


class BuildPyWithExamples(build_py):
    """build_py, then the bundled games copied into the built package as pnpgen/examples/."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / "pnpgen" / "examples"
        for tree in EXAMPLE_TREES:
            if not (HERE / tree).is_dir():
                raise SystemExit(f"{HERE / tree}: missing; the bundled games must be built into the wheel")
            shutil.rmtree(target / tree, ignore_errors=True)
            shutil.copytree(HERE / tree, target / tree,
                            ignore=shutil.ignore_patterns(".*", "__pycache__", "*.py[cod]", "*.part"))


setup(cmdclass={"build_py": BuildPyWithExamples})

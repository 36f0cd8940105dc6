"""Build hook: the user guide (docs/user-guide.md and its screenshots) goes into the
wheel as simgui/docs/, so the window's Help › User Guide works after ``pip install``.
Everything else about the package is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithGuide(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "simgui" / "docs"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(HERE / "docs" / "user-guide.md", target / "user-guide.md")
        shots = HERE / "docs" / "screenshots"
        if shots.is_dir():
            shutil.copytree(shots, target / "screenshots", dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildWithGuide})

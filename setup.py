"""The build: the rules engine's hot modules compiled with mypyc, the same source either way.

`pip install .` compiles the modules in `COMPILED` to C extensions (mypyc, from the mypy that
`pyproject.toml` names as a build requirement); Python then imports them in place of the `.py`
files beside them. They are one implementation, not a second one: the source is the same typed
Python, and `tests/test_compiled_build.py` plays every preset with every bot both ways and
requires the same games to the bit.

The build stays pure Python, with the same behaviour at a lower speed, when
- the install is editable (`pip install -e .`): a compiled module beside its source would hide
  later edits to it until the next build;
- `P2P_DOMINOES_PURE_PYTHON=1` is set;
- no C compiler or no Python headers are at hand: the build of the extensions is all or nothing
  (`AllOrNothing`), since a module's small stub built without the shared library it loads would
  hide the module's source and fail to import.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED: list[str] = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text())["tool"][
    "p2p-dominoes"
]["compiled"]
"""The modules a hand's every move runs through (`[tool.p2p-dominoes] compiled` in
pyproject.toml, which the test of the compiled build reads too)."""


BUILDS = {"bdist_wheel", "build", "build_ext", "install"}
"""The setup commands that build extensions (a wheel, the legacy ones); mypyc's type check and
its C generation run for those only, not for every step pip runs setup.py for."""


def _pure(reason: str) -> list[Extension]:
    print(f"p2p-dominoes: building pure Python ({reason})", file=sys.stderr)
    return []


def _compiled_extensions() -> list[Extension]:
    if os.environ.get("P2P_DOMINOES_PURE_PYTHON") == "1":
        return _pure("P2P_DOMINOES_PURE_PYTHON=1")
    if "editable_wheel" in sys.argv:
        return _pure("an editable install runs the source as it is edited")
    if not BUILDS & set(sys.argv):
        return []  # pip asking for the requirements or the metadata: nothing is built yet
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _pure("mypyc is not installed")
    try:
        extensions: list[Extension] = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as failed:  # mypyc type-checks the modules first
        return _pure(f"mypyc failed: {failed}")
    return extensions


class AllOrNothing(build_ext):
    """Build every compiled module, or none: on a failure, remove what was built and say so."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as failed:  # a compiler missing or failing: the source serves
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            _pure(f"the C build failed: {failed}")


setup(ext_modules=_compiled_extensions(), cmdclass={"build_ext": AllOrNothing})

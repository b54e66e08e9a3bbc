"""The build: the rules engine's hot modules compiled with mypyc, the same source either way.

`pip install .` compiles the modules in `COMPILED` to C extensions (mypyc, from the mypy that
`pyproject.toml` names as a build requirement); Python then imports them in place of the `.py`
files beside them. They are one implementation, not a second one: the source is the same typed
Python, and `tests/engine/test_compiled.py` plays every preset with every bot both ways and
requires the same games to the bit.

The build stays pure Python, with the same behaviour at a lower speed, when
- the install is editable (`pip install -e .`): a compiled module beside its source would hide
  later edits to it until the next build;
- `P2P_DOMINOES_PURE_PYTHON=1` is set;
- no C compiler or no Python headers are at hand (each extension is optional: its build failing
  is a warning, not an error).
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from setuptools import Extension, setup

COMPILED: list[str] = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text())["tool"][
    "p2p-dominoes"
]["compiled"]
"""The modules a hand's every move runs through (`[tool.p2p-dominoes] compiled` in
pyproject.toml, which the test of the compiled build reads too)."""


def _pure(reason: str) -> list[Extension]:
    print(f"p2p-dominoes: building pure Python ({reason})", file=sys.stderr)
    return []


def _compiled_extensions() -> list[Extension]:
    if os.environ.get("P2P_DOMINOES_PURE_PYTHON") == "1":
        return _pure("P2P_DOMINOES_PURE_PYTHON=1")
    if "editable_wheel" in sys.argv:
        return _pure("an editable install runs the source as it is edited")
    try:
        from mypyc.build import mypycify
    except ImportError:
        return _pure("mypyc is not installed")
    try:
        extensions: list[Extension] = mypycify(COMPILED, opt_level="3")
    except (Exception, SystemExit) as failed:  # mypyc type-checks the modules first
        return _pure(f"mypyc failed: {failed}")
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=_compiled_extensions())

"""The compiled build (setup.py) is the same implementation as the source: it plays the same
games to the bit.

`pip install .` compiles the modules that `[tool.p2p-dominoes] compiled` in pyproject.toml
names; the rest of the suite runs on the source. This test compiles those modules the same way
(mypyc) into a copy of the package and runs `tests/compiled_games.py` (every preset with every
bot, seeded) under both: every line must match."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).with_name("compiled_games.py")
COMPILED: list[str] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["p2p-dominoes"][
    "compiled"
]


def _run(argv: list[str], cwd: Path, path: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(path)
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, f"{argv[:3]} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done.stdout


def _compile(into: Path) -> None:
    shutil.copytree(
        ROOT / "p2p_dominoes",
        into / "p2p_dominoes",
        ignore=shutil.ignore_patterns("__pycache__", "*.so"),
    )
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")  # mypy's settings
    _run([sys.executable, "-m", "mypyc", *COMPILED], cwd=into, path=into)


def test_the_compiled_modules_play_the_same_games_as_the_source(tmp_path: Path) -> None:
    _compile(tmp_path)
    for module in COMPILED:
        stem = tmp_path / module.removesuffix(".py")
        assert list(stem.parent.glob(f"{stem.name}.*.so")), f"{module} was not compiled"

    compiled = _run([sys.executable, str(GAMES)], cwd=tmp_path, path=tmp_path).splitlines()
    source = _run([sys.executable, str(GAMES)], cwd=ROOT, path=ROOT).splitlines()

    # The first line says where the engine came from: the extension, then the source.
    assert compiled[0].endswith(".so") and source[0].endswith("hand.py")
    assert len(compiled) == len(source) > 80
    games = zip(compiled[1:], source[1:], strict=True)
    differing = [f"{c}\n  source: {s}" for c, s in games if c != s]
    assert not differing, "the compiled build plays differently:\n" + "\n".join(differing)


def test_an_installed_package_is_compiled_unless_it_is_editable() -> None:
    # CI installs with `pip install '.[test]'`: a build that fell back to pure Python (setup.py
    # says why in pip's output) fails here rather than only slowing the bench. An editable
    # install runs the source on purpose, and so does one asked for with
    # P2P_DOMINOES_PURE_PYTHON=1. The installed record is read where pip put it: the working
    # tree's own `p2p_dominoes.egg-info` (left by the build) lists the sources only.
    installed = importlib.metadata.distributions(
        name="p2p-dominoes", path=[sysconfig.get_path("platlib")]
    )
    distribution = next(iter(installed), None)
    assert distribution is not None, "p2p-dominoes is not installed in this environment"
    direct_url = distribution.read_text("direct_url.json") or "{}"
    editable = json.loads(direct_url).get("dir_info", {}).get("editable", False)
    files = [str(f) for f in distribution.files or ()]
    extensions = [f for f in files if f.startswith("p2p_dominoes/") and f.endswith(".so")]
    if editable or os.environ.get("P2P_DOMINOES_PURE_PYTHON") == "1":
        assert not extensions, "an editable or pure install must run the source"
    else:
        compiled = {f.split(".")[0] + ".py" for f in extensions}
        assert compiled == set(COMPILED), f"compiled: {sorted(compiled)}"

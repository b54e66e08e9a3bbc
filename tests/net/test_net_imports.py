"""The network's and the command line's modules refer to each other one way only: no circle, not
even one made of imports for annotations (`if TYPE_CHECKING:`), which `tests/test_layers.py`
allows elsewhere. A back-reference for a type is a sign that a concept sits in the wrong module
(the lobby's state was once typed from the module that hosts it)."""

from __future__ import annotations

import ast

from tests.test_layers import PACKAGE, _circles, _module_name

PARTS = ("net", "commands")


def _imports(source: str, known: set[str]) -> set[str]:
    """The modules of `known` that `source` imports, anywhere in it (annotations' too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & known
            found |= submodules or {node.module}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found & known


def _graph_with_annotations() -> dict[str, set[str]]:
    """Each module of `PARTS` and the modules of those parts it imports, anywhere in it."""
    paths = {_module_name(path): path for part in PARTS for path in (PACKAGE / part).rglob("*.py")}
    known = set(paths)
    return {name: _imports(path.read_text("utf-8"), known) - {name} for name, path in paths.items()}


def test_no_module_of_net_or_commands_refers_back_round_a_circle() -> None:
    graph = _graph_with_annotations()
    assert "p2p_dominoes.net.host_lobby" in graph and "p2p_dominoes.commands.lan" in graph
    assert _circles(graph) == []


def test_a_back_reference_for_annotations_only_is_found() -> None:
    known = {"pkg.hosting", "pkg.again"}
    hosting = "from pkg.again import back_to_lobby\n"
    again = (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.hosting import Lobby\n"
    )
    graph = {"pkg.hosting": _imports(hosting, known), "pkg.again": _imports(again, known)}
    assert _circles(graph) == [["pkg.again", "pkg.hosting"]]

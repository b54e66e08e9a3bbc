"""The map of the house, kept true: which package may import which, and the pure layers import
no I/O (the h11 habit: the protocol is a state machine, I/O lives in a thin shell).

A new arrow between packages is a design decision: add it to `MAY_IMPORT` (and to the map in
docs/contributing.md) on purpose, not by accident.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

PACKAGE = Path(__file__).resolve().parent.parent / "p2p_dominoes"

MAY_IMPORT: Final[dict[str, frozenset[str]]] = {
    "engine": frozenset({"words"}),
    "mental": frozenset({"words"}),
    "bots": frozenset({"engine", "words"}),
    "session": frozenset({"engine", "mental", "bots", "words"}),
    "store": frozenset({"engine", "mental", "session", "words"}),
    "simulation": frozenset({"engine", "bots"}),
    "peer_text": frozenset(),
    "words": frozenset(),
    "net": frozenset({"engine", "bots", "session", "store", "peer_text", "words"}),
    "ui": frozenset({"engine", "net", "session", "peer_text", "words"}),
    "ui.web": frozenset({"engine", "bots", "net", "session", "store", "ui", "peer_text", "words"}),
    "benchmarks": frozenset({"engine", "mental", "bots", "session", "net", "simulation", "words"}),
    "commands": frozenset(
        {
            "engine",
            "mental",
            "bots",
            "session",
            "store",
            "simulation",
            "net",
            "ui",
            "ui.web",
            "benchmarks",
            "peer_text",
            "words",
        }
    ),
    "cli": frozenset({"commands", "mental", "peer_text", "words", "(version)"}),
    "__main__": frozenset({"cli"}),
}
"""Each part of the package and the parts it may import (`(version)`: the root's `__version__`)."""

PURE: Final = ("engine", "mental", "session", "bots", "words")
NO_IO: Final = frozenset(
    {"trio", "socket", "subprocess", "asyncio", "threading", "selectors", "zeroconf", "logging"}
)
"""Modules the pure layers never import (bots may read a clock for their think budget)."""


def _part(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    if parts[0] == "ui" and len(parts) > 2:
        return "ui.web"
    return parts[0]


def _imports(path: Path) -> Iterator[str]:
    """Every module `path` imports, at its top or inside a function."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "p2p_dominoes":
                yield (
                    "p2p_dominoes.(version)"
                    if [a.name for a in node.names] == ["__version__"]
                    else "p2p_dominoes"
                )
                for alias in node.names:
                    if alias.name != "__version__":
                        yield f"p2p_dominoes.{alias.name}"
            else:
                yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _target(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "p2p_dominoes" or len(parts) == 1:
        return None
    return "ui.web" if parts[1:3] == ["ui", "web"] else parts[1]


def test_every_part_imports_only_what_the_map_allows() -> None:
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        part = _part(path)
        for module in _imports(path):
            target = _target(module)
            if target is not None and target != part and target not in MAY_IMPORT[part]:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}: {part} imports {module}")
    assert wrong == []


def test_the_pure_layers_import_no_io() -> None:
    wrong = [
        f"{path.relative_to(PACKAGE.parent)} imports {module}"
        for part in PURE
        for path in sorted((PACKAGE / part).rglob("*.py"))
        for module in _imports(path)
        if module.split(".")[0] in NO_IO
    ]
    assert wrong == []


def test_the_map_names_every_part() -> None:
    parts = {_part(path) for path in PACKAGE.rglob("*.py")} - {"__init__"}
    assert parts <= set(MAY_IMPORT), parts - set(MAY_IMPORT)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _run_time_nodes(tree: ast.Module) -> Iterator[ast.AST]:
    """Every node but those under `if TYPE_CHECKING:` (imports for annotations run nothing)."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def _module_graph() -> dict[str, set[str]]:
    """Each module and the modules of ours it imports when it runs (`from package import
    module` counts as importing that module, not the package). An import for annotations only
    (under `if TYPE_CHECKING:`) does not count: it makes no import order matter."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        found: set[str] = set()
        for node in _run_time_nodes(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names} & set(paths)
                found |= submodules or {node.module}
            elif isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
        graph[name] = {module for module in found if module in paths and module != name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_no_module_imports_itself_round_a_circle() -> None:
    """A circle (a imports b imports a) makes the import order matter and the two one thing."""
    assert _circles(_module_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]

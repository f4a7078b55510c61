"""The core's shape: layers without a cycle, no borrowed private names, standard library only.

Read from the source (every import, those inside functions included), so a cycle hidden
behind a late import fails here as surely as one at the top of a module.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "src" / "pardon" / "core"


def _imports(path: Path) -> list[tuple[str, tuple[str, ...], int]]:
    """Every ``(module, names, line)`` imported by the file at ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, tuple(alias.name for alias in node.names), node.lineno))
        elif isinstance(node, ast.Import):
            found += [(alias.name, (), node.lineno) for alias in node.names]
    return found


def _graph() -> dict[str, set[str]]:
    """Each core module's name, and the core modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(CORE.glob("*.py")):
        name = path.stem
        graph[name] = {
            module.removeprefix("pardon.core.")
            for module, _, _ in _imports(path)
            if module.startswith("pardon.core.") and module != "pardon.core"
        }
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle in ``graph`` (as the modules around it), or ``None``."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> list[str] | None:
        if name in trail:
            return [*trail[trail.index(name) :], name]
        if name in done:
            return None
        for imported in sorted(graph.get(name, ())):
            cycle = visit(imported, [*trail, name])
            if cycle:
                return cycle
        done.add(name)
        return None

    for name in sorted(graph):
        cycle = visit(name, [])
        if cycle:
            return cycle
    return None


def test_the_core_modules_import_each_other_without_a_cycle() -> None:
    graph = _graph()
    assert {"kernel", "partners", "tokens", "moves", "turn", "game"} <= graph.keys()
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


def test_the_variants_are_layers_over_the_kernel() -> None:
    graph = _graph()
    assert "partners" in graph["tokens"] and "kernel" in graph["partners"]
    assert not graph["kernel"] & {"partners", "tokens", "moves", "playout", "turn", "game"}
    assert not graph["partners"] & {"tokens", "moves"}


def test_no_core_module_imports_another_modules_private_names() -> None:
    borrowed = [
        f"{path.name}:{line} takes {name} from {module}"
        for path in sorted(CORE.glob("*.py"))
        for module, names, line in _imports(path)
        if module.startswith("pardon.")
        for name in names
        if name.startswith("_")
    ]
    assert not borrowed


def test_the_core_needs_only_the_standard_library() -> None:
    outside = [
        f"{path.name}:{line} imports {module}"
        for path in sorted(CORE.glob("*.py"))
        for module, _, line in _imports(path)
        if module.split(".")[0] not in sys.stdlib_module_names and module.split(".")[0] not in {"pardon", "__future__"}
    ]
    assert not outside
    reaching_out = [
        f"{path.name}:{line} imports {module}"
        for path in sorted(CORE.glob("*.py"))
        for module, _, line in _imports(path)
        if module.startswith("pardon.") and not module.startswith("pardon.core")
    ]
    assert not reaching_out


def test_the_checker_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None

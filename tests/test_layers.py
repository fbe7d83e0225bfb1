"""The import layers: bluff_envs <- agents <- experiments, and no circles.

Every import is read with ``ast``, function-local ones included, and resolved to the module
it names (``from pkg import name`` to ``pkg.name`` when that is a module, else to ``pkg``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"bluff_envs": 0, "agents": 1, "experiments": 2}


def modules() -> dict[str, Path]:
    found = {}
    for top in LAYERS:
        for path in (ROOT / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules ``name`` imports, anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parent, base] if base else parent)
            candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        for candidate in candidates:
            while candidate and candidate not in known:
                candidate = candidate.rpartition(".")[0]
            if candidate and candidate != name:
                targets.add(candidate)
    return targets


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def layer(module: str) -> int:
    return LAYERS[module.split(".")[0]]


def test_the_graph_is_read():
    edges = graph()
    assert "agents.base" in edges["agents.registry"]
    assert "bluff_envs.registry" in edges["bluff_envs"]
    assert len(edges) > 100


def test_no_module_imports_a_higher_layer():
    upward = sorted(f"{m} -> {t}" for m, ts in graph().items() for t in ts if layer(t) > layer(m))
    assert not upward, "imports that run back up a layer:\n" + "\n".join(upward)


def test_no_two_modules_import_each_other_directly_or_in_a_circle():
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    assert not circles, "modules that import each other:\n" + "\n".join(" <-> ".join(c) for c in circles)

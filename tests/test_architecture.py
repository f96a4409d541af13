"""The import rules of docs/architecture.md, measured from the code's own imports (top-level,
under TYPE_CHECKING and inside functions alike): no import circle in ``ranklens``; ``health``
imports no feature; a result module imports no writer; ``ranklens.document`` knows no feature;
only ``ranklens.app`` imports Streamlit (``ranklens.cli.app`` starts it, inside its command).

Names loaded by ``importlib`` (``ranklens._lazy``) are not imports: that is how a result names
its writer without depending on it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ranklens"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module if MODULES[module].name == "__init__.py" else \
                module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [f"{base}.{alias.name}" for alias in node.names] + [base]
    out = []
    for name in names:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module and not module.startswith(name + "."):
            out.append(name)
    return out


@functools.cache
def _tree(module: str) -> ast.Module:
    """The module's syntax tree, parsed once for every rule."""
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


@functools.cache
def imports() -> dict[str, set[str]]:
    """Module -> the ranklens modules it imports anywhere in its code (read once: the rules
    below only look at it)."""
    graph: dict[str, set[str]] = {}
    for module in MODULES:
        tree = _tree(module)
        graph[module] = {t for node in ast.walk(tree)
                         if isinstance(node, (ast.Import, ast.ImportFrom))
                         for t in _targets(module, node)}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            circle = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                circle.append(top)
                if top == node:
                    break
            if len(circle) > 1:
                found.append(sorted(circle))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_import_circle() -> None:
    assert _circles(imports()) == []


def test_health_imports_no_feature() -> None:
    graph = imports()
    assert {(m, t) for m in graph if m.startswith("ranklens.health")
            for t in graph[m] if t.startswith(("ranklens.compare", "ranklens.plan",
                                                "ranklens.ppi"))} == set()


def test_results_import_no_writer() -> None:
    graph = imports()
    writers = ("html", "latex", "frame", "text", "csv_report", "charts", "views", "report_tables")
    for result in ("ranklens.compare.report", "ranklens.plan.analysis", "ranklens.ppi.analysis"):
        assert not [t for t in graph[result] if t.rpartition(".")[2] in writers
                    or t.startswith("ranklens.document")], result


def test_the_document_knows_no_feature() -> None:
    graph = imports()
    assert {(m, t) for m in graph if m.startswith("ranklens.document") for t in graph[m]
            if t.startswith(("ranklens.compare", "ranklens.plan", "ranklens.ppi",
                             "ranklens.app"))} == set()


def test_only_the_app_imports_streamlit() -> None:
    outside = []
    for module in MODULES:
        if module.startswith("ranklens.app") or module == "ranklens.cli.app":
            continue
        tree = _tree(module)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name.startswith("streamlit")
                                                    for a in node.names):
                outside.append(module)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("streamlit"):
                outside.append(module)
    assert outside == []

"""The import graph keeps docs/ARCHITECTURE.md's promise: no module imports upward, and no circle.

The graph is built from the source with ``ast``: every ``import`` / ``from ... import`` anywhere in a module,
so imports inside functions (lazy) and under ``if TYPE_CHECKING:`` count as much as the ones at the top. A
name imported from a package that is itself a module (``from onestep.model import export``) is an arrow to
that module. Plug-ins named by a registry as strings (``"onestep.runtime.ort_engine:load"``) are imported by
the registry's reader, not the registry, and are not arrows.

The layers come from the ``layers`` block of docs/ARCHITECTURE.md: one line per rank, lowest first, each
naming the top-level modules and packages of ``onestep`` on it (``onestep`` alone is the package's
``__init__``). An arrow between two of them must go to a lower rank; inside one, the modules must not form a
circle either. The development distribution (``dev/src/onestep_dev``: training, teacher, evaluation,
benchmarks) has its own block, ``dev-layers``, checked the same way; it may import ``onestep``, and
``onestep`` never imports it: no import of ``onestep_dev`` anywhere under ``src/``, and its name appears as a
string only in the CLI's one table of development commands (``onestep.cli.DEV_COMMANDS``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
DEV_SRC = ROOT / "dev" / "src"
DOC = ROOT / "docs" / "ARCHITECTURE.md"
DEV_PACKAGE = "onestep_dev"


def modules(src: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (its file, whether it is a package's ``__init__``) for every module under ``src``."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(src.rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def imported_names(tree: ast.AST, package: str) -> Iterable[str]:
    """Every dotted name an ``import`` of ``tree`` may load (``from a import b`` gives ``a`` and ``a.b``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            yield module
            yield from (f"{module}.{alias.name}" for alias in node.names)


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    """Module -> the modules of ``src`` it imports (itself excluded)."""
    found = modules(src)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in found.items():
        package = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        graph[name] = {t for t in imported_names(tree, package) if t in found and t != name}
    return graph


def layers(doc: Path = DOC, block_name: str = "layers") -> dict[str, int]:
    """Top-level name -> rank, from the ``layers`` (or ``block_name``) fenced block of the architecture doc."""
    block = re.search(rf"```{block_name}\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert block, f"{doc} has no ```{block_name} block"
    ranks: dict[str, int] = {}
    for rank, line in enumerate(line for line in block.group(1).splitlines() if line.strip()):
        names = line.split("#", 1)[0].split()
        for name in names:
            assert name not in ranks, f"{name} is on two layers"
            ranks[name] = rank
    return ranks


def top(module: str) -> str:
    """The top-level name a module belongs to: ``onestep.frontend.zh.g2p`` -> ``frontend``, ``onestep`` ->
    ``onestep`` (likewise ``onestep_dev.train.trainer`` -> ``train``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def upward_arrows(graph: dict[str, set[str]], ranks: dict[str, int]) -> list[str]:
    """Arrows between two top-level names that do not go to a lower rank."""
    bad = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = top(source), top(target)
            if a != b and ranks[b] >= ranks[a]:
                bad.append(f"{source} -> {target} ({a}: layer {ranks[a]}, {b}: layer {ranks[b]})")
    return bad


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_top_level_module_has_a_layer() -> None:
    ranks = layers()
    missing = sorted({top(m) for m in modules()} - set(ranks))
    assert not missing, f"add these to the layers block of docs/ARCHITECTURE.md: {missing}"
    stale = sorted(set(ranks) - {top(m) for m in modules()})
    assert not stale, f"the layers block names modules that do not exist: {stale}"


def test_no_module_imports_upward() -> None:
    bad = upward_arrows(import_graph(), layers())
    assert not bad, "imports against docs/ARCHITECTURE.md's layers:\n" + "\n".join(bad)


def test_the_import_graph_has_no_circle() -> None:
    found = cycles(import_graph())
    assert not found, "import circles (lazy and type-only imports included):\n" + "\n".join(map(str, found))


def test_every_dev_top_level_module_has_a_layer() -> None:
    ranks = layers(block_name="dev-layers")
    assert sorted(set(ranks) ^ {top(m) for m in modules(DEV_SRC)}) == [], "dev-layers block != dev/src/onestep_dev"


def test_no_dev_module_imports_upward_or_in_a_circle() -> None:
    graph = import_graph(DEV_SRC)
    bad = upward_arrows(graph, layers(block_name="dev-layers"))
    assert not bad, "imports against docs/ARCHITECTURE.md's dev-layers:\n" + "\n".join(bad)
    assert not cycles(graph), f"import circles in onestep_dev: {cycles(graph)}"


def test_the_runtime_never_imports_the_development_distribution() -> None:
    """``onestep`` (the wheel users install) imports nothing of ``onestep_dev``, lazily or not; only the CLI's
    table names its modules, as strings it imports when that distribution is installed."""
    imports, strings = [], []
    for name, (path, is_package) in modules().items():
        package = name if is_package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        imports += [f"{name} -> {t}" for t in imported_names(tree, package) if t.split(".")[0] == DEV_PACKAGE]
        literals = (n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))
        if name != "onestep.cli" and any(re.match(rf"{DEV_PACKAGE}\b", v) for v in literals):
            strings.append(name)
    assert not imports, "onestep imports the development distribution:\n" + "\n".join(imports)
    assert not strings, f"only onestep.cli (DEV_COMMANDS) may name onestep_dev's modules: {strings}"
    from onestep.cli import DEV_COMMANDS

    for command in DEV_COMMANDS:
        assert command.module.startswith(f"{DEV_PACKAGE}.commands."), command
        assert (DEV_SRC / Path(*command.module.split("."))).with_suffix(".py").is_file(), command


def test_the_checks_see_lazy_type_only_and_relative_imports(tmp_path: Path) -> None:
    """The graph builder on a small tree: an upward lazy import and a type-only circle are both found."""
    pkg = tmp_path / "onestep"
    (pkg / "low").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low" / "__init__.py").write_text("")
    (pkg / "low" / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from onestep.low.b import B\n"
        "def f():\n    from onestep import high\n"
    )
    (pkg / "low" / "b.py").write_text("from .a import f\nclass B: ...\n")
    (pkg / "high.py").write_text("import onestep.low.a\n")
    graph = import_graph(tmp_path)
    assert graph["onestep.low.a"] == {"onestep.low.b", "onestep.high", "onestep"}
    assert graph["onestep.low.b"] == {"onestep.low.a"}
    assert graph["onestep.high"] == {"onestep.low.a"}
    ranks = {"onestep": 0, "low": 1, "high": 2}
    assert upward_arrows(graph, ranks) == ["onestep.low.a -> onestep.high (low: layer 1, high: layer 2)"]
    assert cycles(graph) == [["onestep.high", "onestep.low.a", "onestep.low.b"]]

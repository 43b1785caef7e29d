"""The import graph of conformance/, read with ast (nothing is imported): no cycles, and no
module imports from a floor above its own, as drawn in docs/architecture.md. Imports inside
functions count (they are still dependencies); imports under `if TYPE_CHECKING:` do not."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "conformance"

# Floors of docs/architecture.md, lowest first; a module may import its own floor or lower.
# The longest matching prefix decides (so `scenarios.replay` is not taken for `scenarios`).
FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "options", "sdk_refusals", "classify", "cassettes", "sized_yaml",
     "cassette_replay", "netguard", "providers",
     "expectations", "evidence",
     "emulator", "scenarios.format", "scenarios.history", "scenarios.stream", "scenarios.load",
     "scenarios"),
    ("clients", "sdk_clients"),
    ("bodies", "backends", "scenarios.replay"),
    ("item", "batch"),
    ("probe", "publish"),
    ("cli", "pytest_plugin"),
)
# Cycles allowed while another branch removes them: listed exactly, so the test fails once
# one is gone (then delete it here) and when a new one appears. None today.
KNOWN_CYCLES: set[frozenset[str]] = set()


def module_names() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _type_checking_only(tree: ast.Module) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for body in node.body for n in ast.walk(body)}
    return skipped


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _type_checking_only(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
                module = f"conformance.{module}" if module else "conformance"
            else:
                module = node.module or ""
            for alias in node.names:  # `from pkg import submodule` is the submodule
                sub = f"{module}.{alias.name}".removeprefix("conformance.")
                targets.add(f"conformance.{sub}" if sub in known else module)
    found = set()
    for target in targets:
        if target == "conformance" or not target.startswith("conformance."):
            continue
        inner = target.removeprefix("conformance.")
        while inner and inner not in known:
            inner = inner.rpartition(".")[0]
        if inner and inner != name:
            found.add(inner)
    return found


def graph() -> dict[str, set[str]]:
    known = module_names()
    return {name: imports_of(name, path, known) for name, path in known.items() if name}


def floor(name: str) -> int:
    matches = [(len(p), level) for level, prefixes in enumerate(FLOORS) for p in prefixes
               if name == p or name.startswith(f"{p}.")]
    if matches:
        return max(matches)[1]  # the longest prefix decides
    raise AssertionError(f"conformance.{name} is on no floor: add it to FLOORS and to "
                         "docs/architecture.md")


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_is_on_a_floor() -> None:
    for name in graph():
        floor(name)


def test_no_import_cycles_inside_conformance() -> None:
    assert cycles(graph()) == KNOWN_CYCLES


def test_no_upward_imports() -> None:
    upward = sorted(f"{name} (floor {floor(name)}) imports {target} (floor {floor(target)})"
                    for name, targets in graph().items() for target in targets
                    if floor(target) > floor(name))
    assert upward == []


def test_the_core_never_imports_a_front_door_and_the_emulator_stays_self_contained() -> None:
    edges = graph()
    emulator = {t for n, ts in edges.items() if n.startswith("emulator") for t in ts}
    # The emulator answers an observed request with the observed answer (evidence/).
    assert {t for t in emulator if not t.startswith("emulator")} <= {"evidence.load"}
    assert edges["bodies"] <= {"errors", "providers", "scenarios.load"}  # pure: no SDK, no server

"""The import layers of `normalizer/`, read from the source (ast), so a new import that
climbs a floor or closes a cycle fails here rather than in a newcomer's head.

    floor 3  top       normalizer (the face), normalize, steps, request, testing, strategies
    floor 2  rooms     wire/  streaming/  passes/  checks/   (siblings: none imports another)
    floor 1  services  tools, gemini_schema, signature_shape, check, shared_reading, skeleton,
                       skeleton_fits, strict_mode, window, window_walk, options, array_items,
                       empty_enum, root_union, anyof_type, required_names,
                       ref_siblings, ref_targets, enum_type, property_schemas,
                       tuple_items, sampling, thinking_params, output_format,
                       gemini_keywords, thinking_options, thinking_budget, effort_levels,
                       output_limit, request_fields, cached_content, tool_combination,
                       request_naming, meta_schema, property_keys, jsonschema_words
    floor 0  ground    model, json_values, tool_spec, protocols, errors, rules, ids, profiles/,
                       scope, collector, media, schema_walk, cache_marks, image_bytes,
                       pdf_bytes

A module imports only from its own floor or below; a room imports only itself and floors
0-1. Within floors 0 and 1, modules may import each other as long as there is no cycle.
`check.check` finds its detectors with importlib at call time (checks/<protocol>), a lookup
by name that this test does not count as an import: checks/ depends on check, not back.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "normalizer"
FLOORS: dict[str, int] = {
    "model": 0, "json_values": 0, "tool_spec": 0, "protocols": 0, "errors": 0, "rules": 0, "ids": 0,
    "profiles": 0, "scope": 0, "collector": 0, "media": 0, "schema_walk": 0, "cache_marks": 0,
    "image_bytes": 0, "pdf_bytes": 0,
    "tools": 1, "crossing": 1, "gemini_schema": 1, "signature_shape": 1, "check": 1,
    "window": 1, "window_walk": 1, "skeleton": 1, "skeleton_fits": 1, "shared_reading": 1,
    "options": 1, "strict_mode": 1, "array_items": 1, "empty_enum": 1, "root_union": 1,
    "anyof_type": 1, "required_names": 1, "ref_siblings": 1,
    "ref_targets": 1, "enum_type": 1, "property_schemas": 1,
    "tuple_items": 1, "sampling": 1, "thinking_params": 1, "output_format": 1,
    "gemini_keywords": 1, "thinking_options": 1, "thinking_budget": 1, "effort_levels": 1,
    "output_limit": 1, "request_fields": 1, "cached_content": 1, "tool_combination": 1,
    "request_naming": 1, "meta_schema": 1, "property_keys": 1, "jsonschema_words": 1,
    "wire": 2, "streaming": 2, "passes": 2, "checks": 2,
    "": 3, "normalize": 3, "steps": 3, "option_steps": 3, "schema_steps": 3, "step": 3,
    "request": 3, "testing": 3, "strategies": 3,
}
ROOMS = {"wire", "streaming", "passes", "checks"}


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _imports(path: Path) -> set[str]:
    """Modules of the package this file imports at module level or inside functions.
    `from pkg import sub` counts as an import of pkg.sub when sub is a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "normalizer")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                and node.module.split(".")[0] == "normalizer":
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if _is_module(sub) else node.module)
    return found


GRAPH: dict[str, set[str]] = {_name(p): _imports(p) for p in sorted(ROOT.rglob("*.py"))}


def _area(module: str) -> str:
    """The first name under normalizer ("" for the package face itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_module_has_a_floor() -> None:
    assert {_area(m) for m in GRAPH} <= set(FLOORS), {_area(m) for m in GRAPH} - set(FLOORS)


def test_no_cycles() -> None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for dep in sorted(GRAPH.get(module, ())):
            if state.get(dep) == 1:
                pytest.fail("import cycle: " + " -> ".join([*path, module, dep]))
            if dep not in state:
                visit(dep, [*path, module])
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [])


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_stay_on_or_below_their_floor(module: str) -> None:
    area, floor = _area(module), FLOORS[_area(module)]
    for dep in sorted(GRAPH[module]):
        dep_area = _area(dep)
        assert FLOORS[dep_area] <= floor, f"{module} imports {dep}, a floor up"
        if area in ROOMS and dep_area in ROOMS:
            assert dep_area == area, f"{module} imports {dep}: rooms do not import each other"


def test_ground_floor_imports_only_ground() -> None:
    ground = [m for m in GRAPH if FLOORS[_area(m)] == 0]
    assert {"normalizer.model", "normalizer.protocols", "normalizer.errors"} <= set(ground)
    for module in ground:
        assert all(FLOORS[_area(d)] == 0 for d in GRAPH[module]), (module, GRAPH[module])

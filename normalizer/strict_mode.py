"""OpenAI strict mode's schema requirement, as one walk shared by the detector
(checks/strict_schema) and the repair (passes/strict_tools).

A function declared `strict: true` must have a closed parameters schema: every object schema
sets `additionalProperties: false` and lists every key of `properties` in `required`
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas).
Anthropic's structured outputs ask the first half of it of every object in an output
schema (`unclosed_objects`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OpenObject:
    """One object schema strict mode refuses: where (the path of schema keys), which
    requirement it breaks, and the first property missing from `required` (for that one)."""

    path: Path
    requirement: Literal["additional_properties", "required"]
    key: str = ""

    @property
    def why(self) -> str:
        """The requirement broken, in a change's words."""
        return ("additionalProperties is not false" if self.requirement ==
                "additional_properties" else f"property {self.key!r} is not in required")


def open_objects(schema: Any) -> Iterator[OpenObject]:
    """Every object schema under `schema` (itself first) that strict mode rejects. Reads a
    request's JSON and a ToolSpec's frozen schema alike (arrays are lists or tuples)."""
    for path, node in _objects(schema, ()):
        if node.get("additionalProperties") is not False:
            yield OpenObject(path, "additional_properties")
            continue
        properties = node.get("properties")
        required = node.get("required")
        listed = set(required) if isinstance(required, (list, tuple)) else set()
        if isinstance(properties, Mapping):
            missing = [k for k in properties if k not in listed]
            if missing:
                yield OpenObject(path, "required", str(missing[0]))


def is_closed(schema: Any) -> bool:
    """Whether strict mode accepts `schema` as it is."""
    return next(open_objects(schema), None) is None


def _objects(node: Any, path: Path) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """Every object schema under `node` (itself first), with its path of schema keys."""
    if not isinstance(node, Mapping):
        return
    if node.get("type") == "object" or isinstance(node.get("properties"), Mapping):
        yield path, node
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        for key, sub in properties.items():
            yield from _objects(sub, (*path, "properties", str(key)))
    if isinstance(node.get("items"), Mapping):
        yield from _objects(node["items"], (*path, "items"))
    for key in ("anyOf", "$defs", "definitions"):
        value = node.get(key)
        subs = enumerate(value) if isinstance(value, (list, tuple)) else (
            value.items() if isinstance(value, Mapping) else ())
        for k, sub in subs:
            yield from _objects(sub, (*path, key, str(k)))


def unclosed_objects(schema: Any) -> Iterator[tuple[Path, Mapping[str, Any]]]:
    """Every schema of type object under `schema` (itself first) whose additionalProperties
    is not false: what Anthropic's structured outputs refuse in an output schema ("For
    'object' type, 'additionalProperties' must be explicitly set to false"), whether or
    not it lists every property in `required`."""
    for path, node in _objects(schema, ()):
        kind = node.get("type")
        typed = kind == "object" or (isinstance(kind, (list, tuple)) and "object" in kind)
        if typed and node.get("additionalProperties") is not False:
            yield path, node

"""OpenAI strict mode: a function declared with `strict: true` must have a closed schema.

OpenAI's structured-outputs subset wants every object schema to set
`additionalProperties: false` and to list every key of `properties` in `required`
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas). Both the
Chat Completions and the Responses wire declare strict functions; this module walks one
parameters schema and reports each object that breaks either requirement, top first, with
the vendor's `context` (the path of schema keys to the object, as a Python tuple).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule

Path = tuple[str, ...]


def strict_schema_findings(schema: Any, name: str, location: str, rule: Rule,
                           index: int) -> Iterator[Finding]:
    """One finding per object of `schema` that strict mode rejects; the requirement text
    (vendor-verbatim, from `params.texts`) names which requirement and which key."""
    texts: Mapping[str, str] = rule.params.get("texts") or {}
    for path, node in _objects(schema, ()):
        problem = _problem(node, texts)
        if problem is not None:
            yield Finding(location=f"{location}.{'.'.join(path)}" if path else location,
                          fields={"index": index, "name": name, "context": repr(path),
                                  "requirement": problem})


def _problem(node: Mapping[str, Any], texts: Mapping[str, str]) -> str | None:
    if node.get("additionalProperties") is not False:
        return texts.get("additional_properties", "additionalProperties")
    properties = node.get("properties")
    required = node.get("required")
    listed = set(required) if isinstance(required, list) else set()
    if isinstance(properties, Mapping):
        missing = [k for k in properties if k not in listed]
        if missing:
            return texts.get("required", "required {key}").format(key=missing[0])
    return None


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
        subs = enumerate(value) if isinstance(value, list) else (
            value.items() if isinstance(value, Mapping) else ())
        for k, sub in subs:
            yield from _objects(sub, (*path, key, str(k)))

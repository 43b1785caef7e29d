"""OpenAI strict mode: a function declared with `strict: true` must have a closed schema.

The requirement itself is walked in normalizer/strict_mode (shared with the repair); this
module turns each object that breaks it into a finding, top first, with the vendor's
`context` (the path of schema keys to the object, as a Python tuple) and its texts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.strict_mode import open_objects


def strict_schema_findings(schema: Any, name: str, location: str, rule: Rule,
                           index: int) -> Iterator[Finding]:
    """One finding per object of `schema` that strict mode rejects; the requirement text
    (vendor-verbatim, from `params.texts`) names which requirement and which key."""
    texts: Mapping[str, str] = rule.params.get("texts") or {}
    for found in open_objects(schema):
        path = found.path
        if found.requirement == "additional_properties":
            problem = texts.get("additional_properties", "additionalProperties")
        else:
            problem = texts.get("required", "required {key}").format(key=found.key)
        yield Finding(location=f"{location}.{'.'.join(path)}" if path else location,
                      fields={"index": index, "name": name, "context": repr(path),
                              "requirement": problem})

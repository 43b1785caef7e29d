"""`output-schema-open-object`: an Anthropic output schema (`output_config.format`, or the
beta's `output_format`) holding an object whose additionalProperties is not false.

Anthropic answers with the field's path and the first such object's requirement, as
"output_format.schema: For 'object' type, 'additionalProperties' must be explicitly set to
false" (ax-llm/ax#458); an explicit `true` gets a text of its own (BerriAI/litellm#35808).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.check import Finding
from normalizer.output_format import schema_fields
from normalizer.profiles import Rule
from normalizer.strict_mode import unclosed_objects


def open_output_object(body: Mapping[str, Any], rule: Rule,
                       model: str | None) -> Iterator[Finding]:
    """One finding per object of the output schema that is not closed, top first; the
    requirement text names a missing additionalProperties or one set otherwise."""
    found = schema_fields(body, "anthropic") if isinstance(body, Mapping) else None
    if found is None:
        return
    field, value = ".".join(found[0]), found[1]
    texts: Mapping[str, str] = rule.params.get("texts") or {}
    for path, node in unclosed_objects(value.get("schema")):
        said = "missing" if "additionalProperties" not in node else "explicit"
        location = ".".join((field, "schema", *path))
        yield Finding(location, {"field": field, "requirement": texts.get(said, said)})

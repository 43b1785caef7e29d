"""What python-jsonschema says of a keyword value its meta-schema refuses.

OpenAI checks a function's parameters against a JSON Schema meta-schema that takes boolean
schemas (draft 6 or 7) and answers with the first error in python-jsonschema's words, the
value written as Python writes it: "Invalid schema for function 'query-graphql': 'any' is
not valid under any of the given schemas." (blurrah/mcp-graphql#14), "True is not of type
'array'." (a property's `required: true`, CherryHQ/cherry-studio#4188 through a relay), "[] is
not of type 'object', 'boolean'." (FoundationAgents/OpenManus#1162, through a relay). The
other sentences here are the same library's for the other keywords (its `type`, `minimum`,
`uniqueItems`, `minItems` and `anyOf` messages), not each seen from OpenAI.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from normalizer.meta_schema import DRAFT_7

_SCHEMA = "'object', 'boolean'"
_NUMBER = ("maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf")


def _is_schema(value: Any) -> bool:
    return isinstance(value, Mapping | bool)


def meta_schema_words(key: str, value: Any) -> str:
    """The sentence for `key`'s refused `value` (one DRAFT_7 refuses), without its final
    full stop."""
    demand = DRAFT_7[key][1]
    if key in ("type", "items"):  # each an anyOf of two forms in the meta-schema
        return f"{value!r} is not valid under any of the given schemas"
    if key in _NUMBER:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return f"{value!r} is not of type 'number'"
        return f"{value!r} is less than or equal to the minimum of 0"  # multipleOf
    if demand == "a non-negative integer":
        integral = isinstance(value, int | float) and not isinstance(value, bool) and \
            float(value).is_integer()
        return f"{value!r} is less than the minimum of 0" if integral else \
            f"{value!r} is not of type 'integer'"
    if demand == "a boolean":
        return f"{value!r} is not of type 'boolean'"
    if demand == "a string":
        return f"{value!r} is not of type 'string'"
    if demand == "a schema (an object or a boolean)":
        return f"{value!r} is not of type {_SCHEMA}"
    return _in_a_container(key, value)


def _in_a_container(key: str, value: Any) -> str:
    """A list or object of names or schemas: the container's own fault, else its first bad
    entry's (python-jsonschema descends to the entry)."""
    if key in ("required", "enum", "examples", "allOf", "anyOf", "oneOf"):
        if not isinstance(value, list):
            return f"{value!r} is not of type 'array'"
        if key == "required":
            bad = next((v for v in value if not isinstance(v, str)), None)
            return f"{bad!r} is not of type 'string'" if bad is not None else \
                f"{value!r} has non-unique elements"
        if not value:
            return f"{value!r} should be non-empty"
        bad = next(v for v in value if not _is_schema(v))
        return f"{bad!r} is not of type {_SCHEMA}"
    if not isinstance(value, Mapping):
        return f"{value!r} is not of type 'object'"
    if key == "dependentRequired":  # an object of name lists
        names = next(v for v in value.values() if not isinstance(v, list)
                     or not all(isinstance(n, str) for n in v) or len(set(v)) != len(v))
        return _in_a_container("required", names)
    inner = next((v for v in value.values() if not _is_schema(v)), None)
    return f"{inner!r} is not of type {_SCHEMA}"

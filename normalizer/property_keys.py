"""Property names of a tool's parameters that a vendor's pattern refuses, and new ones.

Anthropic takes only `^[a-zA-Z0-9_.-]{1,64}$` as the names under a tool schema's top-level
`properties` and refuses the whole request otherwise ("tools.14.custom.input_schema.
properties: Property keys should match pattern '^[a-zA-Z0-9_.-]{1,64}$'",
anthropics/claude-code#79418). Generators write query parameters as they are
(`filter[bundleId]`, beautyfree/appstore-connect-mcp#2), optional markers (`cwd?`,
can1357/oh-my-pi#9730), spaces and non-ASCII letters. A new name is made the way a
rejected tool name is (normalizer.ids: unsafe characters as `_`, a digest where that
collides or is too long), distinct from the tool's other names; the map new -> original
lets the caller give the vendor's arguments their original names back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from normalizer.ids import Constraint, name_map


def refused_keys(schema: Any, accepts: Callable[[str], bool]) -> list[str]:
    """The names under `schema`'s top-level `properties` that `accepts` refuses, in order."""
    found = schema.get("properties") if isinstance(schema, Mapping) else None
    return [k for k in found if not accepts(k)] if isinstance(found, Mapping) else []


def key_renames(schema: Mapping[str, Any], rule: Constraint) -> dict[str, str]:
    """The map original -> new of each top-level property name `rule` refuses."""
    return name_map(list(schema.get("properties") or {}), rule)


def with_keys_renamed(schema: Mapping[str, Any], renames: Mapping[str, str]) -> dict[str, Any]:
    """A copy of `schema` with its top-level properties (in their order) and `required`
    names renamed."""
    out = dict(schema)
    out["properties"] = {renames.get(k, k): v for k, v in schema["properties"].items()}
    required = schema.get("required")
    if isinstance(required, list):
        out["required"] = [renames.get(n, n) if isinstance(n, str) else n for n in required]
    return out


def arguments_renamed(arguments: Mapping[str, Any],
                      renames: Mapping[str, str]) -> dict[str, Any] | None:
    """A call's arguments with the renamed names, in their order; None where it has none of
    them."""
    if not any(k in renames for k in arguments):
        return None
    return {renames.get(k, k): v for k, v in arguments.items()}

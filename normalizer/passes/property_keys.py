"""Tools pass: property names a vendor refuses in a tool's parameters schema."""

from __future__ import annotations

from dataclasses import replace

from normalizer.ids import Constraint
from normalizer.model import Change, JsonMap, Part, ToolCall, ToolSpec, thaw
from normalizer.passes import Draft, Policy
from normalizer.passes._schemas import schema_where
from normalizer.passes.ids import PartFn, map_parts
from normalizer.profiles import Profile
from normalizer.property_keys import (
    arguments_renamed,
    key_renames,
    refused_keys,
    with_keys_renamed,
)

RULE = "tool-property-key-invalid"
_PASS = "rename_property_keys"


def rename_property_keys(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes property names the target refuses in a tool's parameters (rule
    tool-property-key-invalid, params.pattern): each gets a new name (unsafe characters as
    `_`, a digest suffix where that is taken), in the schema's `properties` and `required`
    and in the arguments of the calls to that tool in the history. Lossless:
    `Draft.key_map` maps each tool's new names back (tool name as sent -> new -> original),
    so that the arguments of the vendor's calls can be given their original names.

    Rejected by: Anthropic "tools.14.custom.input_schema.properties: Property keys should
    match pattern '^[a-zA-Z0-9_.-]{1,64}$'" (anthropics/claude-code#79418).

    Before: {"properties": {"filter[id]": {"type": "string"}}, "required": ["filter[id]"]}
    After:  {"properties": {"filter_id_": {"type": "string"}}, "required": ["filter_id_"]}
    """
    pattern = profile.param(RULE, "pattern") if profile.enforces(RULE) else None
    if pattern is None or not draft.tools:
        return draft, ()
    rule = Constraint(pattern=str(pattern))
    accepts = rule.acceptor()
    tools: list[ToolSpec] = []
    changes: list[Change] = []
    renamed: dict[str, dict[str, str]] = {}  # tool name -> original -> new
    for tool in draft.tools:
        schema = tool.input_schema
        if not refused_keys(schema, accepts):
            tools.append(tool)
            continue
        renames = key_renames(schema, rule)
        renamed[tool.name] = renames
        tools.append(replace(tool, input_schema=JsonMap(with_keys_renamed(thaw(schema),
                                                                          renames))))
        changes.extend(Change(_PASS, "rename-property-key",
                              f"tool {tool.name!r}: property {old!r} -> {new!r} (the target "
                              f"refuses names outside {pattern})",
                              schema_where(tool.name, ("properties", new)), True)
                       for old, new in renames.items())
    if not renamed:
        return draft, ()
    history, used = map_parts(draft.history, _call_renamer(renamed), calls_only=True)
    key_map = {name: dict(keys) for name, keys in thaw(draft.key_map).items()}
    for name, renames in renamed.items():
        known = key_map.setdefault(name, {})
        for old, new in renames.items():
            known[new] = known.pop(old, old)  # a name renamed twice maps to the first
    return replace(draft, tools=tuple(tools), key_map=JsonMap(key_map),
                   history=history), (*changes, *used)


def _call_renamer(renamed: dict[str, dict[str, str]]) -> PartFn:
    """The part function giving the calls to renamed tools their new property names
    (arguments that are an object; a raw string is sent as it came), a change each."""
    def rename(i: int, j: int, part: Part) -> tuple[Part, tuple[Change, ...]]:
        if not isinstance(part, ToolCall) or part.name not in renamed or \
                not isinstance(part.arguments, JsonMap):
            return part, ()
        args = arguments_renamed(part.arguments, renamed[part.name])
        if args is None:
            return part, ()
        return replace(part, arguments=JsonMap(args), wire_arguments=None), (Change(
            _PASS, "rename-property-key", f"call {part.name!r}: arguments given the tool's "
            "new property names", f"messages[{i}].parts[{j}]", True),)
    return rename

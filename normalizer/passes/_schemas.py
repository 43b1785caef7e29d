"""What the tool-schema passes share: each tool's schema, as plain JSON, handed to a fix;
and, for a vendor that checks it with the same validator (Moonshot), a Chat json_schema
response format's schema, handed to the same fix under a name of its own."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from normalizer.model import Change, JsonMap, ToolSpec, thaw
from normalizer.output_format import schema_fields
from normalizer.passes.draft import Draft
from normalizer.profiles import Profile

# (tool, its schema as plain JSON) -> (the schema to send, the changes made to it)
SchemaFix = Callable[[ToolSpec, Any], tuple[Any, Sequence[Change]]]
Path = tuple[str | int, ...]
Done = TypeVar("Done")  # what a repair says it did at one path (None: nothing)


def schema_where(tool: str, path: tuple[str | int, ...]) -> str:
    """Where a change to the node at `path` of `tool`'s schema is reported."""
    return f"tools.{tool}" + "".join(f".{p}" for p in path)


def fix_schemas(draft: Draft, fix: SchemaFix, *,
                response_format: bool = False) -> tuple[Draft, tuple[Change, ...]]:
    """`fix` applied to every tool's schema (thawed: type and enum lists are lists again);
    the tools it changes nothing in are kept as they were, and the draft too if none. With
    `response_format`, to the schema of a Chat json_schema response format too (its
    changes said of "the response schema" at `response_format.json_schema.schema`)."""
    tools: list[ToolSpec] = []
    changes: list[Change] = []
    for tool in draft.tools:
        schema, made = fix(tool, thaw(tool.input_schema))
        tools.append(replace(tool, input_schema=schema) if made else tool)
        changes.extend(made)
    options = _fix_response_schema(draft.options, fix) if response_format else None
    if options is not None:
        changes.extend(options[1])
    if not changes:
        return draft, ()
    return replace(draft, tools=tuple(tools),
                   options=draft.options if options is None else options[0]), tuple(changes)


def fix_rule_schemas(draft: Draft, profile: Profile, rule: str,
                     fix: SchemaFix) -> tuple[Draft, tuple[Change, ...]]:
    """`fix_schemas` for the pass that fixes `rule`: nothing where the profile does not
    enforce it, and the response format's schema too where the profile's copy of the rule
    says so (params.response_format: Moonshot checks both with one validator)."""
    if not profile.enforces(rule):
        return draft, ()
    found = profile.rule(rule)
    both = bool(found is not None and found.params.get("response_format"))
    return fix_schemas(draft, fix, response_format=both)


# The name a fix sees for the response schema: no vendor's tool-name pattern admits a NUL,
# so no tool has it, and the changes made under it are said again of the response schema.
_RESPONSE = "\x00response"
_RESPONSE_AT = "response_format.json_schema.schema"


def _fix_response_schema(options: Mapping[str, Any], fix: SchemaFix
                         ) -> tuple[JsonMap, list[Change]] | None:
    """The options with `fix` applied to the response format's schema, and its changes
    said of that schema; None where there is no such schema or nothing to do."""
    found = schema_fields(options, "openai_chat")
    fields = found[1] if found is not None else None
    if fields is None or not isinstance(fields.get("schema"), Mapping):
        return None
    tool = ToolSpec(name=_RESPONSE, description="", input_schema=fields["schema"])
    schema, made = fix(tool, thaw(fields["schema"]))
    if not made:
        return None
    named = f"the response schema {str(fields.get('name', ''))!r}"
    said = [replace(c, what=c.what.replace(f"tool {_RESPONSE!r}", named),
                    where=c.where.replace(f"tools.{_RESPONSE}", _RESPONSE_AT, 1))
            for c in made]
    out = thaw(options)
    out["response_format"]["json_schema"]["schema"] = schema
    return JsonMap(out), said


def fix_at_paths(find: Callable[[Any], Iterable[Path]],
                 repair: Callable[[Any, list[Path]], tuple[Any, list[Done]]],
                 said: Callable[[str, Path, Done], Change]) -> SchemaFix:
    """The SchemaFix of a repair made at the paths a check finds: `repair(schema, paths)`
    gives the new schema and, per path, what it did (None where it could do nothing: the
    check goes on naming that place); `said(tool, path, done)` reports each."""
    def fix(tool: ToolSpec, schema: Any) -> tuple[Any, list[Change]]:
        paths = list(find(schema))
        if not paths:
            return schema, []
        fixed, done = repair(schema, paths)
        return fixed, [said(tool.name, path, d) for path, d in zip(paths, done, strict=True)
                       if d is not None]
    return fix

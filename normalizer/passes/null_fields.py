"""Responses pass: an input item field sent as null that the target takes only with a value
or left out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from normalizer.json_values import EMPTY
from normalizer.model import Change, Message, Part, Text, Thinking, ToolCall, ToolResult, part_types
from normalizer.passes import Draft, Policy
from normalizer.passes.item_ids import HOLDS_ID, item_fields, with_item_fields
from normalizer.profiles import Profile

RULE = "item-field-null"
_PASS = "drop_null_item_fields"
# The Responses item type each part is written as (where its fields are: item_ids.HOLDS_ID).
_ITEM: dict[type, str] = {Thinking: "reasoning", ToolCall: "function_call",
                          ToolResult: "function_call_output", Text: "message"}


def drop_null_item_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes input item fields sent as null that the target refuses so (rule
    item-field-null, params.fields: item type -> field names): each is left out. Lossless:
    null says there is none, and so does a field left out (the SDK's types make them
    optional).

    Rejected by: xAI Responses 422 "Failed to deserialize the JSON body into the target
    type: data did not match any variant of untagged enum ModelInput" for Codex's replayed
    reasoning item with `"content": null` (Wei-Shaw/sub2api#4237, 2026-07: the same body
    without it answered 200; `"encrypted_content": null` made no difference).

    Before: reasoning {summary: [...], content: null, encrypted_content: null}
    After:  reasoning {summary: [...], encrypted_content: null}
    """
    fields = profile.param(RULE, "fields") if profile.enforces(RULE) else None
    if not isinstance(fields, Mapping) or not fields:
        return draft, ()
    kinds = {cls for cls, kind in _ITEM.items() if kind in fields}
    if not kinds & part_types(draft.history.messages):  # most histories: one C-level look
        return draft, ()
    roles = {"tool" if cls is ToolResult else "assistant" for cls in kinds}
    changes: list[Change] = []
    out: list[Message] | None = None
    for i, message in enumerate(draft.history.messages):
        if message.role not in roles:
            continue
        parts: list[Part] | None = None
        for j, part in enumerate(message.parts):
            if type(part) not in kinds or part.extras is EMPTY:  # type: ignore[union-attr]
                continue
            fixed = _without_nulls(part, fields, f"messages[{i}].parts[{j}]", changes)
            if fixed is not part:
                parts = parts if parts is not None else list(message.parts)
                parts[j] = fixed
        if parts is not None:
            out = out if out is not None else list(draft.history.messages)
            out[i] = replace(message, parts=tuple(parts))
    if out is None:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _without_nulls(part: Part, fields: Mapping[str, object], where: str,
                   changes: list[Change]) -> Part:
    kind, own = _ITEM[type(part)], HOLDS_ID[type(part)]
    named = fields.get(kind)
    if not isinstance(named, list | tuple):
        return part
    extras = part.extras  # type: ignore[union-attr]
    held = item_fields(extras, own)
    gone = [str(name) for name in named if name in held and held[name] is None]
    if not gone:
        return part
    kept = held
    for name in gone:
        kept = kept.without(name)
        changes.append(Change(_PASS, "drop-null-item-field",
                              f"left out the {kind} item's {name!r}: null, which the target "
                              "refuses (left out, it means the same)", where, lossless=True))
    return replace(part, extras=with_item_fields(extras, own, kept))  # type: ignore[type-var]

"""Fields a content block of its type does not have (Anthropic validates every block's
fields and names the first extra one; Gemini's JSON parser names every unknown field of a
part)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from normalizer.media import GEMINI_SIGNATURE
from normalizer.model import (
    EMPTY,
    STREAM_MARKERS,
    WIRE_MARKERS,
    Change,
    Message,
    Part,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
)
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.protocols import foreign_extras

RULE = "unknown-block-field"


def _anthropic_block(part: Part) -> str | None:
    """The Anthropic block type a part renders as (media and kept blocks are not checked)."""
    if isinstance(part, Text):
        return "text"
    if isinstance(part, ToolCall):
        return "tool_use"
    if isinstance(part, ToolResult):
        return "tool_result"
    if isinstance(part, Thinking):
        return "redacted_thinking" if part.redacted else "thinking"
    return None


def _gemini_part(part: Part) -> str | None:
    """Gemini has one Part message: every part but media (written by the media module) and
    kept parts is checked against it."""
    return "part" if isinstance(part, Text | ToolCall | ToolResult | Thinking) else None


# Per protocol: the block type a part renders as, and the extras keys its renderer reads
# for itself (Gemini: the call's and response's own fields, nested by the renderer, and a
# non-thought part's signature) rather than writing them as fields of the block.
_BLOCKS: dict[str, tuple[Callable[[Part], str | None], frozenset[str]]] = {
    "anthropic": (_anthropic_block, frozenset()),
    "gemini": (_gemini_part, frozenset({"function_call", "function_response", "response",
                                        GEMINI_SIGNATURE})),
}


# Gemini keeps a call's and a function response's own unknown fields nested under these
# extras keys (the renderer writes them inside functionCall / functionResponse).
_NESTED = {ToolCall: "function_call", ToolResult: "function_response"}


def _inner_unknown(part: Part, extras: Mapping[str, object],
                   nested: Mapping[str, frozenset[str]]) -> tuple[str, list[str]] | None:
    """The nested extras key of a call or result and its fields the target does not have."""
    key = _NESTED.get(type(part))
    inner = extras.get(key) if key in nested else None  # type: ignore[arg-type]
    if not isinstance(inner, Mapping) or inner.keys() <= nested[key]:  # type: ignore[index]
        return None
    return key, [k for k in inner if k not in nested[key]]  # type: ignore[index, misc]


def drop_unknown_block_fields(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes content blocks carrying fields their type does not have (rule
    unknown-block-field, params.allowed by block type): fields kept from the body a block
    came in that no protocol owns, such as a client's `id` on a text block or a streamed
    `index` on a tool_use block, or a `cache_control` on a thinking block.

    Rejected by: Anthropic "messages.65.content.1.tool_use.text: Extra inputs are not
    permitted" (anthropics/claude-code#4378); "messages.13.content.0.thinking.cache_control:
    Extra inputs are not permitted" (Wei-Shaw/sub2api#225); Gemini "Invalid JSON payload
    received. Unknown name "id" at 'contents[1].parts[0]': Cannot find field."
    (Chevey339/kelivo#543).

    Before: assistant[thinking("…", cache_control={type: ephemeral}), text "Done."]
    After:  assistant[thinking("…"), text "Done."]
    Lossy: the dropped fields are named, block by block (the target never reads them).
    """
    allowed: Mapping[str, object] = profile.param(RULE, "allowed") or {}
    if not allowed or profile.protocol not in _BLOCKS:
        return draft, ()
    block_type, read = _BLOCKS[profile.protocol]
    unwritten = foreign_extras(profile.protocol) | STREAM_MARKERS | WIRE_MARKERS | read
    nested = {key: frozenset(allowed[key])  # type: ignore[arg-type]
              for key in _NESTED.values() if key in allowed and profile.protocol == "gemini"}
    keeps = {kind: frozenset(fields) | unwritten  # type: ignore[arg-type]
             for kind, fields in allowed.items() if kind not in nested}
    common = frozenset.intersection(*keeps.values())  # what every block type may carry
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        parts: list[Part] | None = None
        for j, part in enumerate(message.parts):
            extras = getattr(part, "extras", EMPTY)
            if extras is EMPTY:  # most parts share the one empty map
                continue
            inner = _inner_unknown(part, extras, nested) if nested else None
            # Most other parts carry only what any block may (a C-level subset test, before
            # the part's block type is worked out).
            if inner is None and extras.keys() <= common:
                continue
            kind = block_type(part)
            keep = keeps.get(kind) if kind is not None else None
            if keep is None or (inner is None and extras.keys() <= keep):
                continue
            extra = [k for k in extras if k not in keep]
            kept = extras.without(*extra)
            said = [f"{', '.join(map(repr, extra))} from a "
                    + ("part" if kind == "part" else f"{kind} block")] if extra else []
            if inner is not None:
                key, fields = inner
                rest = extras[key].without(*fields)
                kept = kept.without(key) if not rest else kept.merged(**{key: rest})
                said.append(f"{', '.join(map(repr, fields))} from a part's {key}")
            if parts is None:
                parts = list(message.parts)
            parts[j] = replace(part, extras=kept)  # type: ignore[arg-type]
            changes.append(Change("drop_unknown_block_fields", "drop-block-field",
                                  f"dropped {' and '.join(said)} (the target rejects fields "
                                  "it does not have)", f"messages[{i}].parts[{j}]",
                                  lossless=False))
        out.append(message if parts is None else message.with_parts(tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)

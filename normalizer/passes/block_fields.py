"""Fields a content block of its type does not have (Anthropic validates every block's
fields and names the first extra one; Gemini's JSON parser names every unknown field of a
part)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from normalizer.crossing import opaque_text
from normalizer.media import GEMINI_SIGNATURE
from normalizer.model import (
    EMPTY,
    STREAM_MARKERS,
    WIRE_MARKERS,
    Change,
    JsonMap,
    Message,
    Opaque,
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

    A part kept verbatim from the target's own wire (Gemini: a part with no field this
    model knows) loses the fields the target does not have; one left with none is sent as
    text (its content kept, as another vendor's part would be).

    Before: assistant[thinking("…", cache_control={type: ephemeral}), text "Done."]
    After:  assistant[thinking("…"), text "Done."]
    Lossy: the dropped fields are named, block by block (the target never reads them).
    """
    allowed: Mapping[str, object] = profile.param(RULE, "allowed") or {}
    if not allowed or profile.protocol not in _BLOCKS:
        return draft, ()
    fields = _fields(profile.protocol, allowed)
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        parts: list[Part] | None = None
        for j, part in enumerate(message.parts):
            # Most parts share the one empty extras map: nothing to read there.
            if getattr(part, "extras", EMPTY) is EMPTY and type(part) is not Opaque:
                continue
            new = _without_unknown(part, fields, i, j, changes)
            if new is not part:
                if parts is None:
                    parts = list(message.parts)
                parts[j] = new
        out.append(message if parts is None else message.with_parts(tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


@dataclass(frozen=True, slots=True)
class _Fields:
    """What a protocol's blocks may carry, read once per pass from the rule's params."""

    protocol: str
    block_type: Callable[[Part], str | None]
    keeps: Mapping[str, frozenset[str]]  # block type -> its fields and extras never written
    common: frozenset[str]  # what every block type may carry
    nested: Mapping[str, frozenset[str]]  # Gemini: a call's and a response's own fields
    written: frozenset[str] | None  # Gemini: a kept part's fields (all of them written)


def _fields(protocol: str, allowed: Mapping[str, object]) -> _Fields:
    block_type, read = _BLOCKS[protocol]
    unwritten = foreign_extras(protocol) | STREAM_MARKERS | WIRE_MARKERS | read
    nested = {key: frozenset(allowed[key])  # type: ignore[arg-type]
              for key in _NESTED.values() if key in allowed and protocol == "gemini"}
    keeps = {kind: frozenset(fields) | unwritten  # type: ignore[arg-type]
             for kind, fields in allowed.items() if kind not in nested}
    written = frozenset(allowed["part"]) if protocol == "gemini" \
        and "part" in allowed else None  # type: ignore[arg-type]
    return _Fields(protocol, block_type, keeps, frozenset.intersection(*keeps.values()),
                   nested, written)


def _without_unknown(part: Part, fields: _Fields, i: int, j: int,
                     changes: list[Change]) -> Part:
    """`part` (messages[i].parts[j]) without the fields its block type does not have."""
    if type(part) is Opaque:
        return _kept_part(part, fields.protocol, fields.written, i, j, changes)
    extras: JsonMap = part.extras  # type: ignore[union-attr]
    inner = _inner_unknown(part, extras, fields.nested) if fields.nested else None
    # Most other parts carry only what any block may (a C-level subset test, before the
    # part's block type is worked out).
    if inner is None and extras.keys() <= fields.common:
        return part
    kind = fields.block_type(part)
    keep = fields.keeps.get(kind) if kind is not None else None
    if keep is None or (inner is None and extras.keys() <= keep):
        return part
    extra = [k for k in extras if k not in keep]
    kept = extras.without(*extra)
    said = [f"{', '.join(map(repr, extra))} from a "
            + ("part" if kind == "part" else f"{kind} block")] if extra else []
    if inner is not None:
        key, names = inner
        rest = extras[key].without(*names)  # type: ignore[union-attr]
        kept = kept.without(key) if not rest else kept.merged(**{key: rest})
        said.append(f"{', '.join(map(repr, names))} from a part's {key}")
    changes.append(Change("drop_unknown_block_fields", "drop-block-field",
                          f"dropped {' and '.join(said)} (the target rejects fields it does "
                          "not have)", f"messages[{i}].parts[{j}]", lossless=False))
    return replace(part, extras=kept)  # type: ignore[arg-type]


def _kept_part(part: Opaque, protocol: str, written: frozenset[str] | None, i: int, j: int,
               changes: list[Change]) -> Part:
    """A part (messages[i].parts[j]) kept verbatim from `protocol`'s own wire without the
    fields the target does not have (`written`: the fields it has; None: not checked), or as
    text when none is left. Another protocol's kept parts are the crossing's business."""
    if written is None or part.protocol != protocol or part.data.keys() <= written:
        return part
    extra = [k for k in part.data if k not in written]
    kept = part.data.without(*extra)
    where = f"messages[{i}].parts[{j}]"
    if kept:
        changes.append(Change("drop_unknown_block_fields", "drop-block-field",
                              f"dropped {', '.join(map(repr, extra))} from a part (the target "
                              "rejects fields it does not have)", where, lossless=False))
        return replace(part, data=kept)
    changes.append(Change("drop_unknown_block_fields", "unknown-part-as-text",
                          f"a part with no field the target has ({', '.join(map(repr, extra))})"
                          " sent as text", where, lossless=False))
    return Text(opaque_text(part))

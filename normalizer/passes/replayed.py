"""Passes for parts replayed from another vendor's or client's turn that the target cannot
take as they are: reasoning and function_call item ids it did not issue, function responses
with no name, server tool calls replayed as client calls."""

from __future__ import annotations

import json
import re
from dataclasses import replace

from normalizer.json_values import EMPTY
from normalizer.model import Change, Message, Part, Text, Thinking, ToolCall, ToolResult, thaw
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile


def _with(draft: Draft, messages: list[Message]) -> Draft:
    return replace(draft, history=replace(draft.history, messages=tuple(messages)))


# Per item kind that carries an item id in extras: its rule, the prefix it must have
# (params.pattern), the change code and what the change calls it.
_ITEM_IDS: tuple[tuple[type[Thinking] | type[ToolCall], str, str, str, str], ...] = (
    (Thinking, "reasoning-item-id-invalid", "^rs", "drop-reasoning-item-id", "reasoning item"),
    (ToolCall, "call-item-id-invalid", "^fc", "drop-call-item-id", "function_call item"),
)


def drop_invalid_item_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes Responses items whose item id the target did not issue: the id is removed and
    the item is sent by value. Reasoning items (rule reasoning-item-id-invalid: a gateway
    rebuilds them from reasoning_content with ids of its own) and function_call items (rule
    call-item-id-invalid: a client that keeps only the call id writes it in both fields, a
    gateway its own `item_…` ids; the call keeps its call_id, which pairs it with its
    output). One walk for both: each is read only where its rule is enforced.

    Rejected by: OpenAI Responses "Invalid 'input[15].id': 'reasoning_15'. Expected an ID
    that begins with 'rs'." (diegosouzapw/OmniRoute#224; Wei-Shaw/sub2api#5413 strips them);
    "Invalid 'input[8].id': 'call_Ev2hX2kjNoJ44sB54MiNy8iD'. Expected an ID that begins with
    'fc'." (gethnet/litellm-connector-copilot#54; Wei-Shaw/sub2api#3785 for item_ ids;
    nodetool-ai/nodetool#4252 leaves the id out).

    Before: reasoning {id: reasoning_15, summary: …}, function_call {id: call_1, call_id: call_1, …}
    After:  reasoning {summary: …}, function_call {call_id: call_1, …}
    Lossless: an id the vendor never issued refers to nothing it stored.
    """
    checked = {kind: (re.compile(str(profile.param(rule, "pattern", prefix))).search, code,
                      label)
               for kind, rule, prefix, code, label in _ITEM_IDS if profile.enforces(rule)}
    if not checked:
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        for part in message.parts:  # a loop, not any(...): this runs for every message
            if type(part) in checked and part.extras is not EMPTY:
                break
        else:
            out.append(message)  # no such item with fields: nothing to read
            continue
        parts = list(message.parts)
        for j, part in enumerate(parts):
            found = checked.get(type(part))
            item_id = part.extras.get("id") if found is not None else None
            if found is not None and isinstance(item_id, str) and found[0](item_id) is None:
                parts[j] = replace(part, extras=part.extras.without("id"))
                changes.append(Change("drop_invalid_item_ids", found[1],
                                      f"removed {found[2]} id {item_id!r} (not issued by the "
                                      "target)", f"messages[{i}].parts[{j}]", lossless=True))
        out.append(replace(message, parts=tuple(parts)) if parts != list(message.parts)
                   else message)
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def _calls_before(messages: tuple[Message, ...], index: int) -> tuple[ToolCall, ...]:
    for back in range(index - 1, -1, -1):  # by index: a slice would copy the whole prefix
        if messages[back].role == "assistant":
            return messages[back].tool_calls
    return ()


def name_function_responses(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes tool results whose name is "" (rule function-response-name-empty): each takes
    the name of its call, found by id in the call turn before it, else by position among
    that turn's calls.

    Rejected by: Gemini "* GenerateContentRequest.contents[3].parts[0].function_response.name:
    Name cannot be empty." (langflow-ai/langflow#9437).

    Before: [assistant(call search), tool(result name "")]
    After:  [assistant(call search), tool(result name "search")]
    Lossless: the name is the call's.
    """
    messages = draft.history.messages
    if not any(r.name == "" for m in messages for r in m.tool_results):
        return draft, ()  # only a result named "" is renamed
    changes: list[Change] = []
    out: list[Message] = []
    position = 0
    for i, message in enumerate(messages):
        if message.role != "tool":
            position = 0
            out.append(message)
            continue
        calls = _calls_before(messages, i)
        parts = list(message.parts)
        for j, part in enumerate(parts):
            if not isinstance(part, ToolResult):
                continue
            name = _call_name(calls, part.call_id, position)
            position += 1
            if part.name == "" and name:
                parts[j] = replace(part, name=name)
                answers = "" if part.call_id is None else f" (call {part.call_id!r})"
                changes.append(Change("name_function_responses", "name-function-response",
                                      f"gave a tool result with no name{answers} its call's "
                                      f"name {name!r}", f"messages[{i}].parts[{j}]",
                                      lossless=True))
        out.append(replace(message, parts=tuple(parts)) if parts != list(message.parts)
                   else message)
    return (_with(draft, out), tuple(changes)) if changes else (draft, ())


def _call_name(calls: tuple[ToolCall, ...], call_id: str | None, position: int) -> str | None:
    by_id = [c.name for c in calls if call_id is not None and c.id == call_id]
    if by_id:
        return by_id[0]
    return calls[position].name if position < len(calls) else None


def server_calls_to_text(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes server tool calls (ids with a params.prefixes prefix, `srvtoolu_`) replayed as
    client tool calls (rule server-tool-use-as-client): each call, and the result that
    answers it, becomes text saying what was called and what came back.

    Rejected by: Anthropic "messages.1: `tool_use` ids were found without `tool_result`
    blocks immediately after: srvtoolu_01ALRFK59SkK8D9e1Xj2exhq. …" although a tool_result
    followed (pydantic/pydantic-ai cassette test_anthropic_web_search_tool, 2025-05).

    Before: [assistant(call web_search id srvtoolu_1), tool(result srvtoolu_1 "…")]
    After:  [assistant(text "[server tool web_search was called with {…}]"),
             tool(text "[result of server tool web_search: …]")]
    Lossy: the call is no longer a structured call, only its record as text.
    """
    prefixes = tuple(profile.param("server-tool-use-as-client", "prefixes", ("srvtoolu_",)))
    names = {p.id: p.name for m in draft.history.messages for p in m.parts
             if isinstance(p, ToolCall) and p.id and p.id.startswith(prefixes)}
    if not names:
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        parts = [_as_text(p, names) for p in message.parts]
        for j, (old, new) in enumerate(zip(message.parts, parts, strict=True)):
            if old is not new:
                changes.append(Change("server_calls_to_text", "server-tool-call-to-text",
                                      f"turned server tool {type(old).__name__} into text",
                                      f"messages[{i}].parts[{j}]", lossless=False))
        out.append(replace(message, parts=tuple(parts)) if changes and parts != list(
            message.parts) else message)
    return _with(draft, out), tuple(changes)


def _as_text(part: Part, names: dict[str, str]) -> Part:
    if isinstance(part, ToolCall) and part.id in names:
        args = part.arguments if isinstance(part.arguments, str) else json.dumps(
            thaw(part.arguments), ensure_ascii=False, sort_keys=True)
        return Text(f"[server tool {part.name} was called with {args}]")
    if isinstance(part, ToolResult) and part.call_id in names:
        return Text(f"[result of server tool {names[part.call_id]}: {part.text}]")
    return part

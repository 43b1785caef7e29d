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


def drop_invalid_reasoning_item_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes reasoning items whose id the target did not issue (rule reasoning-item-id-invalid):
    the id is removed and the item is sent by value.

    Rejected by: OpenAI Responses "Invalid 'input[15].id': 'reasoning_15'. Expected an ID
    that begins with 'rs'." (diegosouzapw/OmniRoute#224); Wei-Shaw/sub2api#5413 strips them.

    Before: reasoning {id: reasoning_15, summary: …}
    After:  reasoning {summary: …}
    Lossless: an id the vendor never issued refers to nothing it stored.
    """
    pattern = profile.param("reasoning-item-id-invalid", "pattern", "^rs")
    return _drop_item_ids(draft, Thinking, str(pattern), "drop_invalid_reasoning_item_ids",
                          "drop-reasoning-item-id", "reasoning item")


def drop_invalid_call_item_ids(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes function_call items whose item id the target did not issue (rule
    call-item-id-invalid): the item id is removed; the call keeps its call_id, which pairs
    it with its output. A client that keeps only the call id writes it in both fields, and
    a gateway may write its own `item_…` ids.

    Rejected by: OpenAI Responses "Invalid 'input[8].id': 'call_Ev2hX2kjNoJ44sB54MiNy8iD'.
    Expected an ID that begins with 'fc'." (gethnet/litellm-connector-copilot#54); the same
    for 'item_…' ids (Wei-Shaw/sub2api#3785). nodetool-ai/nodetool#4252 leaves the id out.

    Before: function_call {id: call_1, call_id: call_1, name: get_weather, …}
    After:  function_call {call_id: call_1, name: get_weather, …}
    Lossless: an id the vendor never issued refers to nothing it stored.
    """
    pattern = profile.param("call-item-id-invalid", "pattern", "^fc")
    return _drop_item_ids(draft, ToolCall, str(pattern), "drop_invalid_call_item_ids",
                          "drop-call-item-id", "function_call item")


def _drop_item_ids(draft: Draft, kind: type[Thinking] | type[ToolCall], pattern: str,
                   pass_name: str, code: str, label: str) -> tuple[Draft, tuple[Change, ...]]:
    """Every `kind` part whose item id (extras `id`) `pattern` does not find, without it."""
    found = re.compile(pattern)
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        for part in message.parts:  # a loop, not any(...): this runs for every message
            if isinstance(part, kind) and part.extras is not EMPTY:
                break
        else:
            out.append(message)  # no such item with fields: nothing to read
            continue
        parts = list(message.parts)
        for j, part in enumerate(parts):
            item_id = part.extras.get("id") if isinstance(part, kind) else None
            if isinstance(item_id, str) and not found.search(item_id):
                parts[j] = replace(part, extras=part.extras.without("id"))
                changes.append(Change(pass_name, code, f"removed {label} id {item_id!r} (not "
                                      "issued by the target)", f"messages[{i}].parts[{j}]",
                                      lossless=True))
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

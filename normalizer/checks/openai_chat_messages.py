"""Detectors for message shape, role order and reasoning in an OpenAI Chat
body. What a vendor allows (roles, fields, models) comes from the rule's params."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from normalizer.array_items import bare_arrays
from normalizer.check import Finding
from normalizer.checks.openai_chat_walk import (
    calls,
    declared_tools,
    entries,
    param,
    role,
    roles,
    with_calls,
)
from normalizer.options import thinking_on_by_default
from normalizer.profiles import Rule
from normalizer.schema_walk import node_at

Body = Mapping[str, Any]
_MISSING = object()


def _empty_kind(msg: Mapping[str, Any]) -> str | None:
    content = msg.get("content", _MISSING)
    if content is _MISSING:
        return "missing"
    if content is None:
        return "null"
    if content == "":
        return "empty_string"
    if isinstance(content, Sequence) and not isinstance(content, str) and not content:
        return "empty_list"
    return None


def empty_content(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Messages of params.roles (default assistant) whose content is empty in one of the
    ways params.empty lists (null, missing, empty_string, empty_list; default null).
    An assistant message carrying tool calls is never empty."""
    wanted = set(param(rule.params, "roles", ("assistant",)))
    kinds = set(param(rule.params, "empty", ("null",)))
    msgs, table = entries(body), calls(body)
    for i, now in enumerate(roles(body)):
        if now not in wanted or (now == "assistant" and table.has(i)):
            continue
        if _empty_kind(msgs[i]) in kinds:
            yield Finding(location=f"messages[{i}].content", fields={"index": i, "role": now})


def unknown_message_field(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Fields not in params.allowed[role]. Roles the params do not list are not checked."""
    allowed: Mapping[str, Sequence[str]] = param(rule.params, "allowed", {})
    msgs = entries(body)
    for i, now in enumerate(roles(body)):
        known = allowed.get(now or "") if msgs[i] is not None else None
        if known is None:
            continue
        for name in msgs[i]:
            if name not in known:
                yield Finding(location=f"messages[{i}].{name}",
                              fields={"index": i, "role": now, "field": name})


def empty_tool_calls(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Assistant messages whose `tool_calls` is an empty list (as the openai SDK's own
    message objects carried it, sent back)."""
    msgs = entries(body)
    for i, now in enumerate(roles(body)):
        if now == "assistant" and msgs[i] is not None and msgs[i].get("tool_calls") == []:
            yield Finding(location=f"messages[{i}].tool_calls", fields={"index": i})


def too_many_tool_calls(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Assistant messages whose `tool_calls` list is longer than params.max_items (a turn
    of that many parallel calls, as a model made it)."""
    limit = int(rule.params["max_items"])
    msgs = entries(body)
    for i in with_calls(body):
        found = msgs[i].get("tool_calls")
        if isinstance(found, list) and len(found) > limit:
            yield Finding(location=f"messages[{i}].tool_calls",
                          fields={"index": i, "length": len(found), "max_items": limit})


def unknown_tool_field(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Fields of a tool declaration (params.allowed.tool) or of its function object
    (params.allowed.function) the vendor does not know."""
    allowed: Mapping[str, Sequence[str]] = param(rule.params, "allowed", {})
    for k, decl in declared_tools(body):
        for name in decl:
            if "tool" in allowed and name not in allowed["tool"]:
                yield _tool_field(f"tools[{k}].{name}", f"tools.{k}.{name}", k, name)
        function = decl.get("function")
        if "function" not in allowed or not isinstance(function, Mapping):
            continue
        for name in function:
            if name not in allowed["function"]:
                yield _tool_field(f"tools[{k}].function.{name}", f"tools.{k}.function.{name}",
                                  k, name)


def tool_description_too_long(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A declared function's description longer than params.max_length characters (code
    points: the unit the vendor counts in is not stated)."""
    max_length = int(rule.params["max_length"])
    for k, decl in declared_tools(body):
        function = decl.get("function")
        text = function.get("description") if isinstance(function, Mapping) else None
        if isinstance(text, str) and len(text) > max_length:
            path = f"tools[{k}].function.description"
            yield Finding(location=path, fields={"index": k, "param": path,
                                                 "length": len(text),
                                                 "max_length": max_length})


def too_many_tools(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A `tools` list longer than params.max_items (an app that declares every tool of its
    MCP servers); counted as sent, whatever each entry holds."""
    limit = int(rule.params["max_items"])
    raw = body.get("tools") if isinstance(body, Mapping) else None
    if isinstance(raw, list) and len(raw) > limit:
        yield Finding(location="tools", fields={"length": len(raw), "max_items": limit})


def array_schema_missing_items(body: Body, rule: Rule, model: str | None
                               ) -> Iterator[Finding]:
    """An array schema without `items` in a declared function's parameters, one finding per
    array. The vendor names the array by its `context`, the path of keys from `parameters`
    as a Python tuple; for a type list holding "array" it adds `'type'` and the list index
    (one observation: tidewave-ai/tidewave_phoenix#224)."""
    for k, name, schema in _parameters(body):
        for path in bare_arrays(schema):
            kind = node_at(schema, path).get("type")
            steps = [str(p) for p in path]
            if isinstance(kind, list):
                steps += ["type", str([str(t).lower() for t in kind].index("array"))]
            yield Finding(location=f"tools[{k}].function.parameters", fields={
                "index": k, "name": name, "context": repr(tuple(steps))})


def _parameters(body: Body) -> Iterator[tuple[int, Any, Mapping[str, Any]]]:
    """(index, name, parameters) of every declared function that sends a parameters
    object."""
    for k, decl in declared_tools(body):
        function = decl.get("function")
        if isinstance(function, Mapping) and isinstance(function.get("parameters"), Mapping):
            yield k, function.get("name"), function["parameters"]


def _tool_field(location: str, dotted: str, index: int, name: str) -> Finding:
    return Finding(location=location, fields={"index": index, "field": name, "param": dotted})


def empty_tools(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A `tools` field that is an empty list (a client that sends its tool list whatever
    its length)."""
    if isinstance(body, Mapping) and body.get("tools") == []:
        yield Finding(location="tools", fields={})


def role_order(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A message whose role is not in params.allowed_after[previous role]. Pairs with a
    role the params do not list are left alone."""
    table: Mapping[str, Sequence[str]] = param(rule.params, "allowed_after", {})
    listed = set().union(*table.values())  # once, not per message
    kinds = roles(body)
    for i in range(1, len(kinds)):
        before, now = kinds[i - 1], kinds[i]
        if before in table and now in listed and now not in table[before]:
            yield Finding(location=f"messages[{i}].role",
                          fields={"index": i, "role": now, "previous": before})


def first_message_role(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A first message whose role is not in params.allowed; with params.single_only, only
    a conversation of one message is checked (as mistral-common does)."""
    msgs = entries(body)
    if not msgs or (param(rule.params, "single_only", False) and len(msgs) != 1):
        return
    now = role(msgs[0])
    if now is not None and now not in set(param(rule.params, "allowed", ("user", "system"))):
        yield Finding(location="messages[0].role", fields={"index": 0, "role": now})


def conversation_empty(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`conversation-empty`: `messages` absent or an empty list (a system message, on this
    wire, is a message: a history of one fills the list)."""
    if isinstance(body, Mapping) and body.get("messages") in (None, []):
        yield Finding(location="messages", fields={})


def user_message_missing(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """`user-message-missing`: no message of role user (a system prompt alone, or a history
    that opens with the assistant and has tool results only after it)."""
    if isinstance(body, Mapping) and "user" not in roles(body):
        yield Finding(location="messages", fields={})


def last_message_role(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """The last message's role not in params.allowed, unless it is an assistant message
    with `prefix: true` and params.prefix_ok. Checked only from params.min_messages on."""
    msgs = entries(body)
    if not msgs or len(msgs) < int(param(rule.params, "min_messages", 1)):
        return
    last = msgs[-1]
    now = role(last)
    if now is None or now in set(param(rule.params, "allowed", ())):
        return
    prefixed = last is not None and last.get("prefix") is True
    if now == "assistant" and prefixed and bool(param(rule.params, "prefix_ok", False)):
        return
    index = len(msgs) - 1
    yield Finding(location=f"messages[{index}].role", fields={"index": index, "role": now})


def reasoning_content_required(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Thinking mode on (body `thinking.type`, else params.default_on_model matches the
    model): every assistant message with tool calls must carry params.field as a string."""
    if not thinking_on_by_default(body, rule.params, model):
        return
    name = str(param(rule.params, "field", "reasoning_content"))
    msgs = entries(body)
    for i in with_calls(body):
        if not isinstance(msgs[i].get(name), str):
            yield Finding(location=f"messages[{i}]", fields={"index": i, "field": name})


def system_message_placement(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A system message (a role in params.roles, default system and developer) after the
    first message of another role: some servers take instructions only at the start."""
    leading = set(param(rule.params, "roles", ("system", "developer")))
    started = False
    msgs = entries(body)
    for i, now in enumerate(roles(body)):
        if msgs[i] is None:
            continue
        if now not in leading:
            started = True
        elif started:
            yield Finding(location=f"messages[{i}].role", fields={"index": i, "role": now})


def message_name_invalid(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """A message's participant `name` that does not match params.pattern (tool messages'
    `name` is the function's, left to the tool-name rules)."""
    match = re.compile(str(param(rule.params, "pattern", r"^[a-zA-Z0-9_-]+$"))).fullmatch
    for i, msg in enumerate(entries(body)):
        if msg is None or "name" not in msg or role(msg) == "tool":  # most messages: no name
            continue
        name = msg["name"]
        if isinstance(name, str) and match(name) is None:
            where = f"messages[{i}].name"
            yield Finding(location=where, fields={"param": where, "name": name,
                                                  "pattern": rule.params.get("pattern")})


def role_unsupported_by_model(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Each message whose role is in params.roles (system, developer), for a model the rule
    names; nothing where the model is not known (every other model takes them)."""
    if model is None or not rule.applies_to(model, when_unknown=False):
        return
    refused = frozenset(param(rule.params, "roles", ("system", "developer")))
    for i, now in enumerate(roles(body)):
        if now in refused:
            yield Finding(location=f"messages[{i}].role", fields={"index": i, "role": now})


def role_alternation(body: Body, rule: Rule, model: str | None) -> Iterator[Finding]:
    """Each message whose role is its neighbour's, for roles in params.roles (user,
    assistant: a tool or system message between them breaks no rule), for a model the rule
    names; nothing where the model is not known."""
    if model is None or not rule.applies_to(model, when_unknown=False):
        return
    alternating = frozenset(param(rule.params, "roles", ("user", "assistant")))
    found = roles(body)
    for i in range(1, len(found)):
        if found[i] in alternating and found[i] == found[i - 1]:
            yield Finding(location=f"messages[{i}]", fields={"first": i - 1, "second": i})

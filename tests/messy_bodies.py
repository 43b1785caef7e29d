"""Small, messy request bodies from `random.Random(seed)`, one generator per protocol, for
pinning what check() finds on shapes the benchmark's histories never hold: ids from a tiny
pool (so they collide), missing and empty ids, roles in every order, blank and null
content, bad names, thinking in odd places, server tool ids. Mostly on the skeleton (a
few are off it: check() must keep refusing those)."""

from __future__ import annotations

import random
from typing import Any

IDS = ("a", "b", "call_1", "abcdefghi", "x" * 45, "bad id!", "srvtoolu_1", "fc_1", "rs_1", "")
NAMES = ("get_weather", "f", "bad name!", "n" * 70, "")
ARGS = ("{}", "", " ", "[1]", '{"city": "Oslo"}', "nope")
TEXTS = ("", " ", "hi", "\n")
SIGNATURE = "EqQBCkgIARABGAIiQL" + "A" * 40  # base64 of a 0x12-led signature shape


def _maybe(rng: random.Random, value: Any, p: float = 0.5) -> dict[str, Any]:
    return {} if rng.random() >= p else value


def _tools(rng: random.Random, protocol: str) -> dict[str, Any]:
    name = rng.choice(NAMES)
    params = rng.choice(({"type": "object"}, {"type": "object", "properties": {
        "a": {"type": "string", "format": "uuid"}}, "additionalProperties": False}))
    tool = {
        "openai_chat": {"type": "function", "function": {"name": name, "parameters": params,
                                                         **_maybe(rng, {"strict": True})}},
        "openai_responses": {"type": "function", "name": name, "parameters": params,
                             **_maybe(rng, {"strict": True})},
        "anthropic": {"name": name, "input_schema": params},
        "gemini": {"functionDeclarations": [{"name": name, "parameters": params}]},
    }[protocol]
    return _maybe(rng, {"tools": [tool]}, 0.7)


def chat_message(rng: random.Random) -> Any:
    role = rng.choice(("user", "assistant", "assistant", "tool", "tool", "system", "developer"))
    message: dict[str, Any] = {"role": role}
    message.update(_maybe(rng, {"content": rng.choice((*TEXTS, None, [], [
        {"type": "text", "text": rng.choice(TEXTS)}]))}, 0.8))
    if role == "assistant" and rng.random() < 0.6:
        message["tool_calls"] = [{**_maybe(rng, {"id": rng.choice(IDS)}, 0.9), "type": "function",
                                  "function": {"name": rng.choice(NAMES),
                                               "arguments": rng.choice(ARGS)},
                                  **_maybe(rng, {"call_id": "z"}, 0.1)}
                                 for _ in range(rng.randint(0, 3))]
    if role == "tool":
        message.update(_maybe(rng, {"tool_call_id": rng.choice(IDS)}, 0.9))
    for extra in ("name", "prefix", "reasoning_content", "refusal"):
        message.update(_maybe(rng, {extra: True if extra == "prefix" else "r"}, 0.05))
    return message


def anthropic_block(rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(("text", "tool_use", "tool_use", "tool_result", "tool_result",
                       "thinking", "redacted_thinking"))
    return {
        "text": lambda: {"type": "text", "text": rng.choice(TEXTS)},
        "tool_use": lambda: {"type": "tool_use", "id": rng.choice(IDS), "name": rng.choice(NAMES),
                             "input": rng.choice(({}, {"a": 1}, "cut"))},
        "tool_result": lambda: {"type": "tool_result", "tool_use_id": rng.choice(IDS),
                                "content": rng.choice(("ok", [], [{"type": "text", "text": ""}]))},
        "thinking": lambda: {"type": "thinking", "thinking": "t",
                             **_maybe(rng, {"signature": rng.choice((SIGNATURE, "abc"))}, 0.8)},
        "redacted_thinking": lambda: {"type": "redacted_thinking", "data": "d"},
    }[kind]()


def anthropic_message(rng: random.Random) -> Any:
    role = rng.choice(("user", "assistant", "user", "assistant", "system"))
    content: Any = rng.choice(TEXTS) if rng.random() < 0.2 else [
        anthropic_block(rng) for _ in range(rng.randint(0, 3))]
    return {"role": role, "content": content}


def responses_item(rng: random.Random) -> Any:
    kind = rng.choice(("message", "bare", "function_call", "function_call", "output",
                       "output", "reasoning"))
    if kind in ("message", "bare"):
        role = rng.choice(("user", "assistant", "system", "developer"))
        part = {"type": rng.choice(("input_text", "output_text")), "text": rng.choice(TEXTS)}
        item = {"role": role, "content": rng.choice((rng.choice(TEXTS), [part]))}
        return {"type": "message", **item} if kind == "message" else item
    if kind == "function_call":
        return {"type": "function_call", "call_id": rng.choice(IDS), "name": rng.choice(NAMES),
                "arguments": rng.choice(ARGS), **_maybe(rng, {"id": rng.choice(IDS)})}
    if kind == "output":
        return {"type": "function_call_output", "call_id": rng.choice(IDS), "output": "ok"}
    return {"type": "reasoning", **_maybe(rng, {"id": rng.choice(IDS)}, 0.8), "summary": [],
            **_maybe(rng, {"encrypted_content": "e"})}


def gemini_part(rng: random.Random) -> dict[str, Any]:
    ident = _maybe(rng, {"id": rng.choice(IDS)}, 0.3)
    return rng.choice((
        {"text": rng.choice(TEXTS)},
        {"text": "t", "thought": True},
        {"functionCall": {"name": rng.choice(NAMES), "args": rng.choice(({}, {"a": 1})),
                          **ident}, **_maybe(rng, {"thoughtSignature": "c2ln"})},
        {"functionResponse": {"name": rng.choice(NAMES), "response": {"r": 1}, **ident}},
    ))


def gemini_content(rng: random.Random) -> Any:
    role = rng.choice(("user", "model", "model", "function", "system"))
    return {**_maybe(rng, {"role": role}, 0.95),
            "parts": [gemini_part(rng) for _ in range(rng.randint(0, 3))]}


def body(protocol: str, rng: random.Random, size: int = 12) -> dict[str, Any]:
    """One messy body of `size` history entries for `protocol`."""
    if protocol == "openai_chat":
        out: dict[str, Any] = {"model": rng.choice(("gpt-4.1", "deepseek-reasoner", "x")),
                               "messages": [chat_message(rng) for _ in range(size)]}
        out.update(_maybe(rng, {"tool_choice": rng.choice(("auto", "none"))}, 0.2))
        out.update(_maybe(rng, {"thinking": {"type": rng.choice(("enabled", "disabled"))}}, 0.2))
    elif protocol == "anthropic":
        out = {"model": "claude-sonnet-4-5", "max_tokens": 64,
               "messages": [anthropic_message(rng) for _ in range(size)]}
        out.update(_maybe(rng, {"thinking": {"type": rng.choice(("enabled", "disabled"))}}))
    elif protocol == "openai_responses":
        out = {"model": "gpt-5", "input": [responses_item(rng) for _ in range(size)]}
        out.update(_maybe(rng, {"store": False}, 0.3))
    else:
        out = {"contents": [gemini_content(rng) for _ in range(size)]}
        out.update(_maybe(rng, {"generationConfig": {"responseMimeType": "application/json"}},
                          0.1))
    out.update(_tools(rng, protocol))
    if rng.random() < 0.03:  # off the skeleton: a history entry that is not an object
        out[next(iter(k for k in out if k in ("messages", "input", "contents")))].append(3)
    return out

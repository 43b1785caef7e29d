"""split_large_call_turns (rule too-many-tool-calls): a turn of more parallel calls than the
target takes in one message (OpenAI: 128, openai/openai-dotnet#317) is sent as several call
turns, each answered by its own calls' results; nothing is dropped."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, normalize_request, parse, render
from normalizer.model import History, Message, Opaque, Text, Thinking, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes.call_turns import split_large_call_turns
from normalizer.profiles import Profile, profile_from_mapping


def profile(max_items: int) -> Profile:
    return profile_from_mapping({"provider": "test", "protocol": "openai_chat", "rules": [
        {"id": "too-many-tool-calls", "forbids": "x", "status": 400, "message": "unknown",
         "source": "test", "last_verified": "2026-11-27", "confidence": "low",
         "params": {"max_items": max_items}}]})


def calls(n: int) -> tuple[ToolCall, ...]:
    return tuple(ToolCall("get_weather", {"city": f"c{k}"}, f"call_{k}") for k in range(n))


def split(history: History, limit: int) -> tuple[History, tuple[Any, ...]]:
    out, changes = split_large_call_turns(Draft(history), profile(limit), Policy())
    return out.history, changes


def test_a_turn_over_the_limit_becomes_turns_each_answered_by_its_own_results() -> None:
    answer = Message("tool", tuple(ToolResult(f"call_{k}", f"{k}C") for k in (6, 0, 3, 5, 1)))
    other = Message("tool", (ToolResult("call_2", "2C"), ToolResult("call_4", "4C")))
    turn = Message("assistant", (Thinking("Many cities."), Text("Checking."), *calls(7)),
                   origin="openai")
    history = History((Message("user", (Text("Weather?"),)), turn, answer, other,
                       Message("user", (Text("Thanks."),))))
    out, changes = split(history, 3)
    shapes = [(m.role, [p.id if isinstance(p, ToolCall) else
                        p.call_id if isinstance(p, ToolResult) else type(p).__name__
                        for p in m.parts]) for m in out.messages]
    assert shapes == [
        ("user", ["Text"]),
        ("assistant", ["Thinking", "Text", "call_0", "call_1", "call_2"]),
        ("tool", ["call_0", "call_1"]), ("tool", ["call_2"]),  # each tool message's order
        ("assistant", ["call_3", "call_4", "call_5"]),
        ("tool", ["call_3", "call_5"]), ("tool", ["call_4"]),
        ("assistant", ["call_6"]), ("tool", ["call_6"]),
        ("user", ["Text"])]
    assert all(m.origin == "openai" for m in out.messages if m.role == "assistant")
    assert [(c.code, c.where, c.lossless) for c in changes] == [
        ("split-call-turn", "messages[1]", True)]
    assert "7 tool calls into 3 turns of at most 3" in changes[0].what
    assert split(out, 3) == (out, ())  # idempotent


def test_turns_within_the_limit_and_other_profiles_are_left() -> None:
    history = History((Message("user", (Text("Weather?"),)),
                       Message("assistant", calls(3)),
                       Message("tool", tuple(ToolResult(f"call_{k}", "x") for k in range(3)))))
    assert split(history, 3) == (history, ())
    out, changes = split_large_call_turns(Draft(history), profile_from_mapping(
        {"provider": "test", "protocol": "openai_chat", "rules": []}), Policy())
    assert (out.history, changes) == (history, ())


def test_a_call_kept_verbatim_counts_and_its_result_follows_it() -> None:
    custom = Opaque("openai_chat", "custom", {"type": "custom", "id": "cu_1",
                                              "custom": {"name": "grep", "input": "x"}},
                    slot="call")
    history = History((Message("user", (Text("Go."),)),
                       Message("assistant", (*calls(2), custom)),
                       Message("tool", (ToolResult("cu_1", "found"), ToolResult("call_0", "a"),
                                        ToolResult("call_1", "b"), ToolResult("zz", "?")))))
    out, _ = split(history, 2)
    assert [m.parts for m in out.messages[1:]] == [
        calls(2), (ToolResult("call_0", "a"), ToolResult("call_1", "b"), ToolResult("zz", "?")),
        (custom,), (ToolResult("cu_1", "found"),)]  # a result of no call stays with the first


def test_openai_takes_two_hundred_parallel_calls_as_two_turns() -> None:
    """The built-in profile, from a Responses history of 200 parallel calls (the answer
    openai/openai-dotnet#317 pasted): refused raw, accepted split, nothing lost."""
    items: list[dict[str, Any]] = [{"role": "user", "content": "Weather in 200 cities?"}]
    items += [{"type": "function_call", "call_id": f"call_{k}", "name": "get_weather",
               "arguments": f'{{"city":"c{k}"}}'} for k in range(200)]
    items += [{"type": "function_call_output", "call_id": f"call_{k}", "output": f"{k}C"}
              for k in range(200)]
    body = {"model": "gpt-4.1-mini", "input": items}
    history = parse(body, "openai_responses")
    assert [v.rule for v in check(render(history, "openai_chat"), "openai")] == [
        "too-many-tool-calls"]
    out = normalize(history, "openai")
    assert [c.code for c in out.changes] == ["split-call-turn"]
    sent = out.render()
    assert check(sent, "openai") == ()
    turns = [len(m["tool_calls"]) for m in sent["messages"] if m.get("tool_calls")]
    assert turns == [128, 72]
    answered = [m["tool_call_id"] for m in sent["messages"] if m["role"] == "tool"]
    assert answered == [f"call_{k}" for k in range(200)]
    assert normalize(out.history, "openai").changes == ()
    assert normalize_request(sent, "openai_chat", "openai").changes == ()

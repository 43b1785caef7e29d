"""drop_tools_over_limit (rule too-many-tools): a request declaring more tools than the
target takes (OpenAI and Groq: 128, vishalmysore/Tools4AI#16, HunorLaczko/ha-groq-cloud-api#25;
Gemini: 512 function declarations in one `tools` entry, google-gemini/gemini-cli#19083)
keeps the tools the tool choice names and the history calls, then the first others, and
reports each tool it leaves out."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, normalize_request, render
from normalizer.json_values import JsonMap
from normalizer.model import History, Message, Text, ToolCall, ToolResult, ToolSpec
from normalizer.passes import Draft, Policy
from normalizer.passes.tool_count import drop_tools_over_limit
from normalizer.profiles import Profile, profile_from_mapping


def profile(max_items: int, protocol: str = "openai_chat") -> Profile:
    return profile_from_mapping({"provider": "test", "protocol": protocol, "rules": [
        {"id": "too-many-tools", "forbids": "x", "status": 400, "message": "unknown",
         "source": "test", "last_verified": "2026-11-27", "confidence": "low",
         "params": {"max_items": max_items}}]})


def tools(n: int) -> tuple[ToolSpec, ...]:
    return tuple(ToolSpec(f"tool_{k:03d}", f"Tool {k}.", {"type": "object", "properties": {}})
                 for k in range(n))


def chat(*called: str) -> History:
    """A user turn, one call turn per name in `called` (each answered), a user turn."""
    messages = [Message("user", (Text("Go."),))]
    for k, name in enumerate(called):
        messages += [Message("assistant", (ToolCall(name, {}, f"call_{k}"),)),
                     Message("tool", (ToolResult(f"call_{k}", "done"),))]
    return History((*messages, Message("user", (Text("Next."),))))


def drop(history: History, declared: tuple[ToolSpec, ...], limit: int,
         options: dict[str, Any] | None = None) -> tuple[Draft, tuple[Any, ...]]:
    draft = Draft(history, tools=declared, options=JsonMap(options or {}))
    return drop_tools_over_limit(draft, profile(limit), Policy())


def test_the_named_and_called_tools_are_kept_then_the_first_others_in_declared_order() -> None:
    declared = tools(8)
    out, changes = drop(chat("tool_006", "tool_007", "tool_006"), declared, 5,
                        {"tool_choice": {"type": "function", "function": {"name": "tool_005"}}})
    assert [t.name for t in out.tools] == ["tool_000", "tool_001", "tool_005", "tool_006",
                                           "tool_007"]
    assert [(c.code, c.where, c.lossless) for c in changes] == [
        ("drop-tool-over-limit", f"tools.tool_{k:03d}", False) for k in (2, 3, 4)]
    assert changes[0].what.startswith("left out tool 'tool_002' (the target takes at most 5 "
                                      "tools and 8 were declared: kept the 3 that the tool "
                                      "choice names or the history calls, and the first 2 ")
    assert out.history is not None and drop(out.history, out.tools, 5)[1] == ()  # idempotent


def test_the_latest_calls_win_when_the_history_calls_more_tools_than_the_limit() -> None:
    out, changes = drop(chat("tool_000", "tool_001", "tool_002", "tool_003"), tools(6), 2)
    assert [t.name for t in out.tools] == ["tool_002", "tool_003"]
    assert "kept the 2 that" in changes[0].what and "the first 0 others" in changes[0].what
    assert len(changes) == 4


def test_a_list_within_the_limit_and_a_profile_without_the_rule_are_left() -> None:
    history = chat("tool_001")
    assert drop(history, tools(5), 5)[1] == ()
    draft = Draft(history, tools=tools(300))
    none = profile_from_mapping({"provider": "test", "protocol": "openai_chat", "rules": []})
    assert drop_tools_over_limit(draft, none, Policy()) == (draft, ())


def test_normalize_leaves_out_tools_for_openai_groq_and_gemini_and_check_agrees() -> None:
    history, declared = chat("tool_599"), tools(600)
    for provider, limit in (("openai", 128), ("groq", 128), ("gemini", 512)):
        raw = render(history, "gemini" if provider == "gemini" else "openai_chat",
                     tools=declared)
        assert [v.rule for v in check(raw, provider)] == ["too-many-tools"], provider
        out = normalize(history, provider, tools=declared)
        assert len(out.tools) == limit and out.tools[-1].name == "tool_599", provider
        assert len([c for c in out.changes if c.code == "drop-tool-over-limit"]) == 600 - limit
        assert check(out.render(), provider) == (), provider
    kept = normalize(history, "anthropic", tools=declared)  # no limit known: all sent
    assert len(kept.tools) == 600


def test_check_quotes_the_vendors_texts() -> None:
    raw = render(chat(), "openai_chat", tools=tools(129))
    (found,) = check(raw, "openai")
    assert (found.rule, found.location) == ("too-many-tools", "tools")
    assert found.message == ("Invalid 'tools': array too long. Expected an array with maximum "
                             "length 128, but got an array with length 129 instead.")
    (found,) = check(raw, "groq")
    assert found.message == "'tools' : maximum number of items is 128"
    body = render(chat(), "gemini", tools=tools(513))
    body["tools"] = [{"functionDeclarations": []}, *body["tools"]]  # each entry alone
    (found,) = check(body, "gemini")
    assert found.location == "tools[1].function_declarations"
    assert found.message == ("The GenerateContentRequest proto is invalid:\n  * tools[1]."
                             "function_declarations: [FIELD_INVALID] At most 512 function "
                             "declarations can be specified.")


def test_normalize_request_cuts_a_body_of_too_many_tools() -> None:
    body = render(chat("tool_140"), "openai_chat", tools=tools(150))
    body["tool_choice"] = {"type": "function", "function": {"name": "tool_149"}}
    out = normalize_request(body, "openai_chat", "openai")
    names = [t["function"]["name"] for t in out.body["tools"]]
    assert len(names) == 128 and names[-2:] == ["tool_140", "tool_149"]
    assert out.body["tool_choice"] == body["tool_choice"]
    assert check(out.body, "openai") == ()

"""GPT-5.4 and later on Chat Completions take function tools only without reasoning (rule
reasoning-effort-with-tools, pass reason_at_none_beside_tools): "Function tools with
reasoning_effort are not supported for gpt-5.4 in /v1/chat/completions. Please use
/v1/responses instead." (pipecat-ai/pipecat#4043; braintrustdata/lingua's recorded gpt-5.4-mini
snapshot), and GPT-5.6, which reasons at medium by default, refuses tools even without an
effort (laurent22/joplin#16451)."""

from __future__ import annotations

from typing import Any

import openai
import pytest
import sdk_calls as calls

from conformance.emulator import Emulator
from normalizer import check, normalize_request

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "parameters": {
        "type": "object", "properties": {"location": {"type": "string"}},
        "required": ["location"]}}}]
OLD = ("Function tools with reasoning_effort are not supported for {} in "
       "/v1/chat/completions. Please use /v1/responses instead.")
NEW = ("Function tools with reasoning_effort are not supported for {} in "
       "/v1/chat/completions. To use function tools, use /v1/responses or set "
       "reasoning_effort to 'none'.")


def chat(model: str, tools: bool = True, **options: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Weather in Tokyo?"}],
            **({"tools": TOOLS} if tools else {}), **options}


def test_an_effort_beside_function_tools_is_refused_in_the_models_words() -> None:
    for model in ("gpt-5.4", "gpt-5.4-mini", "gpt-5.2"):
        (found,) = check(chat(model, reasoning_effort="low"), "openai")
        assert (found.rule, found.location, found.message) == (
            "reasoning-effort-with-tools", "reasoning_effort", OLD.format(model)), model
        assert found.error == {"type": "invalid_request_error", "param": "reasoning_effort",
                               "code": None}
    # gpt-5.4 reasons at none by default: tools without an effort, or at none, are taken.
    assert check(chat("gpt-5.4"), "openai") == ()
    assert check(chat("gpt-5.4", reasoning_effort="none"), "openai") == ()
    assert check(chat("gpt-5.4", tools=False, reasoning_effort="high"), "openai") == ()
    # GPT-5.6 reasons at medium unless told none: tools alone are refused.
    for model in ("gpt-5.6-terra", "gpt-5.6-luna", "gpt-6-astra"):
        (found,) = check(chat(model), "openai")
        assert found.message == NEW.format(model), model
    assert check(chat("gpt-5.6-terra", reasoning_effort="none"), "openai") == ()
    # A model the rule does not name, and the Responses API, take the pair.
    assert check(chat("o3", reasoning_effort="low"), "openai") == ()
    responses = {"model": "gpt-5.4-mini", "input": "Weather in Tokyo?",
                 "reasoning": {"effort": "medium"},
                 "tools": [{"type": "function", "name": "get_weather",
                            "parameters": TOOLS[0]["function"]["parameters"]}]}
    assert check(responses, "openai_responses") == ()


def test_the_effort_becomes_none_said_as_lossy() -> None:
    sent = normalize_request(chat("gpt-5.4", reasoning_effort="medium"), "openai_chat", "openai",
                             model="gpt-5.4")
    assert (sent.body["reasoning_effort"], sent.body["tools"][0]["function"]["name"]) == (
        "none", "get_weather")
    (said,) = sent.changes
    assert (said.code, said.where, said.lossless) == (
        "reasoning-effort-none-with-tools", "reasoning_effort", False)
    # The model's own effort is the one written down for GPT-5.6.
    sent = normalize_request(chat("gpt-5.6-terra"), "openai_chat", "openai", model="gpt-5.6-terra")
    assert sent.body["reasoning_effort"] == "none"
    assert "(the model default)" in sent.changes[0].what
    # Without tools, or for a model the rule does not name, the effort stays.
    assert normalize_request(chat("gpt-5.4", tools=False, reasoning_effort="high"),
                             "openai_chat", "openai", model="gpt-5.4").changes == ()
    assert normalize_request(chat("o3", reasoning_effort="high"), "openai_chat", "openai",
                             model="o3").body["reasoning_effort"] == "high"


def test_claude_thinking_with_tools_reaches_gpt_5_4_on_chat_and_is_taken(emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, chat("gpt-5.4", reasoning_effort="medium"))
    assert OLD.format("gpt-5.4") in str(refused.value)
    claude = {"model": "claude-sonnet-4-6", "max_tokens": 2048,
              "thinking": {"type": "enabled", "budget_tokens": 1024},
              "messages": [{"role": "user", "content": "Weather in Tokyo?"}],
              "tools": [{"name": "get_weather",
                         "input_schema": TOOLS[0]["function"]["parameters"]}]}
    sent = normalize_request(claude, "anthropic", "openai", model="gpt-5.4")
    assert sent.body["reasoning_effort"] == "none"
    assert "reasoning-effort-none-with-tools" in [c.code for c in sent.changes]
    assert check(sent.body, "openai") == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent.body)) == "ok"

"""Tool options sent where they are refused: OpenAI refuses parallel_tool_calls with no tools
("Invalid value for 'parallel_tool_calls': ...", openai/swarm#30) and, with tools, on its
o1, o3-mini, o3 and o4-mini models ("Unsupported parameter: 'parallel_tool_calls' is not
supported with this model.", evalstate/fast-agent#279), as Azure does for o3-mini
(microsoft/semantic-kernel#10365); xAI refuses a tool_choice with no tools on both its wires
("Invalid request content: A tool_choice was set on the request but no tools were
specified.", NousResearch/hermes-agent#104377, chenyme/grok2api#1042); OpenAI and vLLM
refuse an empty tools list (continuedev/continue#3370, vllm-project/vllm#39780; Azure,
microsoft/call-center-ai#399). Checked, repaired, and sent through the official SDK to the
emulators, raw and normalized."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize_request

WEATHER = {"type": "function", "function": {
    "name": "get_weather", "parameters": {"type": "object",
                                          "properties": {"city": {"type": "string"}}}}}
WITHOUT_TOOLS = ("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only "
                 "allowed when 'tools' are specified.")
UNSUPPORTED = "Unsupported parameter: 'parallel_tool_calls' is not supported with this model."
XAI_CHOICE = ("Invalid request content: A tool_choice was set on the request but no tools "
              "were specified.")


def _chat(model: str, **fields: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Weather in Rome?"}],
            **fields}


@pytest.mark.parametrize("value", [True, False])
def test_openai_refuses_parallel_tool_calls_without_tools_and_normalize_drops_it(
        value: bool) -> None:
    body = _chat("gpt-4o", parallel_tool_calls=value)
    (found,) = check(body, "openai")
    assert (found.rule, found.location, found.message) == (
        "parallel-tool-calls-without-tools", "parallel_tool_calls", WITHOUT_TOOLS)
    fixed = normalize_request(body, "openai_chat", "openai")
    assert "parallel_tool_calls" not in fixed.body
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("drop-parallel-tool-calls-without-tools", True)]
    assert check(_chat("gpt-4o", tools=[WEATHER], parallel_tool_calls=value), "openai") == ()
    assert check(_chat("gpt-4o", parallel_tool_calls=None), "openai") == ()


def test_the_summary_call_loses_both_tool_options_and_keeps_its_history() -> None:
    history = [{"role": "user", "content": "Weather in Rome?"},
               {"role": "assistant", "content": None, "tool_calls": [
                   {"id": "call_1", "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'}}]},
               {"role": "tool", "tool_call_id": "call_1", "content": "18C"},
               {"role": "user", "content": "Summarize the conversation."}]
    body = {"model": "gpt-4.1-mini", "messages": history, "tool_choice": "auto",
            "parallel_tool_calls": False}
    assert [v.rule for v in check(body, "openai")] == [
        "tool-choice-without-tools", "parallel-tool-calls-without-tools"]
    fixed = normalize_request(body, "openai_chat", "openai")
    assert fixed.body["messages"] == history
    assert {c.code for c in fixed.changes} == {"drop-tool-choice-without-tools",
                                               "drop-parallel-tool-calls-without-tools"}
    assert check(fixed.body, "openai") == ()


@pytest.mark.parametrize("provider, model", [("openai", "o1"), ("openai", "o3-mini"),
                                             ("openai", "o3-2025-04-16"),
                                             ("openai", "o4-mini-2025-04-16"),
                                             ("azure_openai", "o3-mini")])
def test_reasoning_models_refuse_parallel_tool_calls_true_or_false(provider: str,
                                                                   model: str) -> None:
    for value in (True, False):
        body = _chat(model, tools=[WEATHER], parallel_tool_calls=value)
        (found,) = check(body, provider)
        assert (found.rule, found.location, found.message) == (
            "request-parameter-unsupported", "parallel_tool_calls", UNSUPPORTED)
        fixed = normalize_request(body, "openai_chat", provider)
        assert "parallel_tool_calls" not in fixed.body and fixed.body["tools"] == [WEATHER]
        ((code, lossless, what),) = [(c.code, c.lossless, c.what) for c in fixed.changes]
        assert (code, lossless) == ("drop-unsupported-parameter", False)
        assert model in what
        assert check(fixed.body, provider) == ()


@pytest.mark.parametrize("provider, model", [("openai", "gpt-4.1"), ("openai", "gpt-5"),
                                             ("openai", "o1-mini"),
                                             ("azure_openai", "o4-mini")])
def test_models_not_seen_refusing_it_keep_it(provider: str, model: str) -> None:
    body = _chat(model, tools=[WEATHER], parallel_tool_calls=False)
    assert "request-parameter-unsupported" not in {v.rule for v in check(body, provider)}
    fixed = normalize_request(body, "openai_chat", provider)
    assert fixed.body.get("parallel_tool_calls") is False


def test_openai_through_the_sdk_raw_refused_normalized_answered(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    for body, words in ((_chat("gpt-4o", parallel_tool_calls=True), WITHOUT_TOOLS),
                        (_chat("o4-mini", tools=[WEATHER], parallel_tool_calls=False),
                         UNSUPPORTED)):
        assert calls.refused("openai_chat", sdk, body) == calls.SdkError(400, words)
        sent = normalize_request(body, "openai_chat", "openai").body
        assert calls.send("openai_chat", sdk, sent).choices


def test_azure_o3_mini_through_the_sdk(emu: Any) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("azure_openai"))
    body = _chat("o3-mini", tools=[WEATHER], parallel_tool_calls=True)
    assert calls.refused("openai_chat", sdk, body) == calls.SdkError(400, UNSUPPORTED)
    sent = normalize_request(body, "openai_chat", "azure_openai").body
    assert calls.send("openai_chat", sdk, sent).choices


@pytest.mark.parametrize("choice", ["auto", "none", "required"])
def test_xai_chat_refuses_any_tool_choice_without_tools(choice: str, emu: Any) -> None:
    body = _chat("grok-4", tool_choice=choice)
    (found,) = check(body, "xai")
    assert (found.rule, found.message) == ("tool-choice-without-tools", XAI_CHOICE)
    sdk = calls.client("openai_chat", emu.sdk_base_url("xai"))
    assert calls.refused("openai_chat", sdk, body) == calls.SdkError(400, XAI_CHOICE)
    fixed = normalize_request(body, "openai_chat", "xai")
    assert "tool_choice" not in fixed.body
    assert [c.code for c in fixed.changes] == ["drop-tool-choice-without-tools"]
    assert calls.send("openai_chat", sdk, fixed.body).choices
    assert check(_chat("grok-4", tools=[WEATHER], tool_choice=choice), "xai") == ()


def test_xai_responses_refuses_tool_choice_with_an_empty_tools_list(emu: Any) -> None:
    body = {"model": "grok-4.3", "input": [{"role": "user", "content": "Hi"}], "tools": [],
            "tool_choice": "none"}
    (found,) = check(body, "xai_responses")
    assert (found.rule, found.location, found.message) == (
        "tool-choice-without-tools", "tool_choice", XAI_CHOICE)
    sdk = calls.client("openai_responses", emu.sdk_base_url("xai_responses"))
    assert calls.refused("openai_responses", sdk, body) == calls.SdkError(400, XAI_CHOICE)
    fixed = normalize_request(body, "openai_responses", "xai_responses")
    assert "tool_choice" not in fixed.body
    assert calls.text_of("openai_responses",
                         calls.send("openai_responses", sdk, fixed.body)) == "ok"
    # OpenAI's Responses API was not seen refusing the pair.
    assert check(body, "openai_responses") == ()


EMPTY = {"openai": ("Invalid 'tools': empty array. Expected an array with minimum length 1, "
                    "but got an empty array instead."),
         "azure_openai": ("Invalid 'tools': empty array. Expected an array with minimum length "
                          "1, but got an empty array instead."),
         "vllm": ("`tools` must not be an empty array. Either provide at least one tool or "
                  "omit the field entirely.")}


@pytest.mark.parametrize("provider", sorted(EMPTY))
def test_an_empty_tools_list_is_refused_and_left_out(provider: str, emu: Any) -> None:
    body = _chat("gpt-4o", tools=[])
    (found,) = check(body, provider)
    assert (found.rule, found.location, found.message) == ("empty-tools", "tools",
                                                           EMPTY[provider])
    sdk = calls.client("openai_chat", emu.sdk_base_url(provider))
    said = calls.refused("openai_chat", sdk, body)
    assert said.status == 400 and EMPTY[provider] in said.message
    fixed = normalize_request(body, "openai_chat", provider)
    assert "tools" not in fixed.body
    assert [(c.code, c.lossless) for c in fixed.changes] == [("drop-empty-tools", True)]
    assert calls.send("openai_chat", sdk, fixed.body).choices


def test_vllm_took_an_empty_tools_list_before_2026_04_14() -> None:
    body = _chat("Qwen/Qwen2.5-7B-Instruct", tools=[])
    assert check(body, "vllm", on="2026-04-13") == ()
    assert [v.rule for v in check(body, "vllm", on="2026-04-14")] == ["empty-tools"]

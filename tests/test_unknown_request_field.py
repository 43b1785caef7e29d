"""OpenAI's Chat Completions, Groq, Mistral, Anthropic and Gemini refuse a top-level field they do
not know (rule unknown-request-field, pass drop_unknown_request_fields): another vendor's
options (vLLM's top_k, Anthropic-style thinking, Mistral's prompt_mode, OpenAI's
response_format) reach them when an app switches vendors
(xlinx/sd-webui-decadetw-auto-prompt-llm#29, nashsu/llm_wiki#336, musistudio/llms#64,
amrit110/oli#7). Gemini refuses a sampling field beside `contents` (nashsu/llm_wiki#49): the
repair moves it into generationConfig, where Gemini reads it."""

from __future__ import annotations

from typing import Any

import anthropic
import openai
import pytest
import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.clients import gemini_config
from conformance.emulator import Emulator
from normalizer import check, load_profile, normalize
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Name a colour."),)),))
FOREIGN = {"top_k": 40, "thinking": {"type": "disabled"}, "prompt_mode": "reasoning"}


def body(**options: Any) -> dict[str, Any]:
    return {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Name a colour."}],
            **options}


def test_each_unknown_field_is_refused_in_openais_words() -> None:
    found = [(v.rule, v.location, v.message) for v in check(body(**FOREIGN), "openai")]
    assert found == [("unknown-request-field", field,
                      f"Unrecognized request argument supplied: {field}") for field in FOREIGN]


def test_openais_reasoning_models_say_it_in_their_own_words() -> None:
    # o4-mini (teabranch/open-responses-server#41), gpt-5-mini (openai-php/client#645),
    # gpt-5-nano (osaurus-ai/osaurus#649); gpt-4o kept the older words
    # (musistudio/claude-code-router#985).
    for model in ("o4-mini", "gpt-5-mini", "gpt-5-nano", "gpt-5.4"):
        (found,) = check(body(model=model, reasoning={"effort": "low"}), "openai")
        assert found.message == "Unknown parameter: 'reasoning'.", model
        assert dict(found.error) == {"type": "invalid_request_error", "param": "reasoning",
                                     "code": "unknown_parameter"}
    (found,) = check(body(model="gpt-4o", reasoning={"effort": "low"}), "openai")
    assert found.message == "Unrecognized request argument supplied: reasoning"
    assert (found.error["param"], found.error["code"]) == (None, None)
    # The repair is the same for every model, the model known or not.
    for model in ("gpt-5-mini", None):
        result = normalize(QUESTION, "openai", options={"reasoning": {"effort": "low"}},
                           model=model)
        assert [c.code for c in result.changes] == ["drop-unknown-request-field"]


def test_the_fields_openai_knows_pass() -> None:
    known = {"temperature": 0.2, "top_p": 0.9, "seed": 7, "stop": ["\n"], "n": 1,
             "max_completion_tokens": 64, "stream_options": None, "store": False,
             "metadata": {"app": "x"}, "user": "u1", "parallel_tool_calls": True,
             "service_tier": "auto", "prompt_cache_key": "k"}
    # parallel_tool_calls is known, and taken beside tools only (openai/swarm#30).
    tools = [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {}}}}]
    assert check(body(**known, tools=tools), "openai") == ()
    rule = load_profile("openai").rule("unknown-request-field")
    assert rule is not None and {"model", "messages", "tools", "stream"} <= set(
        rule.params["known"])


def test_normalize_leaves_each_out_and_says_so() -> None:
    result = normalize(QUESTION, "openai", options={**FOREIGN, "temperature": 0.2})
    sent = result.render()
    assert set(sent) == {"model", "messages", "temperature"}
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unknown-request-field", field, False) for field in FOREIGN]
    assert check(sent, "openai") == ()


def test_groq_refuses_in_its_own_words_and_knows_its_own_fields() -> None:
    groq = {**body(think=False), "model": "llama-3.3-70b-versatile"}
    assert [(v.rule, v.message) for v in check(groq, "groq")] == [
        ("unknown-request-field", "property 'think' is unsupported")]
    own = {**body(reasoning_format="parsed", search_settings={"include_domains": ["x.org"]},
                  stream_options={"include_usage": True}), "model": "qwen/qwen3-32b"}
    assert check(own, "groq") == ()
    result = normalize(QUESTION, "groq", options={"think": False, "reasoning_format": "hidden"})
    assert [(c.code, c.where) for c in result.changes] == [
        ("drop-unknown-request-field", "think")]
    assert result.render()["reasoning_format"] == "hidden"


def test_mistral_refuses_with_422_and_takes_openais_seed_as_random_seed() -> None:
    sent = {**body(store=False, seed=7), "model": "mistral-small-latest"}
    assert [(v.rule, v.location, v.status, v.message) for v in check(sent, "mistral")] == [
        ("unknown-request-field", field, 422, "Extra inputs are not permitted")
        for field in ("store", "seed")]
    result = normalize(QUESTION, "mistral", options={"store": False, "seed": 7})
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unknown-request-field", "store", False), ("rename-request-field", "seed", True)]
    fixed = result.render()
    assert fixed["random_seed"] == 7 and "seed" not in fixed and "store" not in fixed
    assert check(fixed, "mistral") == ()
    # A random_seed the request sets already stays; the other seed goes.
    both = normalize(QUESTION, "mistral", options={"seed": 7, "random_seed": 3}).render()
    assert both["random_seed"] == 3 and "seed" not in both


def test_mistral_refuses_openais_include_usage_inside_stream_options(emu: Emulator) -> None:
    # Mistral parses stream_options and refuses its include_usage, 422 at ["body",
    # "stream_options", "include_usage"] (avante-corp/avante.nvim#2347,
    # openai/openai-agents-python#442): OpenAI's streaming clients send it by default.
    sent = {**body(stream=True, stream_options={"include_usage": True}),
            "model": "mistral-small-latest"}
    assert [(v.rule, v.location, v.status) for v in check(sent, "mistral")] == [
        ("unknown-request-field", "stream_options.include_usage", 422)]
    assert check(sent, "openai") == ()
    result = normalize(QUESTION, "mistral",
                       options={"stream": True, "stream_options": {"include_usage": True}})
    [change] = result.changes
    assert (change.code, change.where, change.lossless) == (
        "drop-unknown-request-field", "stream_options.include_usage", False)
    assert "and stream_options with it" in change.what
    fixed = result.render()
    assert "stream_options" not in fixed and fixed["stream"] is True
    assert check(fixed, "mistral") == ()
    sdk = calls.client("openai_chat", emu.sdk_base_url("mistral"))
    with pytest.raises(openai.UnprocessableEntityError) as refused:
        calls.send("openai_chat", sdk, {**sent, "stream": False})
    answer = refused.value.response.text
    assert "Extra inputs are not permitted" in answer and "include_usage" in answer


def test_vendors_whose_profiles_say_nothing_keep_the_fields() -> None:
    result = normalize(QUESTION, "vllm", options={"top_k": 40})
    assert result.changes == () and result.render()["top_k"] == 40


def test_openai_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body(top_k=40))
    assert "Unrecognized request argument supplied: top_k" in str(refused.value)
    sent = normalize(QUESTION, "openai", options={"top_k": 40}).render()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, sent)) == "ok"
    with pytest.raises(openai.BadRequestError) as refused:
        calls.send("openai_chat", sdk, body(model="gpt-5-mini", reasoning={"effort": "low"}))
    said = refused.value.body
    assert isinstance(said, dict) and (said["message"], said["param"], said["code"]) == (
        "Unknown parameter: 'reasoning'.", "reasoning", "unknown_parameter")


def claude(**options: Any) -> dict[str, Any]:
    return {"model": "claude-haiku-4-5", "max_tokens": 64,
            "messages": [{"role": "user", "content": "Name a colour."}], **options}


def test_anthropic_refuses_openais_options_and_knows_its_own_and_the_betas() -> None:
    sent = claude(response_format={"type": "json_object"}, reasoning_effort="high", seed=7)
    assert [(v.rule, v.location, v.message) for v in check(sent, "anthropic")] == [
        ("unknown-request-field", field, f"{field}: Extra inputs are not permitted")
        for field in ("response_format", "reasoning_effort", "seed")]
    # Its own fields, the sampling fields 2.14 no longer names, and beta body fields (whose
    # header check() cannot see) all pass.
    own = claude(temperature=0.2, top_k=40, stop_sequences=["###"], metadata={"user_id": "u"},
                 output_config={"effort": "low"}, context_management={"edits": []},
                 service_tier="auto", stream=False)
    assert [v.rule for v in check(own, "anthropic")] == ["effort-unsupported"]


def test_anthropic_normalize_leaves_them_out_and_says_so_with_the_value(emu: Emulator) -> None:
    options = {"response_format": {"type": "json_object"}, "temperature": 0.2}
    result = normalize(QUESTION, "anthropic", options=options)
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unknown-request-field", "response_format", False)]
    assert "{'type': 'json_object'}" in result.changes[0].what
    fixed = result.render()
    assert fixed["temperature"] == 0.2 and "response_format" not in fixed
    sdk = calls.client("anthropic", emu.sdk_base_url("anthropic"))
    with pytest.raises(anthropic.BadRequestError) as refused:
        calls.send("anthropic", sdk, claude(**options))
    assert "response_format: Extra inputs are not permitted" in str(refused.value)
    assert calls.text_of("anthropic", calls.send("anthropic", sdk, fixed)) == "ok"


def gemini(**fields: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Name a colour."}]}], **fields}


def test_gemini_refuses_a_top_level_field_in_its_parsers_words() -> None:
    found = [(v.rule, v.location, v.message)
             for v in check(gemini(temperature=0.1, response_format={}), "gemini")]
    assert found == [("unknown-request-field", field,
                      f'Invalid JSON payload received. Unknown name "{field}": Cannot find field.')
                     for field in ("temperature", "response_format")]
    # Both spellings of its own fields pass.
    own = gemini(generation_config={"temperature": 0.1}, systemInstruction={"parts": []},
                 tool_config={}, safetySettings=[], labels={"a": "b"})
    assert [v.rule for v in check(own, "gemini")] == []
    # A named cache is known too; beside a system instruction it is refused, by its own rule.
    assert [v.rule for v in check(gemini(cachedContent="c/1", labels={"a": "b"}),
                                  "gemini")] == []


def test_gemini_gets_sampling_fields_inside_generation_config() -> None:
    result = normalize(QUESTION, "gemini", options={
        "temperature": 0.1, "max_tokens": 500, "topP": 0.9, "logit_bias": {},
        "generationConfig": {"top_p": 0.5}})
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("nest-request-field", "temperature", True),
        ("nest-request-field", "max_tokens", True),
        ("drop-unknown-request-field", "topP", False),  # generationConfig sets it (top_p)
        ("drop-unknown-request-field", "logit_bias", False)]  # no place for it at all
    fixed = result.render()
    assert fixed["generationConfig"] == {"top_p": 0.5, "temperature": 0.1, "maxOutputTokens": 500}
    assert set(fixed) == {"contents", "generationConfig"}
    assert check(fixed, "gemini") == ()
    # The request's own spelling of the object is kept.
    snake = normalize(QUESTION, "gemini", options={"seed": 7, "generation_config": {}}).render()
    assert snake["generation_config"] == {"seed": 7} and "generationConfig" not in snake


def test_gemini_refuses_the_raw_request_and_takes_the_normalized_one_through_the_sdk(
        emu: Emulator) -> None:
    sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
    with pytest.raises(genai_errors.ClientError) as refused:
        calls.send("gemini", sdk, gemini(temperature=0.1), model="gemini-2.5-flash")
    assert 'Unknown name "temperature": Cannot find field.' in str(refused.value)
    fixed = normalize(QUESTION, "gemini", options={"temperature": 0.1}).render()
    reply = calls.send("gemini", sdk, fixed, model="gemini-2.5-flash")
    assert calls.text_of("gemini", reply) == "ok"


def test_a_gemini_bodys_other_top_level_fields_go_to_the_wire_as_they_are() -> None:
    # google-genai takes a config, not a body: a field the config has no place for used to
    # be left out silently, so a raw request Gemini refuses was sent without its fault.
    config = gemini_config({"contents": [], "model": "gemini-2.5-flash",
                            "generationConfig": {"topK": 3}, "toolConfig": {},
                            "temperature": 0.1, "generation_config": {"seed": 1}})
    assert config == {"topK": 3, "toolConfig": {}, "http_options": {"extra_body": {
        "temperature": 0.1, "generation_config": {"seed": 1}}}}
    assert gemini_config({"contents": []}) is None


def test_cerebras_refuses_openais_store_and_knows_its_own_fields() -> None:
    sent = {**body(store=False), "model": "llama3.1-8b"}
    assert [(v.rule, v.status, v.message) for v in check(sent, "cerebras")] == [
        ("unknown-request-field", 400, "body.store: property 'body.store' is unsupported")]
    own = {**body(reasoning_format="parsed", disable_reasoning=True, min_tokens=1,
                  prompt_cache_key="k"), "model": "gpt-oss-120b"}
    assert check(own, "cerebras") == ()
    result = normalize(QUESTION, "cerebras", options={"store": False, "seed": 7})
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unknown-request-field", "store", False)]
    assert result.render()["seed"] == 7


def test_fireworks_quotes_the_value_in_pythons_spelling_and_knows_its_own_fields() -> None:
    model = "accounts/fireworks/models/kimi-k3"
    sent = {**body(vl_high_resolution_images=True, promptCacheKey="k"), "model": model}
    assert [(v.rule, v.message) for v in check(sent, "fireworks")] == [
        ("unknown-request-field",
         "Extra inputs are not permitted, field: 'vl_high_resolution_images', value: True."),
        ("unknown-request-field",
         "Extra inputs are not permitted, field: 'promptCacheKey', value: 'k'.")]
    own = {**body(top_k=40, min_p=0.05, prompt_cache_key="k", reasoning_history="preserved",
                  stream_options={"include_usage": True}, service_tier="priority"),
           "model": model}
    assert check(own, "fireworks") == ()
    result = normalize(QUESTION, "fireworks", options={"vl_high_resolution_images": True})
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unknown-request-field", "vl_high_resolution_images", False)]


def test_azure_refuses_in_openais_words_and_knows_openais_fields() -> None:
    sent = {**body(enable_thinking=False, extra_body={}), "model": "gpt-4o-mini"}
    assert [(v.rule, v.message, v.error) for v in check(sent, "azure_openai")] == [
        ("unknown-request-field", f"Unrecognized request argument supplied: {field}",
         {"type": "invalid_request_error", "param": None, "code": None})
        for field in ("enable_thinking", "extra_body")]
    own = {**body(reasoning_effort="low", max_completion_tokens=64, store=False),
           "model": "gpt-5-nano"}
    assert check(own, "azure_openai") == ()


def test_openais_stop_reaches_anthropic_and_gemini_in_their_own_list_fields() -> None:
    claude_stop = normalize(QUESTION, "anthropic", options={"stop": "END"})
    assert claude_stop.render()["stop_sequences"] == ["END"]
    assert [(c.code, c.lossless) for c in claude_stop.changes] == [
        ("rename-request-field", True)]
    assert "as a one-item list" in claude_stop.changes[0].what
    # A newline stop moves, then goes: Claude takes no whitespace-only stop sequence.
    newline = normalize(QUESTION, "anthropic", options={"stop": ["\n", "END"]})
    assert newline.render()["stop_sequences"] == ["END"]
    assert [c.code for c in newline.changes] == ["rename-request-field", "drop-stop-sequence"]
    gemini_stop = normalize(QUESTION, "gemini", options={"stop": ["END"]}).render()
    assert gemini_stop["generationConfig"] == {"stopSequences": ["END"]}
    assert check(gemini_stop, "gemini") == ()

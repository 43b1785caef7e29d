"""A reasoning effort sent to a model that does not reason (rule reasoning-effort-unsupported,
pass drop_reasoning_effort): OpenAI refuses the field itself, in Chat's words and in the
Responses API's; an effort arrives this way from another vendor's thinking settings. And a
level the model does not take (reasoning-effort-value-unsupported, pass
fit_reasoning_effort): OpenAI's effort levels, Gemini 3's thinkingLevel."""

from __future__ import annotations

from typing import Any

import sdk_calls as calls
from google.genai import errors as genai_errors

from conformance.emulator import serve
from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text

QUESTION = History((Message("user", (Text("Is 391 a prime number?"),)),))


def chat(model: str, **fields: Any) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": "Is 391 a prime?"}],
            **fields}


def test_chat_refuses_any_effort_for_a_model_without_reasoning() -> None:
    for effort in ("low", "none"):  # "none" too (AAswordman/Operit#1048)
        (found,) = check(chat("gpt-4o-mini", reasoning_effort=effort), "openai")
        assert (found.rule, found.message) == ("reasoning-effort-unsupported",
                                               "Unrecognized request argument supplied: "
                                               "reasoning_effort")
    assert check(chat("gpt-5-mini", reasoning_effort="low"), "openai") == ()
    assert check(chat("gpt-4o-mini"), "openai") == ()


def test_responses_words_it_as_an_unsupported_parameter() -> None:
    body = {"model": "gpt-4.1", "input": "Is 391 a prime?", "reasoning": {"effort": "low"}}
    (found,) = check(body, "openai_responses")
    assert found.message == ("Unsupported parameter: 'reasoning.effort' is not supported with "
                             "this model.")
    assert found.error["param"] == "reasoning.effort"


def test_the_effort_is_left_out_for_a_named_model_only() -> None:
    result = normalize(QUESTION, "openai", options={"reasoning_effort": "low"},
                       model="gpt-4.1-mini")
    assert "reasoning_effort" not in result.render()
    assert [(c.code, c.lossless) for c in result.changes] == [("drop-reasoning-effort", True)]
    # With no model, or a reasoning model, the effort is the caller's to keep.
    assert normalize(QUESTION, "openai", options={"reasoning_effort": "low"}).changes == ()
    kept = normalize(QUESTION, "openai", options={"reasoning_effort": "low"}, model="gpt-5")
    assert kept.render()["reasoning_effort"] == "low"
    responses = normalize(QUESTION, "openai_responses", model="gpt-4o",
                          options={"reasoning": {"effort": "high", "summary": "auto"}})
    assert "reasoning" not in responses.render()


def test_claudes_thinking_reaches_a_non_reasoning_openai_model_without_an_effort() -> None:
    body = {"model": "claude-sonnet-4-6", "max_tokens": 4096, "messages": [
        {"role": "user", "content": "Is 391 a prime?"}],
            "thinking": {"type": "enabled", "budget_tokens": 2048}}
    fixed = normalize_request(body, "anthropic", "openai", model="gpt-4.1-mini")
    assert "reasoning_effort" not in fixed.body
    assert [c.code for c in fixed.changes] == ["budget-as-effort", "drop-reasoning-effort"]
    assert check(fixed.body, "openai") == ()
    reasoning = normalize_request(body, "anthropic", "openai", model="gpt-5-mini")
    assert reasoning.body["reasoning_effort"] == "medium"  # 2,048 tokens: above low's 1,024


def test_gemini_2_0_refuses_any_thinking_config_and_gets_none() -> None:
    body = {"contents": [{"role": "user", "parts": [{"text": "Is 391 a prime?"}]}],
            "generationConfig": {"temperature": 0, "thinkingConfig": {"includeThoughts": True}}}
    (found,) = check(body, "gemini", model="gemini-2.0-flash")
    assert (found.rule, found.message) == ("reasoning-effort-unsupported",
                                           "thinking_config is not supported.")
    for model in ("gemini-2.0-flash-thinking-exp-01-21", "gemini-2.5-flash"):
        assert check(body, "gemini", model=model) == (), model
    options = {"generationConfig": {"thinkingConfig": {"thinkingBudget": 1024}}}
    result = normalize(QUESTION, "gemini", options=options, model="gemini-2.0-flash")
    assert "generationConfig" not in result.render()
    assert [(c.code, c.lossless) for c in result.changes] == [("drop-reasoning-effort", True)]
    # Crossed from Claude: the thinking the model cannot do is left out, the rest kept.
    claude = {"model": "claude-sonnet-4-6", "max_tokens": 4096, "messages": [
        {"role": "user", "content": "Is 391 a prime?"}],
              "thinking": {"type": "enabled", "budget_tokens": 2048}}
    fixed = normalize_request(claude, "anthropic", "gemini", model="gemini-2.0-flash")
    assert fixed.body["generationConfig"] == {"maxOutputTokens": 4096}
    assert check(fixed.body, "gemini", model="gemini-2.0-flash") == ()


def test_claude_3_5_refuses_thinking_in_words_naming_the_model() -> None:
    body = {"model": "claude-3-5-haiku-20241022", "max_tokens": 2048,
            "messages": [{"role": "user", "content": "Is 391 a prime?"}],
            "thinking": {"type": "enabled", "budget_tokens": 1024}}
    (found,) = check(body, "anthropic")
    assert found.message == "'claude-3-5-haiku-20241022' does not support thinking."
    for model in ("claude-3-7-sonnet-20250219", "claude-haiku-4-5"):
        assert check({**body, "model": model}, "anthropic") == (), model
    assert check({**body, "thinking": {"type": "disabled"}}, "anthropic") == ()
    # An OpenAI effort crossed to Claude 3.5 is left out, with the budget written for it.
    chat = {"model": "o3", "messages": [{"role": "user", "content": "Is 391 a prime?"}],
            "reasoning_effort": "high", "max_completion_tokens": 4000}
    fixed = normalize_request(chat, "openai_chat", "anthropic",
                              model="claude-3-5-haiku-20241022")
    assert "thinking" not in fixed.body
    assert check(fixed.body, "anthropic") == ()
    assert "drop-reasoning-effort" in [c.code for c in fixed.changes]


def test_a_level_the_model_does_not_take_is_refused_in_each_apis_words() -> None:
    (found,) = check(chat("gpt-5.2-chat-latest", reasoning_effort="high"), "openai")
    assert found.message == ("Unsupported value: 'reasoning_effort' does not support 'high' "
                             "with this model. Supported values are: 'medium'.")
    body = {"model": "gpt-5.1", "input": "Is 391 a prime?", "reasoning": {"effort": "minimal"}}
    (found,) = check(body, "openai_responses")
    assert found.message == ("Unsupported value: 'minimal' is not supported with the 'gpt-5.1' "
                             "model. Supported values are: 'none', 'low', 'medium', and 'high'.")
    assert check({**body, "reasoning": {"effort": "none"}}, "openai_responses") == ()
    assert check(chat("gpt-5.2", reasoning_effort="xhigh"), "openai") == ()


def test_the_nearest_level_is_sent_and_said() -> None:
    result = normalize(QUESTION, "openai", options={"reasoning_effort": "xhigh"}, model="gpt-5.1")
    assert result.render()["reasoning_effort"] == "high"
    assert [(c.code, c.lossless) for c in result.changes] == [("fit-reasoning-effort", False)]
    responses = normalize(QUESTION, "openai_responses", model="gpt-5.1",
                          options={"reasoning": {"effort": "minimal", "summary": "auto"}})
    assert responses.render()["reasoning"] == {"effort": "low", "summary": "auto"}
    # Claude's "max" is OpenAI's "xhigh", which gpt-5.1 does not take: high, each step said.
    claude = {"model": "claude-opus-4-6", "max_tokens": 4096, "messages": [
        {"role": "user", "content": "Is 391 a prime?"}], "thinking": {"type": "adaptive"},
              "output_config": {"effort": "max"}}
    fixed = normalize_request(claude, "anthropic", "openai", model="gpt-5.1")
    assert fixed.body["reasoning_effort"] == "high"
    # Its max_tokens goes to max_completion_tokens too, which gpt-5.1 takes instead.
    assert [c.code for c in fixed.changes] == ["rename-effort", "fit-reasoning-effort",
                                               "move-max-tokens"]
    assert check(fixed.body, "openai") == ()


def test_nearest_level_prefers_more_reasoning_on_a_tie() -> None:
    from normalizer.effort_levels import listed, nearest_level
    assert nearest_level("minimal", ["none", "low", "medium", "high"]) == "low"
    assert nearest_level("xhigh", ["none", "low", "medium", "high"]) == "high"
    assert nearest_level("high", ["medium"]) == "medium"
    assert listed(["medium"]) == "'medium'"
    assert listed(["low", "high"]) == "'low' and 'high'"


def test_gpt_5_refuses_none_and_claudes_thinking_off_reaches_it_as_minimal() -> None:
    body = {"model": "gpt-5-nano", "input": "Is 391 a prime?", "reasoning": {"effort": "none"}}
    (found,) = check(body, "openai_responses")  # rikkahub/rikkahub#856, verbatim
    assert found.message == ("Unsupported value: 'none' is not supported with the 'gpt-5-nano' "
                             "model. Supported values are: 'minimal', 'low', 'medium', and "
                             "'high'.")
    assert check({**body, "reasoning": {"effort": "minimal"}}, "openai_responses") == ()
    assert check({**body, "model": "gpt-5.1"}, "openai_responses") == ()  # 5.1 takes none
    (pro,) = check({**body, "model": "gpt-5-pro", "reasoning": {"effort": "medium"}},
                   "openai_responses")
    assert pro.message.endswith("Supported values are: 'high'.")
    claude = {"model": "claude-sonnet-4-6", "max_tokens": 1024, "messages": [
        {"role": "user", "content": "Is 391 a prime?"}], "thinking": {"type": "disabled"}}
    for target, model in (("openai", "gpt-5-mini"), ("openai_responses", "gpt-5")):
        fixed = normalize_request(claude, "anthropic", target, model=model)
        sent = fixed.body.get("reasoning_effort") or fixed.body["reasoning"]["effort"]
        assert sent == "minimal", target
        assert "fit-reasoning-effort" in [c.code for c in fixed.changes]
        assert check(fixed.body, target) == ()


def test_grok_4_refuses_the_effort_setting_and_grok_3_mini_takes_it() -> None:
    (found,) = check(chat("grok-4-1-fast-reasoning", reasoning_effort="low"), "xai")
    assert found.message == ("Model grok-4-1-fast-reasoning does not support parameter "
                             "reasoningEffort.")  # JetBrains/junie#39, verbatim
    for model in ("grok-3-mini", "grok-4.3", "grok-4.20-multi-agent-0309"):
        assert check(chat(model, reasoning_effort="low"), "xai") == (), model
    fixed = normalize(QUESTION, "xai", options={"reasoning_effort": "high"},
                      model="grok-4.20-0309-non-reasoning")
    assert "reasoning_effort" not in fixed.render()
    assert [c.code for c in fixed.changes] == ["drop-reasoning-effort"]


def gemini_level(level: str, field: str = "thinkingLevel") -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Is 391 a prime?"}]}],
            "generationConfig": {"thinkingConfig": {field: level}}}


def test_gemini_3_pro_refuses_a_level_it_does_not_take_naming_it_as_its_enum_does() -> None:
    (found,) = check(gemini_level("medium"), "gemini", model="gemini-3-pro-preview")
    assert found.message == ("Thinking level MEDIUM is not supported for this model. Please "
                             "retry with other thinking level.")  # chatwise-releases#1206
    assert found.location == "generationConfig.thinkingConfig.thinkingLevel"
    # google-genai's proto spelling and upper-case enum are read too.
    (proto,) = check(gemini_level("MINIMAL", "thinking_level"), "gemini",
                     model="gemini-3-pro-preview")
    assert proto.message.startswith("Thinking level MINIMAL is not supported")
    for model, level in (("gemini-3-pro-preview", "low"), ("gemini-3-pro-preview", "HIGH"),
                         ("gemini-3-flash-preview", "medium"),
                         ("gemini-3-flash-preview", "minimal"),
                         ("gemini-3.1-pro-preview", "medium")):
        assert check(gemini_level(level), "gemini", model=model) == (), (model, level)
    (minimal,) = check(gemini_level("minimal"), "gemini", model="gemini-3.1-pro-preview")
    assert minimal.rule == "reasoning-effort-value-unsupported"


def test_a_gemini_level_becomes_the_nearest_the_model_takes_in_the_requests_spelling(
) -> None:
    for model, config, fitted in (
            ("gemini-3-pro-preview", {"thinkingLevel": "medium"}, {"thinkingLevel": "high"}),
            ("gemini-3-pro-preview", {"thinkingLevel": "minimal", "includeThoughts": True},
             {"thinkingLevel": "low", "includeThoughts": True}),
            ("gemini-3-pro-preview", {"thinking_level": "MEDIUM"}, {"thinking_level": "HIGH"}),
            ("gemini-3.1-pro-preview", {"thinkingLevel": "minimal"}, {"thinkingLevel": "low"})):
        result = normalize(QUESTION, "gemini", model=model,
                           options={"generationConfig": {"thinkingConfig": config}})
        assert result.render()["generationConfig"]["thinkingConfig"] == fitted, (model, config)
        assert [(c.code, c.lossless) for c in result.changes] == [("fit-reasoning-effort",
                                                                   False)]
    kept = normalize(QUESTION, "gemini",
                     options={"generationConfig": {"thinkingConfig": {"thinkingLevel": "medium"}}})
    assert kept.changes == ()  # no model named: the level is the caller's


def test_google_genai_sends_the_fitted_level_and_the_emulator_takes_it() -> None:
    with serve() as emu:
        sdk = calls.client("gemini", emu.sdk_base_url("gemini"))
        try:
            calls.send("gemini", sdk, gemini_level("medium"), model="gemini-3-pro-preview")
        except genai_errors.ClientError as exc:
            said = calls.sdk_error(exc)
        else:
            raise AssertionError("a level Gemini 3 Pro does not take was accepted")
        assert said.message.startswith("Thinking level MEDIUM is not supported")
        result = normalize(QUESTION, "gemini", model="gemini-3-pro-preview",
                           options={"generationConfig": {"thinkingConfig": {
                               "thinkingLevel": "medium"}}})
        reply = calls.send("gemini", sdk, result.render(), model="gemini-3-pro-preview")
        assert calls.text_of("gemini", reply) == "ok"


def claude_effort(model: str, effort: str) -> dict[str, Any]:
    return {"model": model, "max_tokens": 1024, "output_config": {"effort": effort},
            "messages": [{"role": "user", "content": "Is 391 a prime?"}]}


def test_claude_4_6_refuses_xhigh_listing_its_levels_in_alphabetical_order() -> None:
    (found,) = check(claude_effort("claude-sonnet-4-6", "xhigh"), "anthropic")
    assert found.message == ("This model does not support effort level 'xhigh'. Supported "
                             "levels: high, low, max, medium.")  # OmniRoute#7276
    assert found.location == "output_config.effort"
    for model, effort in (("claude-sonnet-4-6", "max"), ("claude-opus-4-6", "low"),
                          ("claude-opus-4-7", "xhigh")):
        assert check(claude_effort(model, effort), "anthropic") == (), (model, effort)


def test_an_opus_4_7_history_with_xhigh_reaches_sonnet_4_6_at_the_nearest_level() -> None:
    body = claude_effort("claude-opus-4-7", "xhigh")
    fixed = normalize_request(body, "anthropic", "anthropic", model="claude-sonnet-4-6")
    # xhigh sits between high and max: of two as near, more reasoning (our rule).
    assert fixed.body["output_config"] == {"effort": "max"}
    assert "fit-reasoning-effort" in [c.code for c in fixed.changes]
    assert check(fixed.body, "anthropic") == ()


def test_opus_5_cannot_stop_thinking_at_xhigh_or_max_and_the_effort_comes_down() -> None:
    # anthropics/claude-code#81084 ('xhigh') and #84844 ('max'), claude-opus-5.
    def opus(model: str, effort: str) -> dict[str, Any]:
        return {"model": model, "max_tokens": 4096, "thinking": {"type": "disabled"},
                "output_config": {"effort": effort},
                "messages": [{"role": "user", "content": "Is 391 a prime?"}]}

    (found,) = check(opus("claude-opus-5", "xhigh"), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "thinking-off-unsupported", "output_config.effort",
        "output_config.effort 'xhigh' is not supported when thinking is disabled on this "
        "model. Use effort 'high' or below, or enable thinking.")
    assert check(opus("claude-opus-5", "high"), "anthropic") == ()
    assert check({**opus("claude-opus-5", "max"), "thinking": {"type": "adaptive"}},
                 "anthropic") == ()
    assert check(opus("claude-opus-4-6", "max"), "anthropic") == ()
    fixed = normalize_request(opus("claude-opus-5", "max"), "anthropic", "anthropic",
                              model="claude-opus-5")
    assert fixed.body["output_config"] == {"effort": "high"}
    assert fixed.body["thinking"] == {"type": "disabled"}
    assert [(c.code, c.lossless) for c in fixed.changes] == [
        ("lower-effort-for-thinking-off", False)]
    assert check(fixed.body, "anthropic") == ()
    kept = normalize_request(opus("claude-opus-4-6", "max"), "anthropic", "anthropic",
                             model="claude-opus-4-6")
    assert kept.body["output_config"] == {"effort": "max"} and kept.changes == ()


NULL_WORDS = ("Unsupported value: 'reasoning_effort' does not support null with this model. "
              "Supported values are: 'none', 'low', 'medium', and 'high'.")


def test_gpt_5_1_refuses_a_null_effort_naming_it_bare_and_it_is_left_out() -> None:
    (found,) = check(chat("gpt-5.1", reasoning_effort=None), "openai")
    assert (found.rule, found.location, found.message) == (
        "reasoning-effort-value-unsupported", "reasoning_effort", NULL_WORDS)
    assert "'xhigh' with this model" in check(chat("gpt-5.1", reasoning_effort="xhigh"),
                                              "openai")[0].message
    # The string "null" is a level like any other, quoted; no other model refuses a null.
    assert "support 'null' with" in check(chat("gpt-5.1", reasoning_effort="null"),
                                           "openai")[0].message
    for model in ("gpt-5.2", "gpt-5-mini", "gpt-5.2-chat-latest", "gpt-4.1-mini"):
        assert check(chat(model, reasoning_effort=None), "openai") == (), model
    with serve() as emu:  # through the openai SDK, which sends the null as given
        sdk = calls.client("openai_chat", emu.sdk_base_url("openai"))
        assert calls.refused("openai_chat", sdk, chat("gpt-5.1", reasoning_effort=None)) \
            == calls.SdkError(400, NULL_WORDS)
        fixed = normalize_request(chat("gpt-5.1", reasoning_effort=None), "openai_chat",
                                  "openai")
        assert [(c.code, c.where, c.lossless) for c in fixed.changes] == [
            ("drop-null-reasoning-effort", "reasoning_effort", True)]
        assert "reasoning_effort" not in fixed.body
        assert calls.send("openai_chat", sdk, fixed.body) is not None
    kept = normalize_request(chat("gpt-5.2", reasoning_effort=None), "openai_chat", "openai")
    assert kept.changes == () and kept.body["reasoning_effort"] is None

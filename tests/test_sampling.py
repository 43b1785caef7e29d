"""drop_unfixed_sampling (rule sampling-parameter-fixed): Kimi's thinking models take one
temperature and one top_p ("invalid temperature: only 1 is allowed for this model",
countbot-ai/CountBot#61; "invalid top_p: only 0.95 is allowed for this model",
CherryHQ/cherry-studio#12691; 0.6 with thinking off, arcsin1/oh-my-ppt#45); Claude takes
temperature 1 only while thinking is on (MayDay-wpf/snow-app#42)."""

from __future__ import annotations

from typing import Any

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text
from normalizer.sampling import fixed_values, unfixed

HISTORY = History((Message("user", (Text("Summarise the meeting."),)),))
PARAMS: dict[str, Any] = {"fixed": {"temperature": 1, "top_p": 0.95},
                          "thinking_off": {"temperature": 0.6},
                          "thinking_off_models": r"^kimi-k2\.[56]", "off": ["disabled"]}


def test_the_value_pinned_depends_on_thinking_where_the_model_can_turn_it_off() -> None:
    off = {"thinking": {"type": "disabled"}}
    assert fixed_values({}, PARAMS, "kimi-k2.6") == {"temperature": 1, "top_p": 0.95}
    assert fixed_values(off, PARAMS, "kimi-k2.6") == {"temperature": 0.6, "top_p": 0.95}
    assert fixed_values(off, PARAMS, "kimi-k3") == {"temperature": 1, "top_p": 0.95}


def test_only_other_values_are_refused() -> None:
    assert unfixed({"temperature": 1.0, "top_p": 0.95}, PARAMS, "kimi-k3") == []
    assert unfixed({"temperature": None}, PARAMS, "kimi-k3") == []
    assert [(u.field, u.sent, u.allowed) for u in
            unfixed({"temperature": 0.2, "top_p": 1, "n": 3}, PARAMS, "kimi-k3")] == [
        ("temperature", 0.2, 1), ("top_p", 1, 0.95)]
    assert unfixed({"temperature": True}, PARAMS, "kimi-k3")[0].sent is True


def test_moonshot_words_it_and_normalize_leaves_the_values_out() -> None:
    body = {"model": "kimi-k3", "messages": [{"role": "user", "content": "hi"}],
            "temperature": 0.2, "top_p": 0.9}
    assert [v.message for v in check(body, "moonshot")] == [
        "invalid temperature: only 1 is allowed for this model",
        "invalid top_p: only 0.95 is allowed for this model"]
    out = normalize(HISTORY, "moonshot", model="kimi-k3",
                    options={"temperature": 0.2, "top_p": 0.9, "max_tokens": 100})
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("drop-unfixed-sampling", "temperature", False),
        ("drop-unfixed-sampling", "top_p", False)]
    rendered = out.render(model="kimi-k3")
    assert "temperature" not in rendered and "top_p" not in rendered
    assert rendered["max_tokens"] == 100
    assert check(rendered, "moonshot") == ()


def test_other_models_and_an_unknown_model_keep_their_temperature() -> None:
    for model in ("moonshot-v1-8k", "kimi-k2-0905-preview", None):
        out = normalize(HISTORY, "moonshot", model=model, options={"temperature": 0.2})
        assert out.changes == (), model
        assert out.render(model=model or "kimi-k3")["temperature"] == 0.2
    body = {"model": "moonshot-v1-8k", "messages": [{"role": "user", "content": "hi"}],
            "temperature": 0.2}
    assert check(body, "moonshot") == ()


def opus(model: str, **fields: Any) -> dict[str, Any]:
    return {"model": model, "max_tokens": 1024,
            "messages": [{"role": "user", "content": "Say hello"}], **fields}


def test_opus_4_7_refuses_any_temperature_in_its_own_words() -> None:
    (found,) = check(opus("claude-opus-4-7", temperature=0.0), "anthropic")
    assert (found.rule, found.location, found.message) == (
        "sampling-parameter-unsupported", "temperature",
        "`temperature` is deprecated for this model.")  # UKGovernmentBEIS/inspect_ai#3721
    assert [v.location for v in check(opus("claude-opus-4-8", temperature=1, top_p=0.9,
                                           top_k=40), "anthropic")] == [
        "temperature", "top_p", "top_k"]
    assert check(opus("claude-opus-4-6", temperature=0.0), "anthropic") == ()
    assert check(opus("claude-opus-4-7", temperature=None), "anthropic") == ()


def test_an_apps_temperature_is_left_out_for_opus_4_7_only() -> None:
    result = normalize(HISTORY, "anthropic", options={"temperature": 0.2, "top_k": 40},
                       model="claude-opus-4-7")
    body = result.render()
    assert "temperature" not in body and "top_k" not in body
    assert [(c.code, c.where, c.lossless) for c in result.changes] == [
        ("drop-unsupported-sampling", "temperature", False),
        ("drop-unsupported-sampling", "top_k", False)]
    assert check({"model": "claude-opus-4-7", **body}, "anthropic") == ()
    for model in (None, "claude-opus-4-6"):
        kept = normalize(HISTORY, "anthropic", options={"temperature": 0.2}, model=model)
        assert kept.render()["temperature"] == 0.2 and kept.changes == ()


def test_gpt_5_takes_only_its_default_temperature_in_openais_words() -> None:
    def chat(model: str, temperature: Any) -> dict[str, Any]:
        return {"model": model, "temperature": temperature,
                "messages": [{"role": "user", "content": "Name a colour."}]}

    (found,) = check(chat("gpt-5", 0.5), "openai")
    assert found.message == ("Unsupported value: 'temperature' does not support 0.5 with this "
                             "model. Only the default (1) value is supported.")  # #445
    (zero,) = check(chat("gpt-5-mini", 0.0), "openai")  # musistudio/claude-code-router#849
    assert "does not support 0.0 with this model" in zero.message
    for model, temperature in (("gpt-5", 1), ("gpt-4.1-mini", 0.2), ("gpt-5-nano", None)):
        assert check(chat(model, temperature), "openai") == (), model
    result = normalize(HISTORY, "openai", options={"temperature": 0.2}, model="gpt-5")
    assert "temperature" not in result.render()
    assert [c.code for c in result.changes] == ["drop-unfixed-sampling"]


def test_the_o_series_words_it_as_an_unsupported_parameter_and_takes_1() -> None:
    body = {"model": "o3-mini", "temperature": 0.2,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    (found,) = check(body, "openai")  # ChatGPTNextWeb/NextChat#6120
    assert found.message == "Unsupported parameter: 'temperature' is not supported with this model."
    assert check({**body, "temperature": 1}, "openai") == ()  # RA.Aid#70: 1 taken since
    assert check({**body, "model": "o4-mini-2025-04-16"}, "openai")[0].rule == \
        "sampling-parameter-fixed"


def test_the_claude_5_models_refuse_temperature_too_and_haiku_4_5_takes_it() -> None:
    # oc8-ai/oc8#3 (claude-sonnet-5, with a request id), earendil-works/pi#7961 (sonnet-5
    # and opus-5 refuse temperature 0, haiku-4-5 takes it), The-PR-Agent/pr-agent#2456.
    for model in ("claude-sonnet-5", "claude-opus-5", "claude-fable-5"):
        (found,) = check(opus(model, temperature=0), "anthropic")
        assert found.message == "`temperature` is deprecated for this model.", model
    assert check(opus("claude-haiku-4-5-20251001", temperature=0), "anthropic") == ()
    assert check(opus("claude-sonnet-4-6", temperature=0), "anthropic") == ()


def test_sonnet_5_takes_adaptive_thinking_only() -> None:
    # AAClause/nvda-OpenAI#126.
    enabled = {**opus("claude-sonnet-5", thinking={"type": "enabled", "budget_tokens": 2048}),
               "max_tokens": 8192}
    assert [v.rule for v in check(enabled, "anthropic")] == ["thinking-budget-unsupported"]
    fixed = normalize_request(enabled, "anthropic", "anthropic", model="claude-sonnet-5")
    assert fixed.body["thinking"]["type"] == "adaptive"
    assert check(fixed.body, "anthropic") == ()


THINKING_WORDS = ("`temperature` may only be set to 1 when thinking is enabled or in adaptive "
                  "mode. Please consult our documentation at "
                  "https://platform.claude.com/docs/en/build-with-claude/extended-thinking")


def test_claude_takes_temperature_1_only_while_thinking_is_on() -> None:
    # MayDay-wpf/snow-app#42 (adaptive), MartialBE/one-hub#529 (enabled, claude-3-7-sonnet).
    adaptive = opus("claude-sonnet-4-6", temperature=0.7, thinking={"type": "adaptive"})
    (found,) = check(adaptive, "anthropic")
    assert (found.rule, found.location, found.message) == (
        "sampling-parameter-fixed", "temperature", THINKING_WORDS)
    enabled = {**opus("claude-haiku-4-5", temperature=0.2,
                      thinking={"type": "enabled", "budget_tokens": 1024}), "max_tokens": 2048}
    assert [v.rule for v in check(enabled, "anthropic")] == ["sampling-parameter-fixed"]
    # Temperature 1, thinking off or left out: taken.
    assert check({**enabled, "temperature": 1}, "anthropic") == ()
    assert check(opus("claude-haiku-4-5", temperature=0.2, thinking={"type": "disabled"}),
                 "anthropic") == ()
    assert check(opus("claude-haiku-4-5", temperature=0.2), "anthropic") == ()


def test_an_effort_reaching_claude_as_thinking_leaves_the_apps_temperature_out() -> None:
    chat = {"model": "gpt-5", "reasoning_effort": "low", "temperature": 0.7,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    sent = normalize_request(chat, "openai_chat", "anthropic", model="claude-haiku-4-5")
    assert sent.body["thinking"]["type"] == "enabled" and "temperature" not in sent.body
    (left,) = [c for c in sent.changes if c.code == "drop-unfixed-sampling"]
    assert (left.where, left.lossless) == ("temperature", False)
    assert "while thinking is on" in left.what
    assert check(sent.body, "anthropic") == ()
    # With thinking off the temperature stays, for a known model or none.
    for model in ("claude-haiku-4-5", None):
        kept = normalize(HISTORY, "anthropic", model=model,
                         options={"temperature": 0.7, "thinking": {"type": "disabled"}})
        assert kept.changes == () and kept.render()["temperature"] == 0.7
    # With thinking on and no model known, it goes too: the rule names no models.
    gone = normalize(HISTORY, "anthropic", options={
        "temperature": 0.7, "max_tokens": 4096,
        "thinking": {"type": "enabled", "budget_tokens": 1024}})
    assert "temperature" not in gone.render()


def test_claude_takes_temperatures_from_0_to_1_where_openai_takes_up_to_2() -> None:
    # anthropics/anthropic-sdk-python#893: the 2025 words named -1, which was taken then.
    for temperature in (1.2, 2, -0.5):
        (found,) = check(opus("claude-haiku-4-5", temperature=temperature), "anthropic",
                         on="2025-03-05")
        assert (found.rule, found.message) == ("sampling-parameter-out-of-range",
                                               "temperature: range: -1 or 0..1")
    assert check(opus("claude-haiku-4-5", temperature=-1), "anthropic", on="2025-03-05") == ()
    # Since 2026-08 -1 is refused too, in words gateways quote.
    (found,) = check(opus("claude-haiku-4-5", temperature=-1), "anthropic")
    assert found.message == "temperature: range: 0..1"
    for temperature in (0, 0.5, 1, None):
        assert check(opus("claude-haiku-4-5", temperature=temperature), "anthropic") == ()
    assert check({"model": "gpt-4.1", "temperature": 1.5,
                  "messages": [{"role": "user", "content": "hi"}]}, "openai") == ()


def test_a_temperature_above_1_reaches_claude_as_1() -> None:
    chat = {"model": "gpt-4.1", "temperature": 1.2,
            "messages": [{"role": "user", "content": "Name a colour."}]}
    sent = normalize_request(chat, "openai_chat", "anthropic", model="claude-haiku-4-5")
    assert sent.body["temperature"] == 1
    (clamped,) = [c for c in sent.changes if c.code == "clamp-sampling-parameter"]
    assert (clamped.where, clamped.lossless) == ("temperature", False)
    assert check(sent.body, "anthropic") == ()
    low = normalize(HISTORY, "anthropic", options={"temperature": -0.3})
    assert low.render()["temperature"] == 0
    # With top_p beside it, the clamped temperature is Claude's default and goes, losslessly.
    both = normalize_request({**chat, "top_p": 0.9}, "openai_chat", "anthropic",
                             model="claude-sonnet-4-6")
    assert "temperature" not in both.body and both.body["top_p"] == 0.9
    assert [(c.code, c.lossless) for c in both.changes if c.code != "replace-model"] == [
        ("clamp-sampling-parameter", False), ("drop-exclusive-sampling", True)]


def test_mistral_takes_temperatures_up_to_1_5_in_a_422() -> None:
    # vegu-ai/talemate#102 (2024: up to 1), SillyTavern/SillyTavern#4856 (2025-12: up to 1.5).
    def chat(temperature: Any) -> dict[str, Any]:
        return {"model": "mistral-large-latest", "temperature": temperature,
                "messages": [{"role": "user", "content": "Name a colour."}]}

    (found,) = check(chat(1.31), "mistral", on="2024-05-03")
    assert (found.status, found.message, found.error["type"]) == (
        422, "Input should be less than or equal to 1", "less_than_equal")
    assert check(chat(1.31), "mistral") == ()
    (found,) = check(chat(2), "mistral")
    assert found.message == "Input should be less than or equal to 1.5"
    sent = normalize_request(chat(2), "openai_chat", "mistral")
    assert sent.body["temperature"] == 1.5
    assert [c.code for c in sent.changes] == ["clamp-sampling-parameter"]
    assert check(sent.body, "mistral") == ()

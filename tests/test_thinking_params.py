"""resolve_thinking_params (rule thinking-param-conflict): Moonshot's thinking switch is an
object ("... and bool is not acceptable", LionSR/TeXRA#1905), not to be sent beside
reasoning_effort ("cannot specify both 'thinking' and 'reasoning_effort'",
HKUDS/nanobot#3939), and cannot be off for kimi-k2.7-code ("invalid thinking: only
type=enabled is allowed for this model", recorded by vercel/ai)."""

from __future__ import annotations

from normalizer import check, normalize, normalize_request
from normalizer.model import History, Message, Text
from normalizer.thinking_params import conflicts, resolved

HISTORY = History((Message("user", (Text("Reply with OK."),)),))


def _body(model: str, **options: object) -> dict[str, object]:
    return {"model": model, "messages": [{"role": "user", "content": "Reply with OK."}],
            **options}


def test_each_check_finds_its_own_form_only() -> None:
    both = {"thinking": True, "reasoning_effort": "high"}
    assert [c.check for c in conflicts(both, {"check": ["object", "with_effort"]})] == [
        "object", "with_effort"]
    assert conflicts(both, {"check": ["always_on"]}) == []
    assert conflicts({"thinking": {"type": "disabled"}}, {"check": ["always_on"]})[0].field \
        == "thinking.type"
    assert conflicts({"reasoning_effort": "high"}, {"check": ["with_effort"]}) == []
    (found,) = conflicts({"thinking": False}, {"check": ["object"]})
    assert resolved({"thinking": False}, found) == {"thinking": {"type": "disabled"}}


def test_moonshot_words_each_form_for_the_models_it_was_seen_on() -> None:
    assert [v.message for v in check(_body("kimi-k2-thinking", thinking=True), "moonshot")] \
        == ["the thinking field in the request (expected type object) is illegal, and bool "
            "is not acceptable"]
    assert [v.message for v in check(_body("kimi-k2.6", thinking={"type": "enabled"},
                                           reasoning_effort="high"), "moonshot")] == [
        "cannot specify both 'thinking' and 'reasoning_effort'"]
    assert [v.message for v in check(_body("kimi-k2.7-code", thinking={"type": "disabled"}),
                                     "moonshot")] == [
        "invalid thinking: only type=enabled is allowed for this model"]
    assert check(_body("kimi-k2.6", thinking={"type": "disabled"}), "moonshot") == ()


def test_normalize_resolves_them_and_the_result_is_taken() -> None:
    out = normalize(HISTORY, "moonshot", model="kimi-k2.6",
                    options={"thinking": True, "reasoning_effort": "high"})
    assert [(c.code, c.where, c.lossless) for c in out.changes] == [
        ("resolve-thinking-param", "thinking", True),
        ("resolve-thinking-param", "reasoning_effort", False)]
    body = out.render(model="kimi-k2.6")
    assert body["thinking"] == {"type": "enabled"} and "reasoning_effort" not in body
    assert check(body, "moonshot") == ()
    fixed = normalize_request(_body("kimi-k2.7-code", thinking={"type": "disabled"}),
                              "openai_chat", "moonshot")
    assert "thinking" not in fixed.body and check(fixed.body, "moonshot") == ()


def test_an_unknown_model_and_other_vendors_keep_the_options() -> None:
    options = {"thinking": {"type": "disabled"}}
    assert normalize(HISTORY, "moonshot", options=options).changes == ()
    assert normalize(HISTORY, "deepseek", model="kimi-k2.7-code", options=options
                     ).changes == ()

"""fill_reasoning_content: a tool-call turn without reasoning, sent to a target in thinking
mode that wants every such turn's reasoning back (DeepSeek V4, Kimi K2.5 and later), gets
the profile's placeholder; nothing else does."""

from __future__ import annotations

from typing import Any

import pytest
import sdk_calls as calls

from normalizer import check, normalize, normalize_request, render
from normalizer.model import History, JsonMap, Message, Opaque, Text, Thinking, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes.reasoning_content import fill_reasoning_content
from normalizer.profiles import Profile, profile_from_mapping

RULE = "reasoning-content-required"


def profile(**params: Any) -> Profile:
    return profile_from_mapping({"provider": "test", "protocol": "openai_chat", "rules": [
        {"id": RULE, "forbids": "x", "status": 400, "message": "unknown", "source": "test",
         "last_verified": "2026-11-27", "confidence": "low", "params": params}]})


ON = profile(default_on_model="^thinker", placeholders=[""])
CALL = ToolCall("get_weather", {"city": "Paris"}, "call_1")
TURN = Message("assistant", (CALL,), origin="openai")
HISTORY = History((Message("user", (Text("Weather in Paris?"),)), TURN,
                   Message("tool", (ToolResult("call_1", "18C"),))))


def fill(history: History, prof: Profile = ON, model: str | None = "thinker-1",
         options: dict[str, Any] | None = None) -> tuple[History, tuple[Any, ...]]:
    draft = Draft(history, options=JsonMap(options or {}))
    out, changes = fill_reasoning_content(draft, prof, Policy(model=model))
    return out.history, changes


def test_a_foreign_call_turn_gets_the_placeholder_and_a_lossless_change() -> None:
    out, changes = fill(HISTORY)
    assert out.messages[1].parts == (Thinking(""), CALL)
    assert out.messages[1].origin == "openai"
    assert [(c.code, c.where, c.lossless) for c in changes] == [
        ("fill-reasoning-content", "messages[1]", True)]
    assert "'get_weather'" in changes[0].what and "openai" in changes[0].what
    assert render(out, "openai_chat")["messages"][1]["reasoning_content"] == ""
    assert fill(out) == (out, ())  # idempotent


@pytest.mark.parametrize(("model", "options"), [
    ("other-model", None),  # the model does not think by default
    ("thinker-1", {"thinking": {"type": "disabled"}}),  # turned off in the request
    (None, None),  # model unknown: the rule's default cannot be read
])
def test_nothing_to_fill_with_thinking_off(model: str | None,
                                           options: dict[str, Any] | None) -> None:
    assert fill(HISTORY, model=model, options=options) == (HISTORY, ())


def test_thinking_turned_on_in_the_request_fills_for_any_model() -> None:
    out, changes = fill(HISTORY, model=None, options={"thinking": {"type": "enabled"}})
    assert len(changes) == 1 and out.messages[1].parts[0] == Thinking("")


def test_no_placeholder_no_repair() -> None:
    """A profile that names no value the vendor takes for none (Moonshot's) is left as is."""
    assert fill(HISTORY, prof=profile(default_on_model="^thinker")) == (HISTORY, ())


def test_turns_with_reasoning_and_turns_without_calls_are_left() -> None:
    reasoned = Message("assistant", (Thinking("I call it."), CALL))
    text = Message("assistant", (Text("It is 18C."),))
    history = History((*HISTORY.messages[:1], reasoned, HISTORY.messages[2], text))
    assert fill(history) == (history, ())


def test_a_call_kept_verbatim_counts_as_a_call() -> None:
    """A custom tool call renders into `tool_calls` as it came: the turn needs the field."""
    custom = Opaque("openai_chat", "custom", {"type": "custom", "id": "c1",
                                              "custom": {"name": "grep", "input": "x"}},
                    slot="call")
    history = History((HISTORY.messages[0], Message("assistant", (custom,))))
    out, changes = fill(history)
    assert out.messages[1].parts == (Thinking(""), custom)
    assert "a custom call" in changes[0].what


@pytest.mark.parametrize(("provider", "model", "resting"), [
    ("deepseek", "deepseek-v4-flash", "deepseek-chat"),
    ("moonshot", "kimi-k2.5", "kimi-k2-0905-preview")])
def test_a_history_from_openai_passes_check_after_normalize(
        emu: Any, provider: str, model: str, resting: str) -> None:
    """The built-in profiles: raw, the turn breaks the rule (and the emulator refuses it
    through the SDK); normalized, it is sent with a single-space reasoning_content (the
    value no report says either vendor refuses) and passes, and a second normalize changes
    nothing."""
    raw = render(HISTORY, "openai_chat", model=model)
    assert [v.rule for v in check(raw, provider, model=model)] == [RULE]
    sdk = calls.client("openai_chat", emu.sdk_base_url(provider))
    assert calls.refused("openai_chat", sdk, raw).status == 400
    out = normalize(HISTORY, provider, model=model)
    assert [c.code for c in out.changes] == ["fill-reasoning-content"]
    body = out.render(model=model)
    assert body["messages"][1]["reasoning_content"] == " "
    assert check(body, provider, model=model) == ()
    assert calls.text_of("openai_chat", calls.send("openai_chat", sdk, body)) == "ok"
    assert normalize_request(body, "openai_chat", provider, model=model).changes == ()
    # A model that does not think by default: nothing to fill.
    assert normalize(HISTORY, provider, model=resting).changes == ()


def test_another_vendors_reasoning_goes_as_its_text_not_the_placeholder() -> None:
    """DeepSeek takes unsigned reasoning text: Anthropic's thinking on the turn is sent as
    the field (its signature has no place there), and nothing is filled."""
    turn = Message("assistant", (Thinking("Let me check.", signature="sig", vendor="anthropic"),
                                 CALL), origin="anthropic")
    history = History((HISTORY.messages[0], turn, HISTORY.messages[2]))
    out = normalize(history, "deepseek", model="deepseek-v4-pro")
    assert "fill-reasoning-content" not in [c.code for c in out.changes]
    body = out.render(model="deepseek-v4-pro")
    assert body["messages"][1]["reasoning_content"] == "Let me check."
    assert check(body, "deepseek", model="deepseek-v4-pro") == ()

"""Rules scoped by model, date and endpoint (normalizer/scope.py): profiles load them, and
check() and normalize() keep only the rules that hold for the request."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from normalizer.check import check
from normalizer.errors import ProfileError
from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.normalize import normalize
from normalizer.profiles import profile_from_mapping
from normalizer.scope import date_in, endpoint_in, model_in

LONG = "call_" + "x" * 46  # 51 characters, as in vercel/ai#17233


def rule(**extra: Any) -> dict[str, Any]:
    return {"id": "tool-call-id-too-long", "forbids": "long ids", "status": 400,
            "message": "too long: {length}", "source": "o/r#1", "last_verified": "2026-01-01",
            "confidence": "high", "params": {"max_length": 40, "check": ["calls"]}, **extra}


def profile(*rules: dict[str, Any]) -> Any:
    return profile_from_mapping({"provider": "p", "protocol": "openai_chat",
                                 "rules": list(rules)})


def body(model: str = "gpt-4o") -> dict[str, Any]:
    return {"model": model, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [{"id": LONG, "type": "function",
                                              "function": {"name": "f", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": LONG, "content": "ok"}]}


def test_globs_and_windows() -> None:
    assert model_in(["gpt-4o*"], "gpt-4o-mini", when_unknown=False)
    assert not model_in(["gpt-4o*"], "gpt-5", when_unknown=True)
    assert model_in(["gemini-3*"], "models/gemini-3-pro", when_unknown=False)
    assert model_in(["gpt-4o*"], "unknown", when_unknown=True)
    assert model_in(["!claude-opus-4-8*"], "claude-sonnet-4-5", when_unknown=False)
    assert not model_in(["!claude-opus-4-8*"], "claude-opus-4-8", when_unknown=True)
    assert not model_in(["gemini-*", "!gemini-3*"], "models/gemini-3-flash", when_unknown=True)
    assert date_in("2025-01-01", "2026-07-14", "2026-07-13")
    assert not date_in("2025-01-01", "2026-07-14", dt.date(2026, 7, 14))
    assert not date_in("2025-01-01", "", "2024-12-31")
    assert endpoint_in(["*.openai.azure.com/*"], "https://r.openai.azure.com/openai/x")
    assert not endpoint_in(["*.openai.azure.com/*"], "api.openai.com/v1/chat/completions")


def test_until_scopes_a_rule_in_time() -> None:
    scoped = profile(rule(until="2026-07-14"))
    assert [v.rule for v in check(body(), scoped, on="2025-07-24")] == ["tool-call-id-too-long"]
    assert check(body(), scoped, on="2026-07-14") == ()
    assert check(body(), scoped) == ()  # today is after `until`


def test_two_scoped_copies_of_one_rule() -> None:
    later = rule(since="2026-07-14", params={"max_length": 64, "check": ["calls"]})
    two = profile(rule(until="2026-07-14"), later)
    assert [r.id for r in two.rules] == ["tool-call-id-too-long"] * 2
    assert check(body(), two, on="2026-08-01") == ()
    longer = body()
    longer["messages"][1]["tool_calls"][0]["id"] = "c" * 70
    assert [v.message for v in check(longer, two, on="2026-08-01")] == ["too long: 70"]


def test_models_and_endpoints_scope_a_rule() -> None:
    scoped = profile(rule(models=["gpt-4o*"], endpoints=["*.azure.com/*"]))
    assert check(body("gpt-5"), scoped) == ()
    assert check(body(), scoped, endpoint="api.openai.com/v1/chat/completions") == ()
    assert len(check(body(), scoped, endpoint="x.openai.azure.com/openai/v1")) == 1
    assert len(check(body("unknown"), scoped)) == 1  # unknown model: the vendor may enforce it


def test_unscoped_duplicates_and_bad_scopes_are_refused() -> None:
    with pytest.raises(ProfileError, match="listed twice"):
        profile(rule(), rule(until="2026-07-14"))
    with pytest.raises(ProfileError, match="until"):
        profile(rule(since="2026-07-14", until="2026-01-01"))
    with pytest.raises(ProfileError, match="models"):
        profile(rule(models="gpt-4o*"))


def test_a_wording_gives_some_models_other_words_and_the_rule_stays_one() -> None:
    worded = profile(rule(wordings=[
        {"models": ["gpt-5*"], "message": "ids over 40: {length}",
         "error": {"type": "invalid_request_error", "code": "string_above_max_length"}}]))
    (five,) = check(body("gpt-5-mini"), worded)
    assert (five.message, five.error["code"]) == ("ids over 40: 51", "string_above_max_length")
    # Other models, and a request whose model is not known, get the rule's own words.
    assert [v.message for v in check(body("gpt-4o"), worded)] == ["too long: 51"]
    assert [v.message for v in check(body("unknown"), worded)] == ["too long: 51"]
    # One rule: its repair runs whether the model is known or not.
    history = History((Message("user", (Text("hi"),)),
                       Message("assistant", (ToolCall("f", {}, LONG),)),
                       Message("tool", (ToolResult(LONG, "ok"),))))
    assert normalize(history, worded).changes
    assert normalize(history, worded, model="gpt-5-mini").changes


def test_bad_wordings_are_refused_with_the_field() -> None:
    for wordings, where in (("x", "wordings"), ([{"message": "m"}], "wordings[0].models"),
                            ([{"models": ["a*"]}], "wordings[0].message"),
                            ([{"models": ["a*"], "message": "m", "text": "t"}], "wordings[0]"),
                            ([{"models": ["a*"], "message": "m", "error": "e"}],
                             "wordings[0].error")):
        with pytest.raises(ProfileError, match=__import__("re").escape(where)):
            profile(rule(wordings=wordings))


def test_normalize_honours_the_scope() -> None:
    history = History((Message("user", (Text("hi"),)),
                       Message("assistant", (ToolCall("f", {}, LONG),)),
                       Message("tool", (ToolResult(LONG, "ok"),))))
    scoped = profile(rule(until="2026-07-14"))
    assert normalize(history, scoped, on="2025-07-24").changes
    assert not normalize(history, scoped, on="2026-08-01").changes
    assert not normalize(history, profile(rule(models=["gpt-4o*"])), model="gpt-5").changes


def test_openai_profile_follows_the_evidence() -> None:
    """40-character ids rejected on 2025-07-24, a 51-character id accepted on 2026-07-14."""
    assert [v.rule for v in check(body(), "openai", on="2025-07-24")] == \
        ["tool-call-id-too-long"]
    assert check(body(), "openai", on="2026-07-14") == ()


def test_check_cli_takes_the_date(tmp_path: Any, capsys: Any) -> None:
    from conformance.cli.main import main

    path = tmp_path / "body.json"
    path.write_text(json.dumps(body()), encoding="utf-8")
    assert main(["check", str(path), "--provider", "openai", "--on", "2025-07-24"]) == 1
    assert "maximum length 40" in capsys.readouterr().out
    assert main(["check", str(path), "--provider", "openai"]) == 0


def test_a_rule_whose_words_name_the_model_needs_the_model() -> None:
    # Such a rule holds for some models only and its words name the one refused ("Model
    # grok-4.3 does not support parameter presencePenalty."): without a model check() once
    # answered "Model None does not support …", no vendor's words. It now says nothing.
    body = {"messages": [{"role": "user", "content": "hi"}], "presence_penalty": 0}
    assert check(body, "xai") == ()
    assert check({**body, "model": "unknown"}, "xai") == ()  # evidence's word for it
    (found,) = check({**body, "model": "grok-4.3"}, "xai")
    assert found.message == "Model grok-4.3 does not support parameter presencePenalty."
    assert check(body, "xai", model="grok-4.3") == (found,)
    tools = {"messages": body["messages"], "tools": [{"type": "function", "function": {
        "name": "f", "parameters": {"type": "object", "properties": {}}}}]}
    assert check(tools, "openai") == ()  # GPT-5.6 reasons at medium beside tools; gpt-4o not
    assert [v.rule for v in check({**tools, "model": "gpt-5.6-terra"}, "openai")] == [
        "reasoning-effort-with-tools"]
    # A rule whose words do not name the model still holds for an unknown one: the vendor
    # may enforce it.
    thinking = {"max_tokens": 32000, "messages": body["messages"],
                "thinking": {"type": "enabled", "budget_tokens": 2000}}
    assert [v.rule for v in check(thinking, "anthropic")] == ["thinking-budget-unsupported"]

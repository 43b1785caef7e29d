"""check() against the anthropic profile: every rule has a rule case (reject -> that rule
first, accept -> nothing), every template field is filled by its detector, and hostile
bodies never crash a detector."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import fast_yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.probe.cases import RULES_DIR
from normalizer.check import check
from normalizer.errors import WireFormatError
from normalizer.profiles import load_profile

PROVIDER = "anthropic"
CASES_DIR = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = fast_yaml.load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = fast_yaml.load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())
SIG = "EghkZW1vLWFudGhyb3BpYy1zaWduYXR1cmUtMQ=="


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["role", "content", "type", "id", "text",
                                                       "tool_use_id", "signature", "name"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(messages=JSON, tools=JSON, thinking=JSON)
def test_hostile_bodies_do_not_crash(messages: Any, tools: Any, thinking: Any) -> None:
    with contextlib.suppress(WireFormatError):  # off the skeleton: unreadable, not a crash
        check({"messages": messages, "tools": tools, "thinking": thinking}, PROVIDER)


def _rules(body: dict[str, Any]) -> list[str]:
    return [v.rule for v in check(body, PROVIDER)]


def _loop(*turns: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 2048, "tools": VALID["tools"],
            "messages": [{"role": "user", "content": "Weather?"}, *turns], **extra}


def _use(call_id: str) -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": "get_weather", "input": {"city": "Oslo"}}


def _result(call_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": "3C"}


def test_results_split_over_consecutive_user_messages_are_combined() -> None:
    body = _loop({"role": "assistant", "content": [_use("toolu_1"), _use("toolu_2")]},
                 {"role": "user", "content": [_result("toolu_1")]},
                 {"role": "user", "content": [_result("toolu_2")]})
    assert _rules(body) == []


def test_every_missing_id_is_listed() -> None:
    body = _loop({"role": "assistant", "content": [_use("a"), _use("b"), _use("c")]},
                 {"role": "user", "content": [_result("b")]})
    (found,) = check(body, PROVIDER)
    assert "immediately after: a, c." in found.message and found.location.startswith("messages[1]")


def test_empty_final_assistant_message_is_a_prefill() -> None:
    assert _rules(_loop({"role": "assistant", "content": ""})) == []


def test_thinking_rules_apply_to_the_turn_in_progress_only() -> None:
    on = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    finished = _loop({"role": "assistant", "content": [_use("t1")]},
                     {"role": "user", "content": [_result("t1")]},
                     {"role": "assistant", "content": "3C in Oslo."},
                     {"role": "user", "content": "Thanks"}, **on)
    assert _rules(finished) == []
    thought = {"type": "thinking", "thinking": "hmm", "signature": SIG}
    off = _loop({"role": "assistant", "content": [thought, _use("t1")]},
                {"role": "user", "content": [_result("t1")]},
                {"role": "assistant", "content": "3C in Oslo."},
                {"role": "user", "content": "Thanks"})
    assert _rules(off) == []


def test_foreign_signatures_are_invalid_and_redacted_blocks_need_none() -> None:
    on = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    openai_token = {"type": "thinking", "thinking": "hmm", "signature": "gAAAAABfernet"}
    assert _rules(_loop({"role": "assistant", "content": [openai_token, _use("t1")]},
                        {"role": "user", "content": [_result("t1")]}, **on)) \
        == ["thinking-signature-invalid"]
    redacted = {"type": "redacted_thinking", "data": "EmwKAhgB"}
    assert _rules(_loop({"role": "assistant", "content": [redacted, _use("t1")]},
                        {"role": "user", "content": [_result("t1")]}, **on)) == []

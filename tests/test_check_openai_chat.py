"""check() for the OpenAI Chat Completions family, driven by the rule cases (RULES_DIR).

Rule-case format (shared with the emulator tests): a YAML list, one entry per enforced rule
of the provider's loaded profile (inherited rules included): `rule`, optional `model`,
`reject` (a minimal body whose first violation is that rule) and `accept` (the smallest
change that fixes it: no violation at all). Rules a profile lists with `enforced: false`
(documented as lenient) have no case: check() never reports them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import fast_yaml
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.probe.cases import RULES_DIR
from normalizer.check import check, detectors
from normalizer.checks import openai_chat_pairing as pairing
from normalizer.model import JsonMap
from normalizer.profiles import load_profile

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
PROVIDERS = ("openai", "mistral", "groq", "deepseek", "xai", "cerebras", "fireworks", "together",
             "openrouter", "ollama", "vllm")
TABLE = detectors("openai_chat")


def load_cases(provider: str) -> list[dict[str, Any]]:
    return fast_yaml.load((CASES / f"{provider}.yaml").read_text(encoding="utf-8")) or []


def all_cases() -> list[Any]:
    return [pytest.param(p, c, id=f"{p}:{c['rule']}") for p in PROVIDERS for c in load_cases(p)]


def valid_body() -> dict[str, Any]:
    return fast_yaml.load((CASES / "valid_openai_chat.yaml").read_text(encoding="utf-8"))


def test_texts_stay_each_vendors_own() -> None:
    orphan = {"model": "m", "messages": [{"role": "user", "content": "x"},
                                         {"role": "tool", "tool_call_id": "c", "content": "y"}]}
    openai, deepseek = check(orphan, "openai")[0], check(orphan, "deepseek")[0]
    assert "preceeding" in openai.message and openai.error["param"] == "messages.[1].role"
    assert deepseek.message.startswith("Messages with role 'tool'")
    assert "preceding message" in deepseek.message and deepseek.error["param"] is None


def test_missing_result_lists_ids_and_wedged_message() -> None:
    case = next(c for c in load_cases("openai") if c["rule"] == "missing-tool-result")
    found = check(case["reject"], "openai")
    assert found[0].message.endswith("did not have response messages: call_2")
    assert found[0].location == "messages[1]"


def test_openai_id_and_name_limits_fill_lengths() -> None:
    case = next(c for c in load_cases("openai") if c["rule"] == "tool-call-id-too-long")
    message = check(case["reject"], "openai")[0].message
    assert message == ("Invalid 'messages[1].tool_calls[0].id': string too long. Expected a "
                       "string with maximum length 64, but got a string with length 65 instead.")
    before = check(case["reject"], "openai", on="2025-07-24")[0].message  # the 40 limit then
    assert "maximum length 40, but got a string with length 65" in before
    called = {"model": "m", "messages": [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "a b", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "y"}]}
    violation = check(called, "openai")[0]
    assert violation.error["param"] == "messages[1].tool_calls[0].function.name"


def test_vllm_unknown_tool_field_is_documented_lenient() -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "x"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {},
                                                       "strict": True}}]}
    rule = load_profile("vllm").rule("unknown-tool-field")
    assert rule is not None and not rule.enforced
    assert check(body, "vllm") == ()
    found = list(TABLE["unknown-tool-field"](body, rule, None))
    assert [f.location for f in found] == ["tools[0].function.strict"]


def test_deepseek_reasoning_rule_follows_thinking_switch() -> None:
    case = next(c for c in load_cases("deepseek") if c["rule"] == "reasoning-content-required")
    off = {**case["reject"], "thinking": {"type": "disabled"}}
    assert check(off, "deepseek") == ()
    other_model = {**case["reject"], "model": "deepseek-chat"}
    assert check(other_model, "deepseek") == ()
    on = {**other_model, "thinking": {"type": "enabled"}}
    assert check(on, "deepseek")[0].rule == "reasoning-content-required"


def test_results_out_of_order_detected() -> None:
    msgs = [{"role": "user", "content": "x"},
            {"role": "assistant", "tool_calls": [{"id": "a"}, {"id": "b"}]},
            {"role": "tool", "tool_call_id": "b"}, {"role": "tool", "tool_call_id": "a"}]
    rule = load_profile("openai").rules[0]
    found = list(pairing.tool_results_out_of_order({"messages": msgs}, rule, None))
    assert [f.location for f in found] == ["messages[3]"]
    in_order = [*msgs[:2], msgs[3], msgs[2]]
    assert list(pairing.tool_results_out_of_order({"messages": in_order}, rule, None)) == []
    counted = list(pairing.tool_result_count_mismatch({"messages": msgs[:3]}, rule, None))
    assert counted[0].fields == {"index": 1, "calls": 2, "results": 1}


@pytest.mark.parametrize("calls", [2, 40])  # a few ids are scanned, many looked up in a set
def test_a_result_id_is_looked_up_among_its_own_turns_calls(calls: int) -> None:
    ids = [f"c{k}" for k in range(calls)]
    msgs = [{"role": "user", "content": "x"},
            {"role": "assistant", "tool_calls": [{"id": cid} for cid in ids]},
            *({"role": "tool", "tool_call_id": cid} for cid in [*ids[::-1], "other"]),
            {"role": "assistant", "tool_calls": [{"id": "d"}]},
            {"role": "tool", "tool_call_id": "c0"}]  # an id of the turn before: not this one's
    rule = load_profile("mistral").rules[0]
    found = list(pairing.tool_result_id_mismatch({"messages": msgs}, rule, None))
    assert [f.fields["id"] for f in found] == ["other", "c0"]
    by_id = replace(rule, params=JsonMap({"by": "id"}))
    orphans = list(pairing.orphan_tool_result({"messages": msgs}, by_id, None))
    assert [f.fields["id"] for f in orphans] == ["other", "c0"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["role", "content", "tool_calls", "tool_call_id", "id", "function",
                         "name", "messages", "tools", "tool_choice", "thinking", "prefix",
                         "type", "reasoning_content"]), inner, max_size=4),
    max_leaves=12)


CALL = st.fixed_dictionaries({}, optional={"id": JSON, "type": JSON, "function": JSON})
MESSAGE = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "system", "developer"])},
    optional={"content": JSON, "tool_calls": st.lists(CALL | JSON, max_size=3) | JSON,
              "tool_call_id": JSON, "prefix": JSON, "reasoning_content": JSON})
BODY = st.fixed_dictionaries(
    {"messages": st.lists(MESSAGE | JSON, max_size=6) | JSON},
    optional={"tools": st.lists(st.fixed_dictionaries({}, optional={"type": JSON,
                                                                      "function": JSON}),
                                max_size=2) | JSON,
              "tool_choice": JSON, "thinking": JSON, "model": JSON})


@settings(max_examples=40, deadline=None)
@given(body=BODY)
def test_detectors_never_crash_on_hostile_bodies(body: dict[str, Any]) -> None:
    for provider in ("openai", "mistral", "groq", "deepseek", "vllm"):
        for rule in load_profile(provider).rules:
            list(TABLE[rule.id](body, rule, "deepseek-v4-flash"))


def test_undocumented_vendors_inherit_openai_pairing_marked_low() -> None:
    for provider in ("xai", "fireworks", "together", "openrouter", "groq", "cerebras"):
        inherited = [r for r in load_profile(provider).rules if r.inherited]
        assert [r.id for r in inherited] == ["missing-tool-result", "orphan-tool-result"]
        assert all(r.confidence == "low" for r in inherited)
    assert load_profile("ollama").rules == ()


def test_unknown_field_texts_are_filled_verbatim() -> None:
    case = next(c for c in load_cases("groq") if c["rule"] == "unknown-message-field")
    assert check(case["reject"], "groq")[0].message == (
        "'messages.1' : for 'role:assistant' the following must be satisfied"
        "[('messages.1' : property 'reasoning_content' is unsupported)]")
    cerebras = check(case["reject"], "cerebras")[0]
    assert cerebras.message == ("messages.1.assistant.reasoning_content: property "
                                "'messages.1.assistant.reasoning_content' is unsupported")
    assert cerebras.error["code"] == "wrong_api_format"

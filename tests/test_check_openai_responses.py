"""check() against the openai_responses profile: every rule has a rule case (reject -> that rule
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

PROVIDER = "openai_responses"
CASES_DIR = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = fast_yaml.load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = fast_yaml.load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["role", "content", "type", "id", "text",
                                                       "call_id", "encrypted_content",
                                                       "output"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(items=JSON, store=st.sampled_from([None, False, True]))
def test_hostile_bodies_do_not_crash(items: Any, store: Any) -> None:
    with contextlib.suppress(WireFormatError):  # off the skeleton: unreadable, not a crash
        check({"input": items, "store": store}, PROVIDER)




def _rules(items: Any, **extra: Any) -> list[str]:
    return [v.rule for v in check({"model": "gpt-5", "input": items, **extra}, PROVIDER)]


USER = {"role": "user", "content": "Weather in Oslo?"}
CALL = {"type": "function_call", "call_id": "call_1", "name": "get_weather",
        "arguments": "{\"city\":\"Oslo\"}"}
OUTPUT = {"type": "function_call_output", "call_id": "call_1", "output": "3C"}
SAID = {"type": "message", "role": "assistant", "content": [{"type": "output_text",
                                                              "text": "Checking."}]}


def test_plain_string_input_has_nothing_to_check() -> None:
    assert _rules("Hello") == []


def test_a_message_between_call_and_output_is_accepted() -> None:
    assert _rules([USER, CALL, SAID, OUTPUT]) == []


def test_outputs_may_answer_a_stored_response() -> None:
    assert _rules([OUTPUT], previous_response_id="resp_1") == []
    assert _rules([OUTPUT]) == ["orphan-tool-result"]


def test_an_output_before_its_call_is_an_orphan_and_the_call_unanswered() -> None:
    assert _rules([USER, OUTPUT, CALL]) == ["missing-tool-result", "orphan-tool-result"]


def test_reasoning_must_precede_a_call_or_an_assistant_message() -> None:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}
    assert _rules([USER, reasoning, CALL, OUTPUT]) == []
    assert _rules([USER, reasoning]) == ["reasoning-item-orphan"]


def test_reasoning_by_id_only_is_a_404_when_not_stored() -> None:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": []}
    assert _rules([USER, reasoning, CALL, OUTPUT]) == []
    (found,) = check({"input": [USER, reasoning, CALL, OUTPUT], "store": False}, PROVIDER)
    assert (found.rule, found.status) == ("thinking-signature-missing", 404)

"""check() against the gemini profile: every rule has a rule case (reject -> that rule
first, accept -> nothing), every template field is filled by its detector, and hostile
bodies never crash a detector."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import fast_yaml
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.probe.cases import RULES_DIR
from normalizer.check import check
from normalizer.errors import WireFormatError
from normalizer.profiles import load_profile

PROVIDER = "gemini"
CASES_DIR = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = fast_yaml.load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = fast_yaml.load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())
G3 = "gemini-3-pro-preview"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["role", "parts", "text", "functionCall",
                                                       "functionResponse", "thoughtSignature",
                                                       "name", "functionDeclarations",
                                                       "parameters", "properties", "anyOf",
                                                       "items"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(contents=JSON, tools=JSON)
def test_hostile_bodies_do_not_crash(contents: Any, tools: Any) -> None:
    with contextlib.suppress(WireFormatError):  # off the skeleton: unreadable, not a crash
        check({"contents": contents, "tools": tools}, PROVIDER, model=G3)




def _rules(body: dict[str, Any], model: str | None = G3) -> list[str]:
    return [v.rule for v in check(body, PROVIDER, model=model)]


def _call(city: str, signature: str | None = None) -> dict[str, Any]:
    part: dict[str, Any] = {"functionCall": {"name": "get_weather", "args": {"city": city}}}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def _answers(*cities: str) -> dict[str, Any]:
    return {"role": "user", "parts": [
        {"functionResponse": {"name": "get_weather", "response": {"output": c}}} for c in cities]}


def _body(*contents: dict[str, Any]) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "Weather?"}]}, *contents],
            "tools": VALID["tools"]}


def test_only_the_first_of_parallel_calls_needs_a_signature() -> None:
    body = _body({"role": "model", "parts": [_call("Paris", "sig"), _call("Rome")]},
                 _answers("18C", "22C"))
    assert _rules(body) == []


def test_every_step_of_the_current_turn_needs_one_and_older_turns_do_not() -> None:
    older = [{"role": "model", "parts": [_call("Paris")]}, _answers("18C"),
             {"role": "model", "parts": [{"text": "18C."}]},
             {"role": "user", "parts": [{"text": "And Rome, then Oslo?"}]}]
    steps = [{"role": "model", "parts": [_call("Rome", "sig")]}, _answers("22C"),
             {"role": "model", "parts": [_call("Oslo")]}, _answers("3C")]
    (found,) = check(_body(*older, *steps), PROVIDER, model=G3)
    assert found.rule == "thought-signature-missing"
    assert found.location == "contents[7].parts[0].thoughtSignature"
    assert "`default_api:get_weather` , position 8." in found.message


def test_signature_rule_follows_the_model_prefix() -> None:
    body = _body({"role": "model", "parts": [_call("Paris")]}, _answers("18C"))
    assert _rules(body, "models/gemini-3-flash-preview") == ["thought-signature-missing"]
    assert _rules(body, "gemini-2.5-pro") == []
    assert _rules(body, None) == []


@pytest.mark.parametrize("placeholder", ["skip_thought_signature_validator",
                                         "context_engineering_is_the_way_to_go"])
def test_documented_placeholders_are_accepted(placeholder: str) -> None:
    body = _body({"role": "model", "parts": [_call("Paris", placeholder)]}, _answers("18C"))
    assert _rules(body) == []


def test_schema_keywords_are_named_at_their_proto_path() -> None:
    params = {"type": "object", "properties": {
        "city": {"type": "string"},
        "unit": {"anyOf": [{"type": "string"}, {"const": "C"}]},
        "days": {"type": "array", "items": {"type": "object", "additionalProperties": False}}}}
    body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}], "tools": [
        {"functionDeclarations": [{"name": "forecast", "parameters": params}]}]}
    fields = [v.location for v in check(body, PROVIDER)]
    base = "tools[0].function_declarations[0].parameters"
    assert fields == [f"{base}.properties[1].value.any_of[1]", f"{base}.properties[2].value.items"]


def test_results_in_separate_turns_are_a_count_mismatch_then_an_orphan() -> None:
    body = _body({"role": "model", "parts": [_call("Paris", "s"), _call("Rome")]},
                 _answers("18C"), _answers("22C"))
    assert _rules(body) == ["function-response-count", "orphan-tool-result"]


def test_a_text_turn_right_before_a_call_turn_is_misplaced() -> None:
    body = _body({"role": "model", "parts": [{"text": "Let me check."}]},
                 {"role": "model", "parts": [_call("Paris", "s")]}, _answers("18C"))
    assert _rules(body) == ["call-turn-placement"]


def test_a_deeply_nested_schema_does_not_exhaust_the_stack() -> None:
    schema: dict[str, Any] = {"type": "string", "const": "x"}
    for _ in range(3000):
        schema = {"type": "object", "properties": {"a": schema}}
    body = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}],
            "tools": [{"functionDeclarations": [{"name": "deep", "parameters": schema}]}]}
    (found,) = check(body, PROVIDER)
    assert found.location.endswith(".properties[0].value" * 3000)

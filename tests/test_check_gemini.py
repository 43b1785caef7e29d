"""check() against the gemini profile: every rule has a rule case (reject -> that rule
first, accept -> nothing), every template field is filled by its detector, and hostile
bodies never crash a detector."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import normalizer
from normalizer.check import check, detectors, template_fields
from normalizer.profiles import load_profile
from normalizer.tools import parse_declarations

PROVIDER = "gemini"
CASES_DIR = Path(__file__).parent / "rule_cases"
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = yaml.safe_load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = yaml.safe_load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())
G3 = "gemini-3-pro-preview"


def _case_id(case: dict[str, Any]) -> str:
    return str(case["rule"])


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_reject_case_reports_its_rule_first(case: dict[str, Any]) -> None:
    rule = PROFILE.rule(case["rule"])
    assert rule is not None
    found = check(case["reject"], PROVIDER, model=case.get("model"))
    assert found, "the reject body passed"
    first = found[0]
    assert (first.rule, first.status) == (rule.id, rule.status)
    texts = [first.message, *(v for v in first.error.values() if isinstance(v, str))]
    assert first.location and not any(LEFTOVER.search(text) for text in texts)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_accept_case_passes(case: dict[str, Any]) -> None:
    assert check(case["accept"], PROVIDER, model=case.get("model")) == ()


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_detector_provides_every_template_field(case: dict[str, Any]) -> None:
    rule = PROFILE.rule(case["rule"])
    assert rule is not None
    finding = next(iter(detectors(PROFILE.protocol)[rule.id](case["reject"], rule,
                                                             case.get("model"))))
    wanted = set(template_fields(rule.message))
    for value in rule.error.values():
        wanted |= set(template_fields(value)) if isinstance(value, str) else set()
    assert wanted <= {*finding.fields, "location"}


def test_every_rule_has_one_case_and_a_detector() -> None:
    ids = [r.id for r in PROFILE.rules]
    assert sorted(ids) == sorted(case["rule"] for case in CASES)
    assert set(ids) <= set(detectors(PROFILE.protocol))


@pytest.mark.parametrize("model", [None, "gemini-2.5-flash", G3])
def test_valid_conversation_passes(model: str | None) -> None:
    assert check(VALID, PROVIDER, model=model) == ()


def test_a_faithful_render_of_the_valid_body_still_passes() -> None:
    """parse -> render keeps a valid body valid (the wire modules and the checks agree)."""
    history = normalizer.parse(VALID, PROFILE.protocol)
    tools = parse_declarations(VALID.get("tools") or [], PROFILE.protocol)
    options = {k: VALID[k] for k in ("store", "include", "max_tokens") if k in VALID}
    rendered = normalizer.render(history, PROFILE.protocol, tools=tools,
                                 model=VALID.get("model"), options=options)
    assert check(rendered, PROVIDER, model=G3) == ()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, sub in items:
        yield from _paths(sub, (*path, key))


def _replaced(body: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(body)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("new", [None, 7, "x", [], {}, [None]])
def test_wrong_types_anywhere_do_not_crash(new: Any) -> None:
    for path in list(_paths(VALID))[1:]:  # the root stays a mapping: check() reads it
        check(_replaced(VALID, path, new), PROVIDER, model=G3)


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

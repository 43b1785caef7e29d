"""check() against the openai_responses profile: every rule has a rule case (reject -> that rule
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

PROVIDER = "openai_responses"
CASES_DIR = Path(__file__).parent / "rule_cases"
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = yaml.safe_load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = yaml.safe_load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())


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


def test_valid_conversation_passes() -> None:
    assert check(VALID, PROVIDER) == ()


def test_a_faithful_render_of_the_valid_body_still_passes() -> None:
    """parse -> render keeps a valid body valid (the wire modules and the checks agree)."""
    history = normalizer.parse(VALID, PROFILE.protocol)
    tools = parse_declarations(VALID.get("tools") or [], PROFILE.protocol)
    options = {k: VALID[k] for k in ("store", "include", "max_tokens") if k in VALID}
    rendered = normalizer.render(history, PROFILE.protocol, tools=tools,
                                 model=VALID.get("model"), options=options)
    assert check(rendered, PROVIDER, model=None) == ()


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
        check(_replaced(VALID, path, new), PROVIDER)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["role", "content", "type", "id", "text",
                                                       "call_id", "encrypted_content",
                                                       "output"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(items=JSON, store=st.sampled_from([None, False, True]))
def test_hostile_bodies_do_not_crash(items: Any, store: Any) -> None:
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

"""check() against the anthropic profile: every rule has a rule case (reject -> that rule
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

PROVIDER = "anthropic"
CASES_DIR = Path(__file__).parent / "rule_cases"
LEFTOVER = re.compile(r"\{[a-z_]+\}")  # a template field the detector did not fill
PROFILE = load_profile(PROVIDER)
CASES: list[dict[str, Any]] = yaml.safe_load((CASES_DIR / f"{PROVIDER}.yaml").read_text())
VALID: dict[str, Any] = yaml.safe_load((CASES_DIR / f"valid_{PROFILE.protocol}.yaml").read_text())
SIG = "EghkZW1vLWFudGhyb3BpYy1zaWduYXR1cmUtMQ=="


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
                                                       "tool_use_id", "signature", "name"]),
                                      inner, max_size=4), max_leaves=12)


@settings(max_examples=40, deadline=None)
@given(messages=JSON, tools=JSON, thinking=JSON)
def test_hostile_bodies_do_not_crash(messages: Any, tools: Any, thinking: Any) -> None:
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

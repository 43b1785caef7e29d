"""Gemini parallel function responses split over several user turns: counted over the turns
for gemini-2.5-flash (recorded accepts), in the one turn after the calls for other models."""

from __future__ import annotations

from typing import Any

import pytest

from normalizer import check


def _call(name: str) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": {"q": name}}}


def _answer(name: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"functionResponse": {"name": name,
                                                            "response": {"r": name}}}]}


def _body(answered: tuple[str, ...], then_text: bool = True) -> dict[str, Any]:
    contents: list[dict[str, Any]] = [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [_call("a"), _call("b"), _call("c")]},
        *[_answer(n) for n in answered]]
    if then_text:
        contents.append({"role": "user", "parts": [{"text": "and now?"}]})
    return {"contents": contents, "tools": [{"functionDeclarations": [
        {"name": n, "parameters": {"type": "object"}} for n in "abc"]}]}


def _rules(body: dict[str, Any], model: str | None) -> list[str]:
    return [v.rule for v in check(body, "gemini", model=model)]


@pytest.mark.parametrize("then_text", [True, False])
def test_a_split_that_answers_every_call_is_accepted_by_2_5_flash(then_text: bool) -> None:
    assert _rules(_body(("a", "b", "c"), then_text), "gemini-2.5-flash") == []


def test_a_split_that_answers_too_few_is_still_rejected_by_2_5_flash() -> None:
    assert _rules(_body(("a", "b")), "gemini-2.5-flash")[0] == "function-response-count"


@pytest.mark.parametrize("model", ["gemini-2.5-pro", None])
def test_other_models_count_in_the_one_turn_after_the_calls(model: str | None) -> None:
    assert _rules(_body(("a", "b", "c")), model)[0] == "function-response-count"


def test_a_response_turn_after_a_text_turn_is_still_an_orphan_for_2_5_flash() -> None:
    body = _body(("a", "b", "c"))
    body["contents"].append(_answer("a"))
    assert "orphan-tool-result" in _rules(body, "gemini-2.5-flash")

"""Limits are measured by search: the exact boundary in O(log n) requests, the error text's
own number as a cross-check, and an inconclusive answer never sets a limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from conformance.classify import Outcome
from conformance.probe.cases import probe_set
from conformance.probe.limits import stated_limit
from conformance.probe.observe import case_requests, observe
from conformance.probe.profile import Probed, attribute, profile_data
from normalizer.profiles import profile_from_mapping

OK = Outcome(200, {"id": "x"})
PROBED = Probed(name="acme", base_url="http://127.0.0.1:1/v1", model="m", date="2026-11-23")
ID_CASE = probe_set("openai_chat").case("tool-call-id-too-long")


def id_of(body: Mapping[str, Any]) -> str:
    return str(body["messages"][1]["tool_calls"][0]["id"])


def server(limit: int, said: int | None = None, fail_at: int | None = None) -> Any:
    """An endpoint that rejects ids longer than `limit`, its text naming `said`; a 500 for
    an id of length `fail_at`. Records the lengths it was sent."""
    seen: list[int] = []

    def send(body: Mapping[str, Any]) -> Outcome:
        n = len(id_of(body))
        seen.append(n)
        if n == fail_at:
            return Outcome(500, {"error": {"message": "upstream"}})
        if n <= limit:
            return OK
        return Outcome(400, {"error": {"message": f"Invalid 'messages[1].tool_calls[0].id': "
                                       f"string too long. Expected a string with maximum "
                                       f"length {said or limit}, but got a string with length "
                                       f"{n} instead.", "type": "invalid_request_error"}})
    send.seen = seen  # type: ignore[attr-defined]
    return send


@pytest.mark.parametrize("limit", [1, 8, 16, 40, 127, 255])
def test_the_exact_limit_is_found_in_few_requests(limit: int) -> None:
    assert ID_CASE is not None
    send = server(limit)
    found = observe(send, ID_CASE)
    assert (found.finding, found.limit) == ("enforced", limit)
    assert len(send.seen) <= case_requests(ID_CASE) == 10
    assert send.seen[:2] == [256, 1]  # the ceiling, then the floor as valid neighbour
    assert "The error text names the same limit" in found.notes
    assert len(id_of(found.breaking)) == limit + 1  # the text kept is the one just above


def test_the_issue_server_is_measured_at_16_not_written_as_40() -> None:
    """ids over 16 rejected: the old probe saw 41 and 40 both rejected and wrote 40."""
    assert ID_CASE is not None
    probes = probe_set("openai_chat")
    found = attribute([observe(server(16), ID_CASE)], probes, "m")
    data = profile_data(found, probes, PROBED)
    rule = profile_from_mapping(data).rule("tool-call-id-too-long")
    assert rule is not None and rule.enforced and rule.params["max_length"] == 16
    assert "16 accepted, 17 rejected" in rule.notes
    assert "maximum length 16" in rule.observed["text"]


def test_a_text_that_names_another_number_is_noted() -> None:
    assert ID_CASE is not None
    found = observe(server(20, said=32), ID_CASE)
    assert found.limit == 20
    assert "The error text names 32, but the search found 20" in found.notes


def test_no_limit_up_to_the_ceiling_is_lenient() -> None:
    assert ID_CASE is not None
    found = observe(server(1000), ID_CASE)
    assert (found.finding, found.limit, len(found.exchanges)) == ("lenient", None, 1)


def test_an_inconclusive_answer_never_sets_a_limit() -> None:
    assert ID_CASE is not None
    probes = probe_set("openai_chat")
    found = observe(server(16, fail_at=128), ID_CASE)  # 128 is the first search point
    assert (found.finding, found.limit) == ("inconclusive", None)
    assert "at max_length 128 was inconclusive" in found.reason
    rule = profile_from_mapping(profile_data([found], probes, PROBED)).rule(
        "tool-call-id-too-long")
    assert rule is not None and not rule.enforced and "max_length" not in rule.params
    assert rule.confidence == "low" and "names max_length 16" in rule.notes


def test_a_rejected_floor_is_inconclusive() -> None:
    assert ID_CASE is not None
    found = observe(server(0), ID_CASE)
    assert found.finding == "inconclusive" and "neighbour was not accepted" in found.reason


@pytest.mark.parametrize(("text", "number"), [
    ("Expected a string with maximum length 16, but got 40", 16),
    ("tool call id must be at most 9 characters", 9),
    ("name exceeds the maximum length of 64", 64),
    ("Invalid 'messages[1].tool_calls[0].id': too long", None),
])
def test_stated_limit_reads_the_number_of_the_text(text: str, number: int | None) -> None:
    assert stated_limit(text) == number


@pytest.mark.parametrize(("text", "sent", "number"), [
    # OpenAI (tailcallhq/forgecode#1185): the value sent comes first and is not the limit.
    ("max_tokens is too large: 16385. This model supports at most 16384 completion tokens, "
     "whereas you provided 16385.", 16385, 16384),
    # Anthropic (BerriAI/litellm#15715): the number the value was compared with.
    ("max_tokens: 64001 > 64000, which is the maximum allowed number of output tokens for "
     "claude-sonnet-4-5-20250929", 64001, 64000),
    # DeepSeek (deepseek-ai/DeepSeek-V3#69): a range's upper end, not its "[1".
    ("Invalid max_tokens value, the valid range of max_tokens is [1, 8192]", 8193, 8192),
    # Groq (Alishahryar1/free-claude-code#1354).
    ("`max_completion_tokens` must be less than or equal to `16384`, the maximum value for "
     "`max_completion_tokens` is less than the `context_window` for this model", 16385, 16384),
])
def test_stated_limit_reads_an_output_limit_past_the_value_sent(text: str, sent: int,
                                                               number: int) -> None:
    assert stated_limit(text, sent=sent) == number


MAX_CASE = probe_set("anthropic").case("max-tokens-too-large")


def test_an_output_limit_is_searched_as_a_number_and_written_as_the_maximum() -> None:
    assert MAX_CASE is not None and MAX_CASE.limit is not None
    seen: list[int] = []

    def send(body: Mapping[str, Any]) -> Outcome:
        seen.append(body["max_tokens"])
        if body["max_tokens"] <= 32000:
            return OK
        return Outcome(400, {"type": "error", "error": {
            "type": "invalid_request_error",
            "message": f"max_tokens: {body['max_tokens']} > 32000, which is the maximum "
                       "allowed number of output tokens for claude-opus-4-1-20250805"}})

    found = observe(send, MAX_CASE)
    assert (found.finding, found.limit) == ("enforced", 32000)
    assert seen[:2] == [MAX_CASE.limit.ceiling, 1] and all(isinstance(n, int) for n in seen)
    assert len(seen) <= case_requests(MAX_CASE)
    assert "names the same limit (32000)" in found.notes
    written = profile_data([found], probe_set("anthropic"), PROBED)["rules"][0]
    assert written["params"]["maximum"] == 32000 and written["enforced"] is True

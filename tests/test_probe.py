"""The probe's logic without a server: backoff on 429, control failures, classification of
one rule's probe, attribution, and the profile it writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from loopback import Answer, Loopback

from conformance.classify import Outcome
from conformance.clients import close_clients, send
from conformance.probe import observe as probe
from conformance.probe.cases import ProbeCase, probe_set
from conformance.probe.observe import Observation, check_control, observe, send_with_backoff
from conformance.probe.profile import (
    Probed,
    attribute,
    instance_of,
    profile_data,
    summary_table,
)
from normalizer.check import check
from normalizer.profiles import profile_from_mapping

OK = Outcome(200, {"id": "x"})
PROBED = Probed(name="acme", base_url="http://127.0.0.1:1/v1", model="m", date="2026-11-22")


def scripted(*answers: Outcome) -> tuple[Any, list[Mapping[str, Any]]]:
    """A sender that answers with `answers` in turn, and the bodies it was sent."""
    sent: list[Mapping[str, Any]] = []
    queue = list(answers)

    def send(body: Mapping[str, Any]) -> Outcome:
        sent.append(body)
        return queue.pop(0)
    return send, sent


def openai_error(message: str, status: int = 400) -> Outcome:
    return Outcome(status, {"error": {"message": message, "type": "invalid_request_error",
                                      "param": None, "code": None}})


def test_429_is_retried_honouring_retry_after_then_doubling() -> None:
    send, sent = scripted(Outcome(429, {}, retry_after=7.0), Outcome(429, {}),
                          Outcome(429, {}, retry_after=500.0), OK)
    waits: list[float] = []
    outcome, attempts = send_with_backoff(send, {"a": 1}, sleep=waits.append)
    assert outcome == OK and attempts == 4 and len(sent) == 4
    assert waits == [7.0, 2.0, probe.MAX_WAIT_SECONDS]


def test_retries_are_bounded_and_other_statuses_are_not_retried() -> None:
    send, sent = scripted(*[Outcome(429, {})] * probe.MAX_ATTEMPTS)
    waits: list[float] = []
    outcome, attempts = send_with_backoff(send, {}, sleep=waits.append)
    assert outcome.status == 429 and attempts == probe.MAX_ATTEMPTS
    assert waits == [1.0, 2.0, 4.0] and len(sent) == probe.MAX_ATTEMPTS
    send, sent = scripted(Outcome(500, {}))
    assert send_with_backoff(send, {}, sleep=waits.append)[1] == 1 and len(sent) == 1


@pytest.mark.parametrize(("outcome", "code", "words"), [
    (Outcome(None, failure="connection", detail="refused"), probe.EXIT_UNREACHABLE,
     "cannot be reached"),
    (Outcome(None, failure="timeout"), probe.EXIT_UNREACHABLE, "cannot be reached"),
    (openai_error("Incorrect API key provided", 401), probe.EXIT_AUTH, "--api-key-env"),
    (openai_error("The model `m` does not exist", 404), probe.EXIT_NOT_FOUND, "--model"),
    (openai_error("tools are not supported"), probe.EXIT_CONTROL_REJECTED,
     "tools are not supported"),
    (Outcome(503, {}), probe.EXIT_UNAVAILABLE, "try again"),
])
def test_control_failure_says_why_with_its_own_exit_code(outcome: Outcome, code: int,
                                                         words: str) -> None:
    send, _ = scripted(outcome)
    failure = check_control(send, probe_set("openai_chat"), sleep=lambda s: None)
    assert failure is not None
    assert failure.exit_code == code
    assert words in failure.explain()


def test_control_accepted_is_no_failure_and_sends_the_control_body() -> None:
    send, sent = scripted(OK)
    assert check_control(send, probe_set("anthropic")) is None
    assert sent == [probe_set("anthropic").control.thaw()]


def test_rejection_counts_only_when_the_neighbour_is_accepted() -> None:
    case = probe_set("openai_chat").case("orphan-tool-result")
    assert case is not None
    send, sent = scripted(openai_error("no"), OK)
    assert observe(send, case).finding == "enforced"
    assert sent == [case.reject.thaw(), case.accept.thaw()]
    send, _ = scripted(openai_error("no"), openai_error("model overloaded"))
    found = observe(send, case)
    assert found.finding == "inconclusive" and "neighbour" in found.reason
    send, sent = scripted(OK)
    assert observe(send, case).finding == "lenient" and len(sent) == 1
    send, _ = scripted(Outcome(403, {}))
    assert observe(send, case).finding == "inconclusive"


def test_a_404_after_the_control_is_judged_by_the_neighbour() -> None:
    case = probe_set("openai_responses").case("thinking-signature-missing")
    assert case is not None
    send, _ = scripted(openai_error("Item with id 'rs_1' not found.", 404), OK)
    found = observe(send, case)
    assert found.finding == "enforced" and found.verdict.status == 404


def test_instance_of_needs_the_fixed_words_and_fills_fields() -> None:
    assert instance_of("Unexpected role '{role}' after role '{previous}'",
                       "Unexpected role 'user' after role 'tool'")
    assert not instance_of("Unexpected role '{role}' after role '{previous}'",
                           "Unexpected role 'user' before role 'tool'")
    assert not instance_of("{message}", "anything at all")


def test_another_rules_text_makes_the_finding_inconclusive() -> None:
    probes = probe_set("openai_chat")
    case = probes.case("tool-name-too-long")
    assert case is not None and "tool-name-invalid" in case.also
    def send(body: Mapping[str, Any]) -> Outcome:  # names over 64 rejected in Mistral's words
        name = body["tools"][0]["function"]["name"]
        return openai_error(f"Function name was {name} but must be a-z, A-Z, 0-9, or contain "
                            "underscores and dashes, with a maximum length of 64.") \
            if len(name) > 64 else OK
    (found,) = attribute([observe(send, case)], probes, "m")
    assert found.finding == "inconclusive" and "tool-name-invalid" in found.reason


def _refused_by_covering(protocol: str, rule: str, covering_rule: str, text: str
                         ) -> tuple[Observation, Observation, ProbeCase]:
    """`rule` observed with both of its requests refused in `text`, and `covering_rule` (one
    of its moot_if) observed with its breaking request refused in the same words and its
    neighbour taken; and the covering rule's case."""
    probes = probe_set(protocol)
    case, field = probes.case(rule), probes.case(covering_rule)
    assert case is not None and field is not None and field.rule in case.moot_if
    refused = openai_error(text)
    send, _ = scripted(refused, refused)
    both = observe(send, case)
    assert both.finding == "inconclusive"
    send, _ = scripted(refused, OK)
    return both, observe(send, field), field


def test_both_requests_refused_is_moot_only_where_the_covering_rule_is_enforced() -> None:
    probes = probe_set("openai_responses")
    both, covering, field = _refused_by_covering(
        "openai_responses", "reasoning-effort-value-unsupported", "reasoning-effort-unsupported",
        "Unsupported parameter: 'reasoning.effort' is not supported with this model.")
    assert covering.finding == "enforced"
    (alone,) = attribute([both], probes, "gpt-4.1-mini")
    assert alone.finding == "inconclusive"  # the field rule was not measured enforced
    moot, _ = attribute([both, covering], probes, "gpt-4.1-mini")
    assert moot.finding == "lenient" and "cannot be measured with this model" in moot.reason
    send, _ = scripted(OK)
    lenient = observe(send, field)
    (still, _) = attribute([both, lenient], probes, "gpt-4.1-mini")
    assert still.finding == "inconclusive"


def test_a_limit_both_of_whose_requests_are_refused_can_be_moot_too() -> None:
    # gpt-5 refuses max_tokens at any value (griptape-ai/ComfyUI-Griptape#312): the ceiling
    # and the floor of the output-limit search are both refused, for the field alone.
    both, covering, _ = _refused_by_covering(
        "openai_chat", "max-tokens-too-large", "max-tokens-field-unsupported",
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use "
        "'max_completion_tokens' instead.")
    assert len(both.exchanges) == 2
    moot, _ = attribute([both, covering], probe_set("openai_chat"), "gpt-5")
    assert moot.finding == "lenient" and "max-tokens-field-unsupported" in moot.reason


def test_written_profile_loads_and_keeps_literal_text_and_unknown() -> None:
    probes = probe_set("openai_chat")
    odd = "Bad {thing}: messages[2] is an orphan"
    answers = {"orphan-tool-result": [openai_error(odd), OK],
               "tool-call-id-missing": [Outcome(429, {})] * probe.MAX_ATTEMPTS}
    found = []
    for case in probes.cases:
        send, _ = scripted(*answers.get(case.rule, [OK]))
        found.append(observe(send, case, sleep=lambda s: None))
    data = profile_data(attribute(found, probes, "m"), probes, PROBED)
    profile = profile_from_mapping(data)
    orphan = profile.rule("orphan-tool-result")
    assert orphan is not None and orphan.enforced and orphan.confidence == "high"
    assert orphan.source == "probe of http://127.0.0.1:1/v1 on 2026-11-22"
    assert dict(orphan.observed) == {"verdict": "reject", "status": 400, "text": odd,
                                     "date": "2026-11-22"}
    case = probes.case("orphan-tool-result")
    assert case is not None
    assert check({"model": "m", **case.reject.thaw()}, profile)[0].message == odd
    missing = profile.rule("tool-call-id-missing")
    assert missing is not None and missing.confidence == "low" and missing.message == "unknown"
    lenient = profile.rule("role-order")
    assert lenient is not None and not lenient.enforced and lenient.message == "unknown"
    table = summary_table(found)
    assert f"1 enforced, {len(probes.cases) - 2} lenient, 1 inconclusive" in table


def test_retry_after_header_is_read_through_the_sdk_and_honoured() -> None:
    hits: list[str] = []

    def rate_limited_once(path: str, body: object) -> Answer:
        hits.append(path)
        if len(hits) == 1:
            return Answer.json({"error": {"message": "slow down", "type": "rate_limit"}}, 429,
                               retry_after="3")
        return Answer.json({"id": "c", "object": "chat.completion", "created": 0,
                            "model": "m", "choices": []})

    with Loopback(rate_limited_once) as server:
        try:
            def sender(body: Mapping[str, Any]) -> Outcome:
                return send("openai_chat", base_url=f"{server.url}/v1", api_key="k",
                            model="m", body=body)
            waits: list[float] = []
            outcome, attempts = send_with_backoff(sender, {"messages": []},
                                                  sleep=waits.append)
        finally:
            close_clients()
    assert outcome.status == 200 and attempts == 2 and waits == [3.0]

"""`conformance probe`: measure how strict an unprofiled endpoint is.

A valid control request goes first; if it does not come back 2xx the probe stops and says
why (unreachable, authentication, endpoint or model not found, rejected). Then each known
rule of the protocol gets its minimal breaking request (conformance/probe/cases). A 2xx
means the rule is not enforced (lenient). A 400/422 is only taken as enforcement when the
rule's nearest valid neighbour is then accepted: otherwise the rejection was about
something else, and the rule is inconclusive. Anything else (401/403/404/429 after the
retries, 5xx, timeouts) is inconclusive. probe_profile.py turns the observations into a
profile.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Literal

from conformance.classify import Outcome, Verdict, classify
from conformance.errors import ControlFailure
from conformance.probe.cases import ProbeCase, ProbeSet
from conformance.probe.limits import Search, boundary, cross_check

Send = Callable[[Mapping[str, Any]], Outcome]  # body -> outcome (model, URL and key bound)
Sleep = Callable[[float], None]
Finding = Literal["enforced", "lenient", "inconclusive"]

MAX_ATTEMPTS = 4  # per request, 429 answers included
MAX_WAIT_SECONDS = 60.0  # a longer Retry-After is cut to this
FIRST_BACKOFF_SECONDS = 1.0  # doubled after each 429 without Retry-After


@dataclass(frozen=True, slots=True)
class Observation:
    """What one rule's probe saw: the finding and the breaking request's answer."""

    rule: str
    finding: Finding
    verdict: Verdict  # the answer to the breaking request
    body: Any = None  # that answer's JSON (for the error shape and fields)
    reason: str = ""  # why inconclusive
    attempts: int = 1  # requests sent for this rule, retries included
    breaking: Any = None  # the breaking body `verdict` answers (None: the case's reject)
    exchanges: tuple[tuple[Any, Outcome], ...] = ()  # every body sent and its final answer
    limit: int | None = None  # a measured numeric parameter (largest accepted value)
    notes: str = ""  # how the limit was found, and the error text's own number
    params: Any = None  # yes-or-no parameters a case's variant measured (None: not measured)


# Exit codes of a failed control request, one per cause (0, 1 and 2 are taken by the CLI).
EXIT_UNREACHABLE, EXIT_AUTH, EXIT_NOT_FOUND, EXIT_CONTROL_REJECTED, EXIT_UNAVAILABLE = 3, 4, 5, \
    6, 7


def send_with_backoff(send: Send, body: Mapping[str, Any], *, sleep: Sleep = time.sleep,
                      attempts: int = MAX_ATTEMPTS) -> tuple[Outcome, int]:
    """(outcome, requests sent): a 429 is retried up to `attempts` requests in all, waiting
    its Retry-After (capped) or else 1 s, 2 s, 4 s; any other answer returns at once."""
    wait = FIRST_BACKOFF_SECONDS
    for attempt in range(1, attempts + 1):
        outcome = send(body)
        if outcome.status != 429 or attempt == attempts:
            return outcome, attempt
        delay = outcome.retry_after if outcome.retry_after is not None else wait
        sleep(min(delay, MAX_WAIT_SECONDS))
        wait *= 2
    raise AssertionError("unreachable: the loop returns on its last attempt")


def check_control(send: Send, probes: ProbeSet, *, sleep: Sleep = time.sleep
                  ) -> ControlFailure | None:
    """None when the valid control request is accepted, else why it was not."""
    return control(send, probes, sleep=sleep)[0]


def control(send: Send, probes: ProbeSet, *, sleep: Sleep = time.sleep
            ) -> tuple[ControlFailure | None, Outcome]:
    """The control request: (None or why it failed, and its answer)."""
    outcome, _ = send_with_backoff(send, probes.control.thaw(), sleep=sleep)
    verdict = classify(outcome)
    if verdict.kind == "accept":
        return None, outcome
    return _control_failure(outcome, verdict), outcome


def _control_failure(outcome: Outcome, verdict: Verdict) -> ControlFailure:
    status = outcome.status
    if outcome.failure in ("connection", "timeout"):
        return ControlFailure(EXIT_UNREACHABLE, "the endpoint cannot be reached",
                              "Check --base-url (scheme, host, port) and that the server runs.",
                              verdict)
    if status in (401, 403) or verdict.failure == "auth":  # Gemini answers a bad key with 400
        return ControlFailure(EXIT_AUTH, "the endpoint refused the API key",
                              "Check --api-key-env: the variable must hold a key this endpoint "
                              "accepts.", verdict)
    if status == 404 or verdict.failure == "model":
        return ControlFailure(EXIT_NOT_FOUND, "the endpoint or the model was not found",
                              "Check --base-url (it is what the SDK takes as base URL, e.g. "
                              "ending in /v1 for OpenAI-style endpoints), --protocol and "
                              "--model.", verdict)
    if verdict.kind == "reject":
        return ControlFailure(EXIT_CONTROL_REJECTED,
                              "a valid request was rejected, so no rule can be measured",
                              "Check --model (it must accept tools) and --protocol.", verdict)
    return ControlFailure(EXIT_UNAVAILABLE, "the endpoint did not answer the control request",
                          "Rate-limited, a server error or the SDK refused it: try again "
                          "later or with --concurrency 1.", verdict)


def observe(send: Send, case: ProbeCase, *, sleep: Sleep = time.sleep) -> Observation:
    """The probe of one rule: its breaking request, then (if rejected) its neighbour; a
    rule with a numeric limit is measured by search instead (limits.py)."""
    if case.limit is not None:
        return observe_limit(send, case, sleep=sleep)
    reject, accept = case.reject.thaw(), case.accept.thaw()
    outcome, sent = send_with_backoff(send, reject, sleep=sleep)
    verdict = _as_rejection(classify(outcome))
    talk: tuple[tuple[Any, Outcome], ...] = ((reject, outcome),)
    if verdict.kind == "accept":
        return Observation(case.rule, "lenient", verdict, outcome.body, attempts=sent,
                           exchanges=talk)
    if verdict.kind == "inconclusive":
        return Observation(case.rule, "inconclusive", verdict, outcome.body,
                           reason=verdict.reason, attempts=sent, exchanges=talk)
    neighbour, more = send_with_backoff(send, accept, sleep=sleep)
    talk += ((accept, neighbour),)
    seen = classify(neighbour)
    if seen.kind == "accept":
        found = Observation(case.rule, "enforced", verdict, outcome.body,
                            attempts=sent + more, exchanges=talk)
        return found if case.variant is None else observe_variant(send, case, found,
                                                                   sleep=sleep)
    return Observation(case.rule, "inconclusive", verdict, outcome.body,
                       reason=_neighbour_rejected(seen), attempts=sent + more, exchanges=talk)


def observe_variant(send: Send, case: ProbeCase, found: Observation, *,
                    sleep: Sleep = time.sleep) -> Observation:
    """An enforced rule's yes-or-no parameter (the case's variant): its breaking body, then,
    if that is refused, its neighbour. Refused and accepted, the parameter is written;
    accepted at once, it is not (the rule holds without it); any other answer leaves it
    unmeasured, said in the notes, never guessed."""
    variant = case.variant
    assert variant is not None
    named = _named(variant.params)
    reject, accept = variant.reject.thaw(), variant.accept.thaw()
    outcome, sent = send_with_backoff(send, reject, sleep=sleep)
    talk = (*found.exchanges, (reject, outcome))
    verdict = _as_rejection(classify(outcome))
    more = 0
    if verdict.kind == "accept":
        params, notes = {}, (f"A variant that breaks the rule only with {named} "
                             f"({variant.origin}'s rule case) was accepted: not set.")
    elif verdict.kind == "reject":
        neighbour, more = send_with_backoff(send, accept, sleep=sleep)
        talk += ((accept, neighbour),)
        seen = classify(neighbour)
        if seen.kind == "accept":
            params, notes = variant.params.thaw(), (
                f"A variant that breaks the rule only with {named} ({variant.origin}'s rule "
                f"case) was refused (HTTP {verdict.status}: {verdict.message}) and its "
                "neighbour accepted: set.")
        else:
            params, notes = None, (f"{named} not measured: the variant's neighbour was not "
                                   "accepted either.")
    else:
        params, notes = None, (f"{named} not measured: the variant's answer was "
                               f"inconclusive ({verdict.reason or verdict.status}).")
    return replace(found, attempts=found.attempts + sent + more, exchanges=talk,
                   params=params, notes=notes)


def _neighbour_rejected(seen: Verdict) -> str:
    said = f"HTTP {seen.status}: {seen.message}" if seen.kind == "reject" else seen.reason
    return f"its valid neighbour was not accepted either ({said}), so the rejection is not " \
           "about this rule"


def observe_limit(send: Send, case: ProbeCase, *, sleep: Sleep = time.sleep) -> Observation:
    """A numeric limit: the ceiling (breaking), the floor (neighbour), then a binary search
    between them; the answer kept is the rejection just above the limit."""
    limit = case.limit
    assert limit is not None
    search = Search(lambda body: send_with_backoff(send, body, sleep=sleep), case, limit,
                    _as_rejection)
    verdict, body, outcome = search.at(limit.ceiling)

    def found(finding: Finding, **more: Any) -> Observation:
        return Observation(case.rule, finding, verdict, outcome.body, attempts=search.sent,
                           breaking=body, exchanges=tuple(search.exchanges), **more)

    if verdict.kind == "accept":
        return found("lenient", notes=f"Accepted at {limit.param} {limit.ceiling}, the "
                                      "probe's ceiling.")
    if verdict.kind == "inconclusive":
        return found("inconclusive", reason=verdict.reason)
    low, _, _ = search.at(limit.floor)
    if low.kind != "accept":
        return found("inconclusive", reason=_neighbour_rejected(low))
    value, above, why = boundary(search, limit.floor, limit.ceiling)
    if value is None:
        return found("inconclusive", reason=why)
    if above is not None:
        verdict, body, outcome = above
    notes = (f"Measured by search between {limit.floor} and {limit.ceiling}: {value} "
             f"accepted, {value + 1} rejected. {cross_check(value, verdict.message)}")
    return found("enforced", limit=value, notes=notes)


# After an accepted control request, these statuses to a rule request may still be about
# the request (OpenAI answers an unknown reasoning item id with 404), so the neighbour
# decides; keys, rate limits and timeouts are never about the request.
_NOT_ABOUT_THE_REQUEST = frozenset({401, 403, 408, 429})
# Nor is a 4xx that classify() found to be about the key, the context length or the model.
_NOT_ABOUT_THE_RULE = frozenset({"auth", "context", "model"})


def _as_rejection(verdict: Verdict) -> Verdict:
    status = verdict.status or 0
    if verdict.kind == "inconclusive" and 400 <= status < 500 \
            and status not in _NOT_ABOUT_THE_REQUEST \
            and verdict.failure not in _NOT_ABOUT_THE_RULE:
        return replace(verdict, kind="reject", reason="")
    return verdict


def observe_all(send: Send, probes: ProbeSet, *, concurrency: int = 2,
                sleep: Sleep = time.sleep,
                progress: Callable[[Observation], None] | None = None
                ) -> tuple[Observation, ...]:
    """Every rule of `probes`, at most `concurrency` requests in flight, in case order."""
    def one(case: ProbeCase) -> Observation:
        found = observe(send, case, sleep=sleep)
        if progress is not None:
            progress(found)
        return found

    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        return tuple(pool.map(one, probes.sendable))


def _named(params: Mapping[str, Any]) -> str:
    """Parameters as the profile writes them ("adjacent: true")."""
    return ", ".join(f"{k}: {json.dumps(v)}" for k, v in params.items())


def case_requests(case: ProbeCase) -> int:
    """Most requests one rule's probe sends (retries of 429 answers aside)."""
    if case.limit is None:
        return 2 if case.variant is None else 4
    return 2 + max(0, (case.limit.ceiling - case.limit.floor - 1).bit_length())


def max_requests(probes: ProbeSet) -> int:
    """Most requests a whole probe sends: the control request and every rule's."""
    return 1 + sum(case_requests(c) for c in probes.sendable)


def requests_listing(probes: ProbeSet, model: str) -> list[str]:
    """What a probe would send, for --dry-run: one header line and the JSON body each
    (Gemini carries the model in the URL, the others in the body)."""
    def shown(body: Mapping[str, Any]) -> str:
        full = dict(body) if probes.protocol == "gemini" else {"model": model, **body}
        return "  " + json.dumps(full, ensure_ascii=False, separators=(",", ":"))

    lines = ["control (valid; the probe stops unless it is accepted):",
             shown(probes.control.thaw())]
    for n, case in enumerate(probes.sendable, start=1):
        limit = case.limit
        if limit is None:
            lines += [f"{n:>2}. {case.rule}: breaking request", shown(case.reject.thaw()),
                      f"    {case.rule}: its valid neighbour (sent only if the first is "
                      "rejected)", shown(case.accept.thaw())]
            if case.variant is not None:
                named = _named(case.variant.params)
                lines += [f"    {case.rule}: a variant that breaks it only with {named} (sent "
                          "only if the rule is enforced)", shown(case.variant.reject.thaw()),
                          f"    {case.rule}: the variant's neighbour (sent only if the "
                          "variant is rejected)", shown(case.variant.accept.thaw())]
            continue
        lines += [f"{n:>2}. {case.rule}: breaking request ({limit.param} {limit.ceiling})",
                  shown(limit.body(case.reject, limit.ceiling)),
                  f"    {case.rule}: its valid neighbour ({limit.param} {limit.floor})",
                  shown(limit.body(case.reject, limit.floor)),
                  f"    {case.rule}: then up to {case_requests(case) - 2} requests searching "
                  f"the limit between {limit.floor} and {limit.ceiling} (same body, other "
                  "lengths)"]
    return lines

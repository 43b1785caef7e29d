"""Numeric rule parameters measured by search, not confirmed at one point.

A rule with a `limit` in its probe case (an id or name length) is probed at the ceiling
first: accepted there, the endpoint has no such limit up to the ceiling (lenient). Rejected,
the floor is sent as the valid neighbour; accepted there, a binary search on the
accept/reject boundary finds the largest accepted value in O(log(ceiling - floor))
requests. Any inconclusive answer on the way (429 after the retries, 5xx, a timeout, a
rejection at the floor) makes the rule inconclusive: a guess never becomes a limit.

The endpoint's own error text is read for the number it names ("maximum length 16") as a
cross-check; when it disagrees with the search, the rule's notes say so.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from conformance.classify import Outcome, Verdict, classify
from conformance.probe.cases import Limit, ProbeCase

# (body -> (outcome, requests sent)): send_with_backoff with the sender bound.
Sender = Callable[[dict[str, Any]], tuple[Outcome, int]]
Judge = Callable[[Verdict], Verdict]  # the probe's reading of a rule answer (404 -> reject)

_STATED = re.compile(
    r"(?:maximum|max|at most|up to|no more than|no longer than|less than or equal to"
    r"|limit(?:ed)?(?: of| to| is)?"
    r"|exceeds?(?: the)?(?: maximum)?(?: length)?(?: of)?)\D{0,24}?(\d+)", re.IGNORECASE)


# A range's upper end ("the valid range of max_tokens is [1, 8192]") or the number a sent
# value was compared with ("max_tokens: 64001 > 64000, which is the maximum ...").
_BOUND = re.compile(r"\[\s*\d+\s*,\s*(\d+)\s*\]|\d\s*>\s*(\d+)")


def stated_limit(text: str, sent: int | None = None) -> int | None:
    """The limit an error text names ("Expected a string with maximum length 16"), if any;
    a number equal to `sent`, the value the request sent, is that value, not the limit
    ("max_tokens is too large: 16385. This model supports at most 16384 ...")."""
    bound = _BOUND.search(text or "")
    if bound:
        return int(bound.group(1) or bound.group(2))
    for found in _STATED.finditer(text or ""):
        if int(found.group(1)) != sent:
            return int(found.group(1))
    return None


class Search:
    """The record of one limit search: every request sent and its answer, in order."""

    def __init__(self, send: Sender, case: ProbeCase, limit: Limit, judge: Judge) -> None:
        self.send, self.case, self.limit, self.judge = send, case, limit, judge
        self.exchanges: list[tuple[dict[str, Any], Outcome]] = []
        self.sent = 0

    def at(self, n: int) -> tuple[Verdict, dict[str, Any], Outcome]:
        """Send the reject body with the placeholder at length `n`, record the exchange, and
        return the judged verdict with the body and outcome."""
        body = self.limit.body(self.case.reject, n)
        outcome, sent = self.send(body)
        self.sent += sent
        self.exchanges.append((body, outcome))
        return self.judge(classify(outcome)), body, outcome


def boundary(search: Search, accepted: int, rejected: int
             ) -> tuple[int | None, tuple[Verdict, dict[str, Any], Outcome] | None, str]:
    """(largest accepted value, the rejection just above it, "") or (None, None, why) when
    an answer on the way was inconclusive. `accepted` < `rejected` are known answers; the
    answer at `rejected` is the caller's."""
    last: tuple[Verdict, dict[str, Any], Outcome] | None = None
    while rejected - accepted > 1:
        mid = (accepted + rejected) // 2
        verdict, body, outcome = search.at(mid)
        if verdict.kind == "accept":
            accepted = mid
        elif verdict.kind == "reject":
            rejected, last = mid, (verdict, body, outcome)
        else:
            return None, None, f"the answer at {search.limit.param} {mid} was inconclusive " \
                               f"({verdict.reason or verdict.status})"
    return accepted, last, ""


def cross_check(limit: int, text: str) -> str:
    """The notes sentence comparing the searched limit with the number in the text (of the
    rejection at limit + 1)."""
    said = stated_limit(text, sent=limit + 1)
    if said is None:
        return "The error text names no number."
    if said == limit:
        return f"The error text names the same limit ({said})."
    return (f"The error text names {said}, but the search found {limit} (largest accepted); "
            "the searched value is written.")

"""The classify table: what came back -> verdict."""

from __future__ import annotations

import pytest

from conformance.classify import Outcome, classify, error_fields


@pytest.mark.parametrize(("status", "kind"), [
    (200, "accept"), (201, "accept"), (400, "reject"), (422, "reject"), (401, "inconclusive"),
    (403, "inconclusive"), (404, "inconclusive"), (408, "inconclusive"), (409, "inconclusive"),
    (413, "inconclusive"), (429, "inconclusive"), (500, "inconclusive"), (503, "inconclusive"),
])
def test_status_table(status: int, kind: str) -> None:
    assert classify(Outcome(status, {})).kind == kind


@pytest.mark.parametrize("failure", ["timeout", "connection", "sdk", "no-cassette"])
def test_failures_are_inconclusive(failure: str) -> None:
    verdict = classify(Outcome(None, failure=failure, detail="boom"))
    assert verdict.kind == "inconclusive" and verdict.reason == f"{failure}: boom"


@pytest.mark.parametrize(("body", "fields"), [
    ({"error": {"message": "m", "type": "invalid_request_error", "param": "p", "code": None}},
     ("invalid_request_error", None, "m")),
    ({"type": "error", "error": {"type": "invalid_request_error", "message": "m"}},
     ("invalid_request_error", None, "m")),
    ({"error": {"code": 400, "message": "m", "status": "INVALID_ARGUMENT"}},
     ("INVALID_ARGUMENT", "400", "m")),
    ({"object": "error", "message": "m", "type": "invalid_request_message_order", "code": "3230"},
     ("invalid_request_message_order", "3230", "m")),
    ({"detail": [{"msg": "a"}, {"msg": "b"}]}, (None, None, "a; b")),
    ("plain text", (None, None, "plain text")),
])
def test_error_fields_of_each_vendor_shape(body: object, fields: tuple) -> None:
    assert error_fields(body) == fields


def test_reject_keeps_vendor_text() -> None:
    verdict = classify(Outcome(400, {"error": {"message": "bad", "type": "t", "code": "c"}}))
    assert (verdict.kind, verdict.status, verdict.error_type, verdict.error_code,
            verdict.message) == ("reject", 400, "t", "c", "bad")

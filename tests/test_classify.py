"""The classify table: what came back -> verdict."""

from __future__ import annotations

import pytest

from conformance.classify import Outcome, classify, error_fields


@pytest.mark.parametrize(("status", "kind"), [
    (200, "accept"), (201, "accept"), (400, "reject"), (422, "reject"), (401, "inconclusive"),
    (403, "inconclusive"), (404, "inconclusive"), (408, "inconclusive"), (409, "inconclusive"),
    (413, "reject"), (429, "inconclusive"), (500, "inconclusive"), (503, "inconclusive"),
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
    # Mistral's 422 as pasted in nextcloud/integration_openai#419
    ({"detail": [{"type": "string_type", "loc": ["body", "messages", 0, "user", "content", "str"],
                  "msg": "Input should be a valid string"}]},
     ("string_type", None, "Input should be a valid string")),
    ("plain text", (None, None, "plain text")),
])
def test_error_fields_of_each_vendor_shape(body: object, fields: tuple) -> None:
    assert error_fields(body) == fields


def test_reject_keeps_vendor_text() -> None:
    verdict = classify(Outcome(400, {"error": {"message": "bad", "type": "t", "code": "c"}}))
    assert (verdict.kind, verdict.status, verdict.error_type, verdict.error_code,
            verdict.message) == ("reject", 400, "t", "c", "bad")


# Not every 400 is strictness: vendors' answers about the key, the context length or the
# model, verbatim, each with where it was seen. They must never count as a reject of the
# history.
GEMINI_BAD_KEY = {"error": {  # github.com/cequence-io/openai-scala-client/issues/109
    "code": 400, "message": "API key not valid. Please pass a valid API key.",
    "status": "INVALID_ARGUMENT",
    "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                 "reason": "API_KEY_INVALID", "domain": "googleapis.com",
                 "metadata": {"service": "generativelanguage.googleapis.com"}},
                {"@type": "type.googleapis.com/google.rpc.LocalizedMessage",
                 "locale": "en-US",
                 "message": "API key not valid. Please pass a valid API key."}]}}
OPENAI_CONTEXT = {"error": {  # github.com/crewAIInc/crewAI-examples/issues/121
    "message": "This model's maximum context length is 8192 tokens. However, your messages "
               "resulted in 8227 tokens. Please reduce the length of the messages.",
    "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}}
ANTHROPIC_CONTEXT = {"type": "error", "error": {  # github.com/sojohnnysaid/project-guide/issues/2
    "type": "invalid_request_error",
    "message": "prompt is too long: 208656 tokens > 200000 maximum"}}
# A 413 about the context window, not the body's size (anthropics/claude-code#6380, with its
# request id req_011CSPcw1jaHBKxvgq8Kga6G).
ANTHROPIC_CONTEXT_413 = {"type": "error", "error": {
    "type": "invalid_request_error", "message": "Request size exceeds model context window"}}
# Mistral's flat body (github.com/tmc/langchaingo/issues/1233). The issue does not show the
# HTTP status; 400 here is the case that matters (a 4xx other than 400/422 is inconclusive
# anyway).
MISTRAL_MODEL = {"object": "error", "message": "Invalid model: ", "type": "invalid_model",
                 "param": None, "code": "1500"}
OPENAI_MODEL = {"error": {  # 404, github.com/shobrook/wut/issues/14
    "message": "The model `gpt-4o` does not exist or you do not have access to it.",
    "type": "invalid_request_error", "param": None, "code": "model_not_found"}}
GEMINI_MODEL = {"error": {  # 404, github.com/swuecho/chat/issues/597
    "code": 404, "message": "models/gemini-2.0-pro is not found for API version v1beta, or is "
    "not supported for generateContent. Call ListModels to see the list of available models "
    "and their supported methods.", "status": "NOT_FOUND"}}


@pytest.mark.parametrize(("family", "status", "body", "failure"), [
    ("gemini", 400, GEMINI_BAD_KEY, "auth"),
    ("openai", 400, OPENAI_CONTEXT, "context"),
    ("anthropic", 400, ANTHROPIC_CONTEXT, "context"),
    ("anthropic", 413, ANTHROPIC_CONTEXT_413, "context"),
    ("mistral", 400, MISTRAL_MODEL, "model"),
    ("openai", 404, OPENAI_MODEL, "model"),
    ("gemini", 404, GEMINI_MODEL, "model"),
])
def test_a_4xx_about_key_context_or_model_is_inconclusive(family: str, status: int,
                                                          body: dict, failure: str) -> None:
    verdict = classify(Outcome(status, body))
    assert (verdict.kind, verdict.failure) == ("inconclusive", failure), family
    assert "not the history" in verdict.reason
    assert verdict.message  # the vendor's text is kept
    assert verdict.to_json()["failure"] == failure


def test_a_400_about_the_history_stays_a_reject_without_a_failure_field() -> None:
    body = {"error": {"message": "Invalid parameter: 'tool_call_id' of 'call_1' not found in "
                                 "'tool_calls' of previous message.",
                      "type": "invalid_request_error", "param": None, "code": None}}
    verdict = classify(Outcome(400, body))
    assert verdict.kind == "reject" and verdict.failure == ""
    assert "failure" not in verdict.to_json()  # older matrices read the same


def test_a_413_for_the_body_s_size_is_a_reject() -> None:
    # The edge's answer, without the usual "type": "error" (anthropics/claude-code#13501).
    body = {"error": {"type": "request_too_large", "message": "Request exceeds the maximum size"}}
    verdict = classify(Outcome(413, body))
    assert (verdict.kind, verdict.error_type, verdict.message) == (
        "reject", "request_too_large", "Request exceeds the maximum size")


def test_verdict_json_round_trips() -> None:
    from conformance.classify import Verdict

    for verdict in (classify(Outcome(400, OPENAI_CONTEXT)), classify(Outcome(200, {})),
                    classify(Outcome(None, failure="sdk", detail="x"))):
        assert Verdict.from_json(verdict.to_json()) == verdict

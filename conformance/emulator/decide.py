"""One request in, one answer out, with no I/O: route, parse, check, answer.

The order follows what a vendor does: the path, then the body's bytes (size, JSON, depth),
then its skeleton (required fields, types), then the profile's history rules through
`check()`. The first failure answers; a request that passes gets the protocol's small 200.
A body the vendor was observed answering (evidence/) gets the observed answer instead.
"""

from __future__ import annotations

import json
import re
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from conformance.emulator import errors, observed, replies, shape
from conformance.emulator.errors import VendorError
from normalizer.check import Violation, template_fields
from normalizer.errors import WireFormatError
from normalizer.profiles import Profile

Checker = Callable[..., Sequence[Violation]]  # normalizer.check's signature
MAX_DEPTH = 128

_ROUTES = {"openai_chat": "/v1/chat/completions", "openai_responses": "/v1/responses",
           "anthropic": "/v1/messages"}
_GEMINI_ROUTE = re.compile(r"^/(v1|v1beta|v1alpha)/(models|tunedModels)/([^/:]+)"
                           r":(generateContent|streamGenerateContent)$")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One served provider: its profile and the error shape it answers with."""

    provider: str
    profile: Profile
    error_format: str

    @property
    def protocol(self) -> str:
        """The profile's protocol: it picks the routes, the skeleton and the 200 answers."""
        return self.profile.protocol

    @classmethod
    def of(cls, profile: Profile) -> Endpoint:
        """The endpoint serving `profile`, its error shape resolved (errors.resolve_format)."""
        fmt = errors.resolve_format(profile.error_format, profile.protocol)
        return cls(provider=profile.provider, profile=profile, error_format=fmt)


@dataclass(frozen=True, slots=True)
class Request:
    """One HTTP request to a provider's prefix, as the server read it."""

    method: str
    path: str  # below the provider prefix, without the query
    query: Mapping[str, str]
    headers: Mapping[str, str]  # names lower-cased
    body: bytes


@dataclass(frozen=True, slots=True)
class Reply:
    """The emulator's answer: status, body bytes, content type, and what decided it."""

    status: int
    body: bytes
    content_type: str
    rule: str = ""  # the violated rule id, or what kind of bad input; "" when accepted


def decide(endpoint: Endpoint, request: Request, rid: str, checker: Checker) -> Reply:
    """The vendor's answer to `request` (rid: the request id to put in ids and errors)."""
    model = _route(endpoint.protocol, request.path)
    if model is None:
        return answer_error(endpoint, errors.not_found(request.method, request.path), rid,
                            "route")
    if request.method != "POST":
        return answer_error(endpoint, errors.method_not_allowed(request.method, request.path),
                            rid, "method")
    early = _precheck(endpoint, request)
    if early is not None:
        return answer_error(endpoint, early, rid, "bad-input")
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError) as exc:
        error = errors.bad_json(endpoint.error_format, _why(exc))
        return answer_error(endpoint, error, rid, "bad-json")
    return _decide_body(endpoint, request, body, model, rid, checker)


def _decide_body(endpoint: Endpoint, request: Request, body: Any, model: str, rid: str,
                 checker: Checker) -> Reply:
    """A parsed body: an observed answer (evidence/) if this very body was observed, else
    its skeleton, then the profile's rules."""
    seen = observed.lookup(endpoint.provider, body, model or "")
    if seen is not None and not seen.accepted:
        return answer_error(endpoint, observed.observed_error(seen), rid, "observed")
    problem = _body_problem(endpoint, body)
    if problem is not None:
        return answer_error(endpoint, problem, rid, "bad-input")
    model = model or body["model"]
    if seen is not None:  # the vendor accepted this very body: so does its emulator
        return _accept(endpoint, request, body, model, rid)
    try:
        found = checker(body, endpoint.profile, model=model)
    except WireFormatError as exc:  # off the history's skeleton (normalizer.skeleton)
        error = errors.wrong_shape(exc.where, exc.problem)
        return answer_error(endpoint, error, rid, "bad-input")
    except Exception as exc:  # a detector bug must not take the server down: say so
        print(f"emulator: check() failed for {endpoint.provider}: {exc!r}", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return answer_error(endpoint, errors.unchecked(type(exc).__name__), rid, "unchecked")
    if found:
        return _violation(endpoint, found[0], rid)
    return _accept(endpoint, request, body, model, rid)


def _route(protocol: str, path: str) -> str | None:
    """None when the vendor serves no such path; else the model the path names (Gemini),
    or the empty string when the model travels in the body."""
    if protocol == "gemini":
        match = _GEMINI_ROUTE.match(path)
        return match.group(3) if match else None
    return "" if path.rstrip("/") == _ROUTES[protocol] else None


def _precheck(endpoint: Endpoint, request: Request) -> VendorError | None:
    if endpoint.protocol == "anthropic" and "anthropic-version" not in request.headers:
        return errors.missing_version_header()
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        return errors.wrong_content_type(content_type)
    return None


def _body_problem(endpoint: Endpoint, body: Any) -> VendorError | None:
    fmt = endpoint.error_format
    if not isinstance(body, dict):
        return errors.wrong_type(fmt, "body", "an object", shape.json_kind(body))
    if shape.depth(body, MAX_DEPTH) > MAX_DEPTH:
        return errors.too_deep(MAX_DEPTH)
    problem = shape.first_problem(body, endpoint.protocol)
    if problem is None:
        return None
    if problem.kind == "missing":
        return errors.missing_field(fmt, problem.path)
    return errors.wrong_type(fmt, problem.path, problem.expected, problem.got)


def _why(exc: Exception) -> str:
    if isinstance(exc, RecursionError):
        return "nesting too deep to parse"
    return str(exc)


def _violation(endpoint: Endpoint, violation: Violation, rid: str) -> Reply:
    message = violation.message
    if not violation.message_known:
        message = errors.rule_unknown_text(violation.rule)
    left = _left_unfilled(endpoint.profile, violation)
    if left:
        _say_unfilled(endpoint.provider, violation.rule, left)
    error = replace(VendorError.from_fields(violation.status, message, violation.error),
                    location=violation.location)
    return answer_error(endpoint, error, rid, violation.rule)


def _left_unfilled(profile: Profile, violation: Violation) -> tuple[str, ...]:
    """Template fields the detector did not provide, sent as `{name}` (normalizer.check.fill)."""
    for rule in profile.rules:
        if rule.id == violation.rule and rule.message_known:
            try:
                names = template_fields(rule.message)
            except ValueError:
                return ()
            return tuple(n for n in names if "{" + n + "}" in violation.message)
    return ()


@cache  # once per provider and rule, not once per request
def _say_unfilled(provider: str, rule: str, names: tuple[str, ...]) -> None:
    print(f"emulator: {provider}: the message template of rule {rule} names "
          f"{', '.join(names)}, which its detector does not provide; sent as written",
          file=sys.stderr)


def answer_error(endpoint: Endpoint, error: VendorError, rid: str, what: str) -> Reply:
    """`error` in the endpoint's vendor shape (`what` labels it in logs and stats)."""
    body = errors.error_body(endpoint.error_format, error, rid)
    return Reply(error.status, _json(body), _json_type(endpoint), rule=what)


def _accept(endpoint: Endpoint, request: Request, body: Mapping[str, Any], model: str,
            rid: str) -> Reply:
    size = len(request.body)
    protocol = endpoint.protocol
    if protocol == "gemini":
        if request.path.endswith(":streamGenerateContent"):
            sse = request.query.get("alt") == "sse"
            text = replies.gemini_stream(model, rid, size, sse=sse)
            return Reply(200, utf8(text), _SSE if sse else _json_type(endpoint))
        return Reply(200, _json(replies.gemini(model, rid, size)), _json_type(endpoint))
    if body.get("stream") is True:
        streams = {"openai_chat": lambda: replies.chat_stream(model, rid, size, body),
                   "openai_responses": lambda: replies.responses_stream(model, rid, size),
                   "anthropic": lambda: replies.anthropic_stream(model, rid, size)}
        return Reply(200, utf8(streams[protocol]()), _SSE)
    makers = {"openai_chat": replies.chat, "openai_responses": replies.responses,
              "anthropic": replies.anthropic}
    return Reply(200, _json(makers[protocol](model, rid, size)), _json_type(endpoint))


_SSE = "text/event-stream; charset=utf-8"


def _json_type(endpoint: Endpoint) -> str:
    return "application/json; charset=UTF-8" if endpoint.protocol == "gemini" \
        else "application/json"


def _json(data: Any) -> bytes:
    return utf8(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def utf8(text: str) -> bytes:
    r"""UTF-8 that cannot fail: a lone surrogate (a JSON `\ud800` escape in the request,
    echoed back in a model name, say) is written as the JSON escape `\ud800` again."""
    return text.encode("utf-8", "backslashreplace")

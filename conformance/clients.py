"""The one seam between the suite and the vendors' official SDKs, over real HTTP.

Everything that knows an SDK's shape lives here or in sdk_clients.py (building a client,
`new_client`): the method that sends a protocol's request (`create`), the body-to-keyword
split (`sdk_kwargs`: fields the SDK method does not name go through `extra_body`, so the SDK
sends the body as rendered), the Gemini REST body -> google-genai config mapping
(`gemini_config`), a call with or without streaming (`call`), and the one exception mapper
(`outcome_of_exception`), which turns whatever an SDK raised into an `Outcome` by the
SDKs' exception types.

`send` is the suite's request: retries off (a retry would hide what the vendor said and
multiply cassette interactions), never raises, and its Outcome holds plain JSON only.
google-genai takes typed contents and config instead of a body; where it refuses a value
before sending, the outcome says so (failure "sdk").
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any

from conformance.classify import Outcome
from conformance.sdk_clients import new_client
from conformance.sdk_refusals import summarize

GEMINI_DEFAULT_MODEL = "gemini-2.5-flash"  # only when a Gemini caller names no model


def create(protocol: str, client: Any, *, raw: bool = False) -> Callable[..., Any]:
    """The SDK method that sends one request of `protocol` (for `raw`, the variant that
    returns the HTTP response). Gemini's `generate_content` takes no body: use `call`."""
    resource = {"openai_chat": lambda: client.chat.completions,
                "openai_responses": lambda: client.responses,
                "anthropic": lambda: client.messages}[protocol]()
    return resource.with_raw_response.create if raw else resource.create


def sdk_kwargs(method: Callable[..., Any], body: Mapping[str, Any]) -> dict[str, Any]:
    """`body` as keyword arguments of the SDK `method`; fields it has no parameter for go
    through `extra_body`, so they still reach the wire."""
    named = _parameters(getattr(method, "__func__", method), hasattr(method, "__func__"))
    kwargs = {k: v for k, v in body.items() if k in named}
    extra = {k: v for k, v in body.items() if k not in named}
    if extra:
        kwargs["extra_body"] = extra
    return kwargs


@functools.cache  # once per SDK method: every replayed item sends through one of a handful
def _parameters(function: Callable[..., Any], bound: bool) -> frozenset[str]:
    names = list(inspect.signature(function).parameters)
    return frozenset(names[1:] if bound else names)  # a bound method's `self` is no field


# Top-level REST fields of a generateContent body that google-genai takes in its config.
_GEMINI_CONFIG_KEYS = ("systemInstruction", "tools", "toolConfig", "safetySettings",
                       "cachedContent")


def gemini_config(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """google-genai takes contents and a config, not a body: the config is the body's
    generationConfig plus its other top-level fields (the SDK accepts the REST spellings).
    Any other top-level field (a snake_case spelling, another vendor's temperature beside
    contents) goes through the SDK's http_options.extra_body, which merges it into the body
    as it is: leaving it out would send another request than the one asked for."""
    generation = body.get("generationConfig")
    config = {**(generation if isinstance(generation, Mapping) else {}),
              **{k: body[k] for k in _GEMINI_CONFIG_KEYS if k in body}}
    extra = {k: v for k, v in body.items() if k not in _GEMINI_SENT}
    if extra:
        config["http_options"] = {"extra_body": extra}
    return config or None


# What `call` sends of a Gemini body without extra_body: the model goes in the URL.
_GEMINI_SENT = frozenset({"contents", "model", "generationConfig", *_GEMINI_CONFIG_KEYS})


def call(protocol: str, client: Any, body: Mapping[str, Any], *, model: str | None = None,
         stream: bool = False, raw: bool = False) -> Any:
    """Send `body` through `client`'s usual method; raises the SDK's own exceptions.

    Returns the SDK's parsed response (`raw`: the HTTP response; not for Gemini), or for
    `stream` an iterator over the objects the SDK yields, closed when exhausted. `model`
    is needed for Gemini only (it goes in the URL; the other protocols carry it in the body).
    """
    if protocol == "gemini":
        kwargs = {"model": model or GEMINI_DEFAULT_MODEL, "contents": body.get("contents", []),
                  "config": gemini_config(body)}
        if stream:
            return _events(lambda: client.models.generate_content_stream(**kwargs))
        return client.models.generate_content(**kwargs)
    kwargs = sdk_kwargs(create(protocol, client), body)
    if stream:
        return _events(lambda: create(protocol, client)(**kwargs, stream=True))
    return create(protocol, client, raw=raw)(**kwargs)


def _events(open_stream: Callable[[], Any]) -> Iterator[Any]:
    """The stream's objects; the request is sent on the first `next`, so a caller that
    guards its iteration also catches an error answer to the request itself."""
    opened = open_stream()
    if not hasattr(opened, "__enter__"):  # google-genai yields from a plain generator
        yield from opened
        return
    with opened as events:
        yield from events


# Building an SDK client loads the CA bundle (about 0.2 s): clients are kept per
# (protocol, base URL, key) for the life of the process (siblings of one SDK and key share
# one connection pool: `_sibling`) and closed by close_clients().
_CLIENTS: dict[tuple[str, str, str], Any] = {}
_LOCK = threading.Lock()


def _client(protocol: str, base_url: str, api_key: str) -> Any:
    key = (protocol, base_url, api_key)
    with _LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = _sibling(protocol, base_url, api_key) \
                or new_client(protocol, base_url, api_key)
        return _CLIENTS[key]


def _sibling(protocol: str, base_url: str, api_key: str) -> Any:
    """A kept openai or anthropic client of the same SDK and key, re-pointed at `base_url`
    with the SDK's own `with_options`: it shares the HTTP connection pool and CA bundle,
    so a replay of cassettes recorded at ~250 base URLs builds one client, not ~250."""
    family = _FAMILY.get(protocol)
    for (other, _, key), client in _CLIENTS.items():
        if family is not None and _FAMILY.get(other) == family and key == api_key:
            return client.with_options(base_url=base_url)
    return None


_FAMILY = {"openai_chat": "openai", "openai_responses": "openai", "anthropic": "anthropic"}


def close_clients() -> None:
    """Close every cached SDK client (the next send builds new ones)."""
    with _LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        client.close()


def send(protocol: str, *, base_url: str, api_key: str, model: str,
         body: Mapping[str, Any]) -> Outcome:
    """Send `body` with the official SDK of `protocol`; never raises for what the vendor
    or the transport did (the Outcome says it)."""
    try:
        client = _client(protocol, base_url, api_key)
        if protocol == "gemini":
            response = call(protocol, client, body, model=model)
            return Outcome(200, response.model_dump(mode="json", exclude_none=True))
        raw = call(protocol, client, {"model": model, **body}, raw=True)
        return Outcome(raw.status_code, _json(raw.text))
    except Exception as exc:  # every SDK raises its own tree: mapped in one place
        return outcome_of_exception(exc, api_key)


def outcome_of_exception(exc: BaseException, api_key: str = "") -> Outcome:
    """Any exception an SDK call raised -> Outcome, by type. The key is scrubbed from any
    text kept, and the body is plain JSON (an SDK object inside it becomes its text)."""
    kinds = _kinds()
    if any(isinstance(e, kinds.cassette_mismatch) for e in _chain(exc)):
        return Outcome(None, failure="cassette-mismatch", detail=_scrub(_named(exc), api_key))
    status = _http_status(exc, kinds)
    if status is not None:
        response = getattr(exc, "response", None)
        return Outcome(status, _scrub(plain_json(_error_body(exc, kinds)), api_key),
                       retry_after=_retry_after(response))
    if isinstance(exc, kinds.timeout):
        return Outcome(None, failure="timeout", detail=_scrub(str(exc), api_key))
    if isinstance(exc, kinds.connection):
        cause = exc.__cause__ or exc.__context__
        detail = _named(exc) + (f" (caused by {_named(cause)})" if cause else "")
        return Outcome(None, failure="connection", detail=_scrub(detail, api_key))
    # Refused before sending: in a form that does not change with pydantic's version.
    return Outcome(None, failure="sdk", detail=_scrub(summarize(exc), api_key))


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """`exc` and its causes (the SDKs wrap transport errors with `raise ... from`)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _kinds() -> SimpleNamespace:
    """The exception types the mapper tells apart, from the SDKs this process has imported:
    an exception of an SDK's type cannot exist before its SDK is imported, and importing
    the other two would cost about two seconds of a CLI run or a plugin subprocess."""
    return _kinds_of(frozenset(name for name in _SDK_MODULES if _imported(name)))


def _imported(name: str) -> bool:
    """Whether module `name` is in sys.modules and done importing: a probe's threads map
    exceptions while another thread may still be importing an SDK (its module is then in
    sys.modules without its attributes; none of its exceptions can exist yet)."""
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    return module is not None and not getattr(spec, "_initializing", False)


# The SDKs, vcrpy, and the HTTP libraries google-genai raises from unwrapped (httpx2, which
# the SDKs here bring, or httpx).
_SDK_MODULES = ("openai", "anthropic", "google.genai.errors", "vcr.errors", "httpx2", "httpx")


@functools.cache
def _kinds_of(loaded: frozenset[str]) -> SimpleNamespace:
    def types(module: str, *names: str) -> tuple[type[BaseException], ...]:
        return tuple(getattr(sys.modules[module], n) for n in names) if module in loaded \
            else ()

    sdks = ("openai", "anthropic")
    return SimpleNamespace(
        cassette_mismatch=types("vcr.errors", "CannotOverwriteExistingCassetteException"),
        status=tuple(t for m in sdks for t in types(m, "APIStatusError")),
        gemini=types("google.genai.errors", "APIError"),
        timeout=(*(t for m in sdks for t in types(m, "APITimeoutError")), TimeoutError,
                 *(t for m in _HTTP for t in types(m, "TimeoutException"))),
        # ConnectionError covers the network guard's NetworkBlockedError.
        connection=(*(t for m in sdks for t in types(m, "APIConnectionError")),
                    ConnectionError, *(t for m in _HTTP for t in types(m, "TransportError"))))


def _http_status(exc: BaseException, kinds: SimpleNamespace) -> int | None:
    if isinstance(exc, kinds.status):
        return int(exc.status_code)  # type: ignore[attr-defined]
    if isinstance(exc, kinds.gemini) and isinstance(exc.code, int):  # type: ignore[attr-defined]
        return int(exc.code)  # type: ignore[attr-defined]
    return None


def _error_body(exc: BaseException, kinds: SimpleNamespace) -> Any:
    """The vendor's error JSON as it came over the wire (the SDKs' `.body` and `.details`
    are parsed or typed views of part of it)."""
    if isinstance(exc, kinds.gemini):
        return exc.details  # type: ignore[attr-defined]  # google-genai keeps the JSON here
    response = getattr(exc, "response", None)
    return _json(getattr(response, "text", ""))


# Read from sys.modules, never imported here: while the mapper imported them, concurrent
# probes failed now and then with "partially initialized module 'httpx' has no attribute
# 'Timeout'" in a thread building an SDK client (tests/test_probe_measure.py, 2026-11-28).
_HTTP = ("httpx2", "httpx")


def _named(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def plain_json(value: Any) -> Any:
    """`value` as plain JSON data: anything json cannot write becomes its `str`."""
    try:
        return json.loads(json.dumps(value, default=str))
    except (TypeError, ValueError):
        return str(value)


def _retry_after(response: Any) -> float | None:
    """Seconds from a Retry-After header given in seconds (the HTTP-date form is ignored)."""
    headers = getattr(response, "headers", None)
    value = headers.get("retry-after") if headers is not None else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return text


def _scrub(value: Any, api_key: str) -> Any:
    if not api_key or len(api_key) < 4:
        return value
    text = json.dumps(value) if not isinstance(value, str) else value
    if api_key not in text:
        return value
    cleaned = text.replace(api_key, "[redacted]")
    return cleaned if isinstance(value, str) else json.loads(cleaned)

"""One call per protocol through the vendor's official SDK, over real HTTP.

Retries are off (each request is sent once: a retry would hide what the vendor said and
multiply cassette interactions). The request body is what `normalizer.render` produced;
it is handed to the SDK as its keyword parameters, with fields the SDK method does not
name sent through `extra_body`, so the SDK sends that body. google-genai takes typed
contents and config instead of a body: `_gemini_call` maps the REST body onto them, and
where the SDK refuses a value before sending, the outcome says so (failure "sdk").
"""

from __future__ import annotations

import inspect
import json
import threading
from collections.abc import Callable, Mapping
from typing import Any

from conformance.classify import Outcome

TIMEOUT_SECONDS = 60.0


def send(protocol: str, *, base_url: str, api_key: str, model: str,
         body: Mapping[str, Any]) -> Outcome:
    """Send `body` with the official SDK of `protocol`; never raises for HTTP errors."""
    call = _CALLS[protocol]
    try:
        return call(base_url, api_key, model, dict(body))
    except Exception as exc:  # the SDKs' own exception trees differ; map them in one place
        return outcome_of_exception(exc, api_key)


def sdk_kwargs(method: Callable[..., Any], body: Mapping[str, Any]) -> dict[str, Any]:
    """`body` as keyword arguments of the SDK `method`; fields it has no parameter for go
    through `extra_body`, so they still reach the wire."""
    named = set(inspect.signature(method).parameters)
    kwargs = {k: v for k, v in body.items() if k in named}
    extra = {k: v for k, v in body.items() if k not in named}
    if extra:
        kwargs["extra_body"] = extra
    return kwargs


# Building an SDK client loads the CA bundle (about 0.2 s): clients are kept per
# (protocol, base URL, key) for the life of the process and closed by close_clients().
_CLIENTS: dict[tuple[str, str, str], Any] = {}
_LOCK = threading.Lock()


def _client(protocol: str, base_url: str, api_key: str) -> Any:
    key = (protocol, base_url, api_key)
    with _LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = new_client(protocol, base_url, api_key)
        return _CLIENTS[key]


def new_client(protocol: str, base_url: str, api_key: str,
               timeout: float = TIMEOUT_SECONDS) -> Any:
    """The official SDK client of `protocol` at `base_url`, retries off."""
    if protocol in {"openai_chat", "openai_responses"}:
        import openai

        return openai.OpenAI(api_key=api_key, base_url=base_url, max_retries=0,
                             timeout=timeout)
    if protocol == "anthropic":
        import anthropic

        return anthropic.Anthropic(api_key=api_key, base_url=base_url, max_retries=0,
                                   timeout=timeout)
    from google import genai
    from google.genai import types

    options = types.HttpOptions(base_url=base_url, timeout=int(timeout * 1000),
                                retry_options=types.HttpRetryOptions(attempts=1))
    return genai.Client(api_key=api_key, http_options=options)


# Top-level REST fields of a generateContent body that google-genai takes in its config.
_GEMINI_CONFIG_KEYS = ("systemInstruction", "tools", "toolConfig", "safetySettings",
                       "cachedContent")


def gemini_config(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """google-genai takes contents and a config, not a body: the config is the body's
    generationConfig plus its other top-level fields (the SDK accepts the REST spellings)."""
    generation = body.get("generationConfig")
    config = {**(generation if isinstance(generation, Mapping) else {}),
              **{k: body[k] for k in _GEMINI_CONFIG_KEYS if k in body}}
    return config or None


def close_clients() -> None:
    with _LOCK:
        clients = list(_CLIENTS.values())
        _CLIENTS.clear()
    for client in clients:
        client.close()


def _openai_chat(base_url: str, api_key: str, model: str, body: dict[str, Any]) -> Outcome:
    client = _client("openai_chat", base_url, api_key)
    method = client.chat.completions.with_raw_response.create
    raw = method(**sdk_kwargs(client.chat.completions.create, {"model": model, **body}))
    return Outcome(raw.status_code, _json(raw.text))


def _openai_responses(base_url: str, api_key: str, model: str, body: dict[str, Any]) -> Outcome:
    client = _client("openai_responses", base_url, api_key)
    method = client.responses.with_raw_response.create
    raw = method(**sdk_kwargs(client.responses.create, {"model": model, **body}))
    return Outcome(raw.status_code, _json(raw.text))


def _anthropic(base_url: str, api_key: str, model: str, body: dict[str, Any]) -> Outcome:
    client = _client("anthropic", base_url, api_key)
    method = client.messages.with_raw_response.create
    raw = method(**sdk_kwargs(client.messages.create, {"model": model, **body}))
    return Outcome(raw.status_code, _json(raw.text))


def _gemini_call(base_url: str, api_key: str, model: str, body: dict[str, Any]) -> Outcome:
    client = _client("gemini", base_url, api_key)
    response = client.models.generate_content(model=model, contents=body.get("contents", []),
                                               config=gemini_config(body))
    payload = response.model_dump(mode="json", exclude_none=True)
    return Outcome(200, payload)


_CALLS: dict[str, Callable[[str, str, str, dict[str, Any]], Outcome]] = {
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini_call,
}


def outcome_of_exception(exc: Exception, api_key: str) -> Outcome:
    """SDK exception -> Outcome. The key is scrubbed from any text kept."""
    status = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    response = getattr(exc, "response", None)
    if isinstance(status, int) and status >= 100:
        body = getattr(exc, "details", None)  # google-genai keeps the parsed JSON here
        if body is None and response is not None:
            body = _json(getattr(response, "text", ""))
        return Outcome(status, _scrub(body, api_key), retry_after=_retry_after(response))
    name = type(exc).__name__
    if "Timeout" in name:
        return Outcome(None, failure="timeout", detail=_scrub(str(exc), api_key))
    if "Connection" in name or "Connect" in name or "CannotOverwrite" in name:
        cause = exc.__cause__ or exc.__context__
        detail = f"{name}: {exc}" + (f" (caused by {type(cause).__name__}: {cause})" if cause
                                     else "")
        return Outcome(None, failure="connection", detail=_scrub(detail, api_key))
    return Outcome(None, failure="sdk", detail=_scrub(f"{name}: {exc}", api_key))


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

"""Scenario × provider × mode -> the request body to send, and the repairs made for it.

raw: the history rendered as a naive client would (a `wire` scenario whose protocol is the
provider's is sent verbatim). normalized: `normalizer.request.normalize_parts`, the path
`normalize_request` takes after parsing a body (the same as `conformance normalize` and the
library's users), from the scenario's history, tools and options. Pure: no server, no SDK
(a streaming scenario's turn was read when the run was planned).
Every request gets small-output defaults (few tokens, temperature 0) that do not touch the
history; a scenario's `options` for the protocol are added on top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.errors import StreamReplayError
from conformance.providers import Provider
from conformance.scenarios.load import Scenario
from normalizer.model import Change, History, thaw
from normalizer.request import RequestParts, normalize_parts
from normalizer.wire import render

MODES = ("raw", "normalized")
SMALL_OUTPUT: dict[str, dict[str, Any]] = {
    "openai_chat": {"max_tokens": 16, "temperature": 0},
    "openai_responses": {"max_output_tokens": 16, "temperature": 0},
    "anthropic": {"max_tokens": 16},
    "gemini": {"generationConfig": {"maxOutputTokens": 16, "temperature": 0}},
}


@dataclass(frozen=True, slots=True)
class Request:
    """One item's request: the body to send, the model it is for, and the normalization changes
    made for it (none in raw mode)."""

    body: dict[str, Any]
    model: str
    changes: tuple[Change, ...] = ()


def model_for(scenario: Scenario, provider: Provider) -> str:
    """The model an item asks `provider` for: the scenario's `models` entry, else the provider's
    model."""
    return str(scenario.models.get(provider.name, provider.model))


def build(scenario: Scenario, provider: Provider, mode: str) -> Request:
    """The body to send for one item (raises what normalize/render raise on bad input)."""
    model = model_for(scenario, provider)
    options = {**SMALL_OUTPUT[provider.protocol],
               **thaw(scenario.options.get(provider.protocol, {}))}
    if mode == "raw" and scenario.wire_protocol == provider.protocol:
        body = {**thaw(scenario.wire_body), **_model_field(provider.protocol, model)}
        return Request({**options, **body}, model)
    history = sent_history(scenario)
    if mode == "raw":
        body = render(history, provider.protocol, tools=scenario.tools, model=model,
                      options=options)
        return Request(body, model)
    # normalized: the library's one request-level path (from the history it already holds)
    parts = RequestParts(history, scenario.tools, options, model)
    fixed = normalize_parts(parts, provider.protocol, provider.load_profile(), model=model)
    return Request(fixed.body, model, fixed.changes)


def sent_history(scenario: Scenario) -> History:
    """The history the items of `scenario` send: for a streaming scenario, the one its
    stream was resolved to when the run was planned (scenarios.replay.resolve)."""
    if scenario.stream is None:
        return scenario.history
    if scenario.replay_error:
        raise StreamReplayError(scenario.replay_error)
    if scenario.replayed is None:
        raise ValueError(f"{scenario.path}: the recorded stream was not resolved; plan the "
                         "run with conformance.batch.plan, or call "
                         "conformance.scenarios.replay.resolve(scenario) first")
    return scenario.replayed


def change_json(change: Change) -> dict[str, Any]:
    """One normalization change as JSON (a Result's `changes`, `conformance normalize`)."""
    return {"pass": change.pass_name, "code": change.code, "what": change.what,
            "where": change.where, "lossless": change.lossless}


def _model_field(protocol: str, model: str) -> dict[str, str]:
    return {} if protocol == "gemini" else {"model": model}


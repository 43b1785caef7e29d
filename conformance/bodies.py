"""Scenario × provider × mode -> the request body to send, and the repairs made for it.

raw: the history rendered as a naive client would (a `wire` scenario whose protocol is the
provider's is sent verbatim; to another protocol a naive client carries the history only).
normalized: `normalizer.request.normalize_parts`, the path `normalize_request` takes after
parsing a body (the same as `conformance normalize` and the library's users), from the
scenario's history, tools and options; a `wire` body's own options (thinking, tool_choice,
max_tokens, ...) go with it, converted to another protocol by `normalizer.options.convert`
as `normalize_request` converts them, with what the conversion said. Pure: no server, no
SDK (a streaming scenario's turn was read when the run was planned).
Every request gets small-output defaults (few tokens, temperature 0) that do not touch the
history; a scenario's `options` for the protocol are added on top, and a wire body's own
options over both, as the raw body sent verbatim has them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from conformance.errors import StreamReplayError
from conformance.providers import Provider
from conformance.scenarios.load import Scenario
from normalizer.model import Change, History, thaw
from normalizer.options import convert
from normalizer.request import RequestParts, normalize_parts, request_options
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
    carried, said = wire_options(scenario, provider.protocol)
    options = _layered(SMALL_OUTPUT[provider.protocol],
                       thaw(scenario.options.get(provider.protocol, {})), carried)
    parts = RequestParts(history, scenario.tools, options, model)
    fixed = normalize_parts(parts, provider.protocol, provider.load_profile(), model=model)
    return Request(fixed.body, model, said + fixed.changes)


def wire_options(scenario: Scenario, protocol: str) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """A `wire` scenario's own options for a provider of `protocol`: as the body holds them
    for its own protocol, converted for another (and what the conversion said); none for a
    scenario given as a history."""
    if scenario.wire_protocol is None:
        return {}, ()
    own = request_options(thaw(scenario.wire_body), scenario.wire_protocol)
    if scenario.wire_protocol == protocol:
        return own, ()
    return convert(own, scenario.wire_protocol, protocol)


def _layered(*layers: dict[str, Any]) -> dict[str, Any]:
    """Option layers, each over the ones before; a Gemini `generationConfig` is merged key
    by key (the small-output defaults live in it beside a body's thinkingConfig)."""
    out: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            below = out.get(key)
            out[key] = ({**below, **value} if key == "generationConfig"
                        and isinstance(below, dict) and isinstance(value, dict) else value)
    return out


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


"""Scenario × provider × mode -> the request body to send, and the repairs made for it.

raw: the history rendered as a naive client would (a `wire` scenario whose protocol is the
provider's is sent verbatim; to another protocol a naive client carries the history only).
normalized: `normalizer.request.normalize_parts`, the path `normalize_request` takes after
parsing a body (the same as `conformance normalize` and the library's users), from the
scenario's history, tools and options; a `wire` body's own options (thinking, tool_choice,
max_tokens, ...) and hosted tool declarations go with it, converted to another protocol by
`normalizer.options.convert`
as `normalize_request` converts them, with what the conversion said. Pure: no server, no
SDK (a streaming scenario's turn was read when the run was planned).
Every request gets small-output defaults (few tokens, temperature 0) that do not touch the
history, as the target takes them for the item's model (`small_output`: GPT-5 on either
OpenAI wire takes no temperature but 1 and its limit in max_completion_tokens only, so a raw
item fails for what the scenario sends, never for the harness's own defaults); a scenario's
`options` for the protocol are added on top, and a wire body's own options over both, as the
raw body sent verbatim has them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from conformance.errors import StreamReplayError
from conformance.providers import Provider
from conformance.scenarios.load import Scenario
from normalizer.model import Change, History, Message, Text, thaw
from normalizer.options import convert
from normalizer.request import (
    RequestParts,
    hosted_dropped,
    normalize_parts,
    request_options,
    split_request,
)
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


@cache
def small_output(provider: Provider, model: str) -> dict[str, Any]:
    """SMALL_OUTPUT for `provider`'s protocol as its profile's repairs leave them for `model`
    (the defaults alone, normalized): a model that pins the temperature to 1 gets none, one
    that takes its limit in another field gets it there."""
    parts = RequestParts(_ONE_QUESTION, (), SMALL_OUTPUT[provider.protocol], model)
    fixed = normalize_parts(parts, provider.protocol, provider.load_profile(), model=model)
    return request_options(fixed.body, provider.protocol)


_ONE_QUESTION = History((Message("user", (Text("Hi"),)),))


def build(scenario: Scenario, provider: Provider, mode: str) -> Request:
    """The body to send for one item (raises what normalize/render raise on bad input)."""
    model = model_for(scenario, provider)
    own = thaw(scenario.options.get(provider.protocol, {}))
    defaults = small_output(provider, model)
    if mode == "raw" and scenario.wire_protocol == provider.protocol:
        body = {**thaw(scenario.wire_body), **_model_field(provider.protocol, model)}
        options = {**_beneath(defaults, own, body), **own}
        return Request({**options, **body}, model)
    options = {**_beneath(defaults, own), **own}
    history = sent_history(scenario)
    if mode == "raw":
        body = render(history, provider.protocol, tools=scenario.tools, model=model,
                      options=options)
        return Request(body, model)
    # normalized: the library's one request-level path (from the history it already holds)
    carried, said = wire_options(scenario, provider.protocol)
    options = _layered(_beneath(defaults, own, carried), own, carried)
    hosted, declared = wire_declarations(scenario)
    if hosted and scenario.wire_protocol != provider.protocol:  # as normalize_request does
        said += tuple(hosted_dropped(d, provider.protocol) for d in hosted)
        hosted, declared = (), None
    parts = RequestParts(history, scenario.tools, options, model, hosted, declared)
    fixed = normalize_parts(parts, provider.protocol, provider.load_profile(), model=model)
    return Request(fixed.body, model, said + fixed.changes)


def wire_declarations(scenario: Scenario) -> tuple[tuple[Any, ...], Any]:
    """A `wire` scenario's hosted tool declarations (web search, Google Search, ...) and
    its body's whole `tools` value, as `split_request` gives them to normalize_request:
    kept for the body's own protocol, left out and said for another. None for a scenario
    given as a history, or a body that declares no hosted tool."""
    if scenario.wire_protocol is None or not isinstance(scenario.wire_body.get("tools"),
                                                        (list, tuple)):
        return (), None
    found = split_request(thaw(scenario.wire_body), scenario.wire_protocol)
    return (found.hosted, found.declared) if found.hosted else ((), None)


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


# Chat's output limit, in either of its fields: one option.
_SAME_OPTION: tuple[frozenset[str], ...] = (frozenset({"max_tokens", "max_completion_tokens"}),)


def _beneath(defaults: dict[str, Any], *layers: dict[str, Any]) -> dict[str, Any]:
    """The harness's defaults less what a layer above sets itself, so that a scenario's
    max_tokens is not sent beside the default's max_completion_tokens. Gemini's
    generationConfig stays: `_layered` merges it key by key."""
    taken = {key for layer in layers for key in layer} - {"generationConfig"}
    for same in _SAME_OPTION:
        if taken & same:
            taken |= same
    return {key: value for key, value in defaults.items() if key not in taken}


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


"""Scenario × provider × mode -> the request body to send, and the repairs made for it.

raw: the history rendered as a naive client would (a `wire` scenario whose protocol is the
provider's is sent verbatim). normalized: `normalizer.normalize` for the provider first.
Pure: no server, no SDK (a streaming scenario's turn was read when the run was planned).
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
    body: dict[str, Any]
    model: str
    changes: tuple[Change, ...] = ()


def model_for(scenario: Scenario, provider: Provider) -> str:
    return str(scenario.models.get(provider.name, provider.model))


def build(scenario: Scenario, provider: Provider, mode: str) -> Request:
    """The body to send for one item (raises what normalize/render raise on bad input)."""
    model = model_for(scenario, provider)
    options = {**SMALL_OUTPUT[provider.protocol],
               **thaw(scenario.options.get(provider.protocol, {}))}
    if mode == "raw" and scenario.wire_protocol == provider.protocol:
        body = {**thaw(scenario.wire_body), **_model_field(provider.protocol, model)}
        return Request({**options, **body}, model)
    history, tools, changes = sent_history(scenario), scenario.tools, ()
    if mode == "normalized":
        from normalizer.normalize import normalize
        from normalizer.passes import Policy
        from normalizer.passes.options import drop_json_response_type_with_tools
        from normalizer.passes.tools_declared import drop_tool_choice_without_tools

        fixed = normalize(history, provider.load_profile(), tools=tools, model=model,
                          policy=Policy(thinking="on" if thinking_on(options) else "off"))
        history, tools, changes = fixed.history, tuple(fixed.tools), tuple(fixed.changes)
        options, more = drop_tool_choice_without_tools(options, tools, provider.load_profile())
        changes += more
        options, more = drop_json_response_type_with_tools(options, tools,
                                                           provider.load_profile(), model)
        changes += more
    body = render(history, provider.protocol, tools=tools, model=model, options=options)
    return Request(body, model, changes)


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


def thinking_on(options: dict[str, Any]) -> bool:
    """Whether the request enables thinking (Anthropic `thinking.type: enabled`)."""
    thinking = options.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in {"enabled", "adaptive"}

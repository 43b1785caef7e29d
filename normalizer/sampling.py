"""Sampling parameters a model pins to one value.

Kimi's thinking models (K2.5 and later, K3, Kimi Code's models) run with fixed sampling:
temperature 1 (0.6 where thinking is off), top_p 0.95. A request that sends anything else
is refused ("invalid temperature: only 1 is allowed for this model"), and apps send their
usual 0.2 or 0.7 to every model. Claude takes temperature 1 only while thinking is on
("`temperature` may only be set to 1 when thinking is enabled or in adaptive mode. ...").
Gemini takes presencePenalty and frequencyPenalty at 0 only, but for Gemini 2.0 Flash
("Penalty is not enabled for models/gemini-2.5-flash"), in its generationConfig. Leaving the
parameter out is what the vendor's own clients do: the model then uses the one value it
takes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from normalizer.options import thinking_on_by_rule
from normalizer.request_fields import spellings


class Unfixed(NamedTuple):
    """A pinned parameter sent with another value."""

    field: str  # the request field: temperature, top_p
    sent: Any
    allowed: Any  # the one value the model takes


def fixed_values(request: Mapping[str, Any], params: Mapping[str, Any],
                 model: str | None) -> dict[str, Any]:
    """The value each pinned parameter must have for this request, read as a
    sampling-parameter-fixed rule's params say: `fixed` (field -> value), and where the
    request turns thinking off (`field`, default thinking.type, a value in `off`, default
    ["disabled"]) for a model `thinking_off_models` matches, `thinking_off` on top. With
    `when_thinking`, nothing is pinned unless the request turns thinking on (a value in
    `on`: Anthropic's enabled and adaptive)."""
    if params.get("when_thinking") and not thinking_on_by_rule(request, params, model):
        return {}  # Anthropic pins temperature only while thinking is on
    values = dict(params.get("fixed") or {})
    pattern = params.get("thinking_off_models")
    # Off only where the switch says so: read as tool-choice-with-thinking reads it, with
    # every model thinking unless told not to.
    switched_off = not thinking_on_by_rule(request, {**params, "default_on_model": "."}, model)
    if switched_off and pattern and isinstance(model, str) and re.search(str(pattern), model):
        values.update(params.get("thinking_off") or {})
    return values


def unfixed(request: Mapping[str, Any], params: Mapping[str, Any],
            model: str | None) -> list[Unfixed]:
    """Every pinned parameter the request sends with another value, in the order of
    `fixed` (the value itself, sent again, is taken). With `within` (Gemini's
    generationConfig) the parameters are that object's, and `field` is the dotted place
    they were sent at, in the spelling sent."""
    within = params.get("within")
    found: list[Unfixed] = []
    for field, allowed in fixed_values(request, params, model).items():
        where, sent = _sent(request, field, str(within)) if within else (field,
                                                                         request.get(field))
        if sent is not None and not _same(sent, allowed):
            found.append(Unfixed(where, sent, allowed))
    return found


def _sent(request: Mapping[str, Any], field: str, within: str) -> tuple[str, Any]:
    """Where in the object `within` the request sends `field`, and its value (None where
    it sends none): Gemini's parser reads either spelling of each name as one field."""
    for outer in spellings(within):
        inner = request.get(outer)
        if isinstance(inner, Mapping):
            for name in spellings(field):
                if inner.get(name) is not None:
                    return f"{outer}.{name}", inner[name]
    return field, None


def unsupported(request: Mapping[str, Any], params: Mapping[str, Any],
                model: str | None = None) -> list[str]:
    """The sampling parameters of `params.fields` that the request sends (not null), in
    that order: a model that takes none refuses each (Claude Opus 4.7: "`temperature` is
    deprecated for this model.", UKGovernmentBEIS/inspect_ai#3721). With `when_thinking`,
    none unless the request turns thinking on (Claude: "`top_k` must be unset when thinking
    is enabled. ...", quarkiverse/quarkus-langchain4j#1812). A value `taken` names for a
    field is taken (OpenAI's reasoning models: a penalty of 0)."""
    if params.get("when_thinking") and not thinking_on_by_rule(request, params, model):
        return []
    taken = params.get("taken") or {}
    return [f for f in sent_fields(request, params.get("fields") or ())
            if f not in taken or not _same(request[f], taken[f])]


def sent_fields(request: Mapping[str, Any], fields: Iterable[Any]) -> list[str]:
    """The fields of `fields` that the request sends (not null), in that order."""
    return [str(f) for f in fields if f in request and request[f] is not None]


class OutOfRange(NamedTuple):
    """A sampling parameter sent outside the range the model takes."""

    field: str
    sent: float
    least: float | None  # None: no bound on that side
    most: float | None


def out_of_range(request: Mapping[str, Any], params: Mapping[str, Any]) -> list[OutOfRange]:
    """The parameters of `params.ranges` (field -> [least, most], null for no bound) the
    request sends as a number outside their range, in that order; a value `params.also`
    lists for the field is taken too (Anthropic took a temperature of -1 until 2026).
    OpenAI takes temperatures up to 2, Anthropic up to 1 ("temperature: range: -1 or
    0..1"), Mistral up to 1.5."""
    also = params.get("also") or {}
    found = []
    for field, (least, most) in (params.get("ranges") or {}).items():
        sent = request.get(field)
        if isinstance(sent, bool) or not isinstance(sent, int | float):
            continue
        outside = (least is not None and sent < least) or (most is not None and sent > most)
        if outside and not any(_same(sent, v) for v in also.get(field, ())):
            found.append(OutOfRange(field, sent, least, most))
    return found


def exclusive(request: Mapping[str, Any], params: Mapping[str, Any]) -> list[str]:
    """The sampling parameters of `params.fields` that the request sends (not null), where it
    sends more than one of them, in that order; else none. Claude Sonnet 4.5 and its
    successors up to Sonnet 4.6 take temperature or top_p, not both ("`temperature` and
    `top_p` cannot both be specified for this model. Please use only one.")."""
    sent = sent_fields(request, params.get("fields") or ())
    return sent if len(sent) > 1 else []


def to_leave_out(request: Mapping[str, Any], params: Mapping[str, Any]
                 ) -> list[tuple[str, bool]]:
    """Which of the parameters `exclusive` found to leave out so that one stays, each with
    whether that loses nothing: a parameter sent at the value the model uses when it is not
    sent (params.defaults: temperature 1, top_p 1, which samples from every token) goes
    first, the last such in params.fields order; then the last of the others, lossy. The
    first of params.fields is the one kept where none is at its default (Anthropic's own
    migration example keeps temperature)."""
    sent = exclusive(request, params)
    defaults = params.get("defaults") or {}
    out: list[tuple[str, bool]] = []
    while len(sent) > 1:
        idle = [f for f in sent if f in defaults and _same(request[f], defaults[f])]
        field = idle[-1] if idle else sent[-1]
        out.append((field, bool(idle)))
        sent = [f for f in sent if f != field]
    return out


class BadStop(NamedTuple):
    """A stop sequence the vendor refuses, and which of params.refuse it is."""

    index: int
    value: str
    fault: str  # "empty" or "whitespace"


def bad_stops(stops: Any, params: Mapping[str, Any]) -> list[BadStop]:
    """The stop sequences of the list `stops` that params.refuse names a fault for: "empty"
    (Anthropic: "each stop sequence must be non-empty") and "whitespace", only whitespace
    ("... must contain non-whitespace"), in list order; none where `stops` is not a list."""
    refuse = params.get("refuse") or {}
    if not isinstance(stops, list | tuple):
        return []
    found = []
    for i, stop in enumerate(stops):
        fault = "empty" if stop == "" else "whitespace" if isinstance(stop, str) \
            and not stop.strip() else None
        if fault is not None and fault in refuse:
            found.append(BadStop(i, stop, fault))
    return found


def _same(sent: Any, allowed: Any) -> bool:
    if isinstance(sent, bool) or isinstance(allowed, bool):  # true is not 1 on the wire
        return type(sent) is type(allowed) and sent == allowed
    if not isinstance(sent, int | float):
        return bool(sent == allowed)
    return isinstance(allowed, int | float) and math.isclose(sent, allowed, abs_tol=1e-9)

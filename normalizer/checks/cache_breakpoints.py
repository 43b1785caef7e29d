"""Prompt-cache breakpoints: Anthropic takes at most a few blocks carrying `cache_control` in
one request, counted over the tool declarations, the system blocks and the message blocks
(a tool_result's own blocks included), in the order the prompt is read; none on the blocks
inside a tool_result's content; and no one-hour mark after a five-minute one."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.cache_marks import (
    Place,
    bracketed,
    dotted,
    late_long,
    mark_holders,
    with_top,
)
from normalizer.check import Finding
from normalizer.profiles import Rule
from normalizer.shared_reading import shared


@shared
def marked(body: Mapping[str, Any]) -> tuple[tuple[Place, Mapping[str, Any]], ...]:
    """Every cache mark's (place, holder), a tool_result's own blocks included: read once
    for the three cache detectors."""
    return tuple(mark_holders(body, inner=True))


def too_many_cache_breakpoints(body: Mapping[str, Any], rule: Rule,
                               model: str | None) -> Iterator[Finding]:
    """One finding, at the first breakpoint past params.max_items, when there are more."""
    return _past_limit([place for place, _ in marked(body)], int(rule.params["max_items"]))


def chat_too_many_cache_breakpoints(body: Mapping[str, Any], rule: Rule,
                                    model: str | None) -> Iterator[Finding]:
    """The same count on a Chat Completions body a relay passes on to Anthropic (OpenRouter):
    tool declarations, content parts, and a message's own mark, which marks one block
    upstream (oguzbilgic/kern-ai#317 counted them so)."""
    return _past_limit([place for place, _ in mark_holders(body, whole=True)],
                       int(rule.params["max_items"]))


def _past_limit(places: list[Place], limit: int) -> Iterator[Finding]:
    if len(places) > limit:
        yield Finding(location=f"{bracketed(places[limit])}.cache_control",
                      fields={"max_items": limit, "count": len(places)})


def cache_control_in_tool_result(body: Mapping[str, Any], rule: Rule,
                                 model: str | None) -> Iterator[Finding]:
    """Each block inside a tool_result's content that carries a cache_control."""
    for place, _ in marked(body):
        if len(place) == 6:  # ("messages", i, "content", j, "content", n)
            _, i, _, j, _, n = place
            if body["messages"][i]["content"][j].get("type") == "tool_result":
                yield Finding(location=f"{bracketed(place)}.cache_control",
                              fields={"index": i, "block": j, "inner": n})


def cache_ttl_order(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """Each one-hour cache mark after a five-minute one, a tool_result's inner blocks (refused
    anyway) left out. The words name the mark's ttl (`system.1.cache_control.ttl`), or the
    top-level field alone (`cache_control`)."""
    outer = ((place, holder) for place, holder in marked(body) if len(place) != 6)
    for place in late_long(with_top(outer, body)):
        if not place:
            yield Finding(location="cache_control", fields={"path": "cache_control"})
            continue
        yield Finding(location=f"{bracketed(place)}.cache_control.ttl",
                      fields={"path": f"{dotted(place)}.cache_control.ttl"})

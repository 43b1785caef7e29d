"""Prompt-cache breakpoints: Anthropic takes at most a few blocks carrying `cache_control` in
one request, counted over the tool declarations, the system blocks and the message blocks
(a tool_result's own blocks included), in the order the prompt is read; none on the blocks
inside a tool_result's content; and no one-hour mark after a five-minute one."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from normalizer.cache_marks import Place, bracketed, dotted, mark_holders
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
    limit = int(rule.params["max_items"])
    places = [place for place, _ in marked(body)]
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


def ttl_marks(body: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """(Anthropic's dotted path of the mark, the mark) of every block's cache_control in the
    order Anthropic reads them, then the top-level cache_control, which marks the end of the
    prompt. A tool_result's inner blocks, refused anyway, are not read."""
    for place, holder in marked(body):
        if len(place) != 6:  # not inside a tool_result
            yield f"{dotted(place)}.cache_control", holder["cache_control"]
    if body.get("cache_control") is not None:
        yield "cache_control", body["cache_control"]


def long_after_short(body: Mapping[str, Any]) -> Iterator[str]:
    """The path of each one-hour mark that comes after a five-minute one (a mark without a
    ttl is five minutes)."""
    short = False
    for path, mark in ttl_marks(body):
        if not isinstance(mark, Mapping):
            continue
        if mark.get("ttl") == "1h":
            if short:
                yield path
        else:
            short = True


def cache_ttl_order(body: Mapping[str, Any], rule: Rule,
                    model: str | None) -> Iterator[Finding]:
    """Each one-hour cache mark after a five-minute one. The words name the mark's ttl
    (`system.1.cache_control.ttl`), or the top-level field alone (`cache_control`)."""
    for path in long_after_short(body):
        said = path if path == "cache_control" else f"{path}.ttl"
        yield Finding(location=re.sub(r"\.(\d+)", r"[\1]", said), fields={"path": said})

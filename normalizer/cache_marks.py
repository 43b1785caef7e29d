"""Where an Anthropic request carries prompt-cache marks (`cache_control`): the objects holding
one, in the order the vendor reads the prompt (tools, system, messages), shared by the cache
rules' detectors and their request-level repair."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

Place = tuple[str | int, ...]  # ("messages", 3, "content", 0): the keys down to the holder
K = TypeVar("K")


def mark_holders(body: Mapping[str, Any], *, inner: bool = False,
                 whole: bool = False) -> Iterator[tuple[Place, Mapping[str, Any]]]:
    """(place, holder) of every tool declaration, system block and message block whose
    cache_control is set, in prompt order; `inner`: a tool_result's own blocks too, each
    right after its result; `whole`: a Chat message's own mark too (OpenRouter's form, which
    marks the message's last block upstream), right after the message's blocks."""
    for key in ("tools", "system"):
        items = body.get(key)
        for k, item in enumerate(items if isinstance(items, list) else ()):
            if _marked(item):
                yield (key, k), item
    msgs = body.get("messages")
    for i, message in enumerate(msgs if isinstance(msgs, list) else ()):
        if not _mapping(message):
            continue
        content = message.get("content")
        if type(content) is list:  # a string, most often: nothing to read
            yield from _block_marks(i, content, inner)
        if whole and message.get("cache_control") is not None:
            yield ("messages", i), message


def _block_marks(i: int, content: list[Any], inner: bool) -> Iterator[
        tuple[Place, Mapping[str, Any]]]:
    for j, block in enumerate(content):
        if not _mapping(block):
            continue
        if block.get("cache_control") is not None:
            yield ("messages", i, "content", j), block
        nested = block.get("content") if inner else None
        if type(nested) is list:
            for n, part in enumerate(nested):
                if _marked(part):
                    yield ("messages", i, "content", j, "content", n), part


def _mapping(value: Any) -> bool:
    """A dict (what a parsed body holds: no ABC check) or another mapping."""
    return type(value) is dict or isinstance(value, Mapping)


def _marked(holder: Any) -> bool:
    return _mapping(holder) and holder.get("cache_control") is not None


def bracketed(place: Place) -> str:
    """`messages[3].content[0]`: the place as check() locations name it."""
    return "".join(f"[{key}]" if isinstance(key, int) else f".{key}" for key in place)[1:]


def dotted(place: Place) -> str:
    """`messages.3.content.0`: the place as Anthropic's error texts name it."""
    return ".".join(str(key) for key in place)


def with_top(holders: Iterable[tuple[Place, Mapping[str, Any]]],
             body: Mapping[str, Any]) -> Iterator[tuple[Place, Any]]:
    """(place, mark) of each holder's mark, then the request's top-level cache_control at
    place (): it marks the end of the prompt, so the vendor reads it last."""
    for place, holder in holders:
        yield place, holder["cache_control"]
    if body.get("cache_control") is not None:
        yield (), body["cache_control"]


def is_long(mark: Any) -> bool:
    """A one-hour mark (one without a ttl lasts five minutes)."""
    return isinstance(mark, Mapping) and mark.get("ttl") == "1h"


def late_long(marks: Iterable[tuple[K, Any]]) -> list[K]:
    """The keys of the one-hour marks that come after a five-minute one, of (key, mark)
    pairs in the order the vendor reads them (rule cache-ttl-order)."""
    short, late = False, []
    for key, mark in marks:
        if is_long(mark):
            if short:
                late.append(key)
        elif isinstance(mark, Mapping):
            short = True
    return late

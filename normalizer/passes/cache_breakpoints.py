"""Prompt-cache breakpoints: marks inside a tool result's content move to the result, past the
vendor's limit the earliest lose their `cache_control`, and a one-hour mark after a
five-minute one lasts five minutes."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from normalizer.cache_marks import bracketed, is_long, late_long, mark_holders, with_top
from normalizer.model import EMPTY, Change, History, Message, Opaque, Part, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

RULE = "too-many-cache-breakpoints"
INSIDE_RULE = "cache-control-in-tool-result"
TTL_RULE = "cache-ttl-order"
# (message index, part index, index inside a tool result's output or None)
Site = tuple[int, int, int | None]


def drop_excess_cache_breakpoints(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes more blocks carrying `cache_control` than params.max_items (rule
    too-many-cache-breakpoints): the last max_items in prompt order (system, then the
    messages, a tool result's own blocks after it) keep theirs, the earlier ones lose it.
    The later a breakpoint, the longer the prefix it caches, and the next turn reads the
    longest one back. A Chat message's own mark (OpenRouter, on to Anthropic) counts as one,
    after the message's parts. Breakpoints on tool declarations are not in the history:
    `normalize_request` leaves those out first (`drop_tool_breakpoints`).

    Rejected by: Anthropic "A maximum of 4 blocks with cache_control may be provided. Found
    5." (continuedev/continue#6937); OpenRouter relays it for anthropic/* models as
    "Provider returned error" with those words in metadata.raw (pydantic/pydantic-ai#4604).

    Before: system "S" {cache_control}, user "a" {cache_control}, ... five in all
    After:  system "S", user "a" {cache_control}, ... four
    Lossy: a cache hint goes (what the model reads does not change; what it costs may).
    """
    limit = profile.param(RULE, "max_items")
    held = draft.history.messages
    # A message's own mark is a Chat field (the other targets move it onto a block first).
    whole = tuple(_whole_sites(held)) if profile.protocol == "openai_chat" else ()
    if limit is None or not (whole or any_mark(held)):
        return draft, ()
    sites = sorted((*_sites(held), *whole), key=lambda s: _prompt_order(draft.history, s))
    excess = len(sites) - int(limit)
    if excess <= 0:
        return draft, ()
    messages = list(held)
    changes: list[Change] = []
    for m, j, n in sites[:excess]:
        if j == _WHOLE:
            messages[m] = replace(messages[m],
                                  extras=messages[m].extras.without("cache_control"))
            changes.append(_drop_change(limit, f"messages[{m}]"))
            continue
        parts = list(messages[m].parts)
        parts[j] = _unmarked(parts[j], n)
        messages[m] = messages[m].with_parts(tuple(parts))
        changes.append(_drop_change(limit, f"messages[{m}].parts[{j}]"
                                           + ("" if n is None else f".content[{n}]")))
    history = replace(draft.history, messages=tuple(messages))
    return replace(draft, history=history), tuple(changes)


def move_message_cache_marks(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a cache_control on a whole message (rule unknown-message-field: OpenRouter's and
    LiteLLM's Chat messages carry one, Anthropic's messages take none) for Anthropic: the
    mark goes on the message's last block, where a message-level mark ends its prefix, if
    that block has none; `drop_unknown_message_fields` would drop it.

    Rejected by: Anthropic, a message field it does not have ("messages.0.cache_control:
    Extra inputs are not permitted": ax-llm/ax#479 moved it onto a block for that reason).

    Before: user {content: "q", cache_control: ephemeral}
    After:  user [text "q" {cache_control: ephemeral}]
    Lossless: the breakpoint ends the same prefix.
    """
    if profile.protocol != "anthropic":
        return draft, ()
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        mark = message.extras.get("cache_control") if message.extras is not EMPTY else None
        if mark is None or not message.parts:
            continue
        last = message.parts[-1]
        parts = message.parts[:-1]
        if _mark(last) is None:
            parts += (_with_mark(last, mark),)
        else:
            parts += (last,)
        messages[m] = replace(message, parts=parts,
                              extras=message.extras.without("cache_control"))
        changes.append(Change("move_message_cache_marks", "move-cache-breakpoint",
                              "moved the message's cache_control onto its last block",
                              f"messages[{m}]", lossless=True))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)


def _with_mark(part: Part, mark: Any) -> Part:
    if isinstance(part, Opaque):
        return replace(part, data=part.data.merged(cache_control=mark))
    return replace(part, extras=part.extras.merged(cache_control=mark))


def hoist_tool_result_cache_control(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes cache_control marks on the blocks inside a tool result's content (rule
    cache-control-in-tool-result): the mark goes on the tool result itself, which ends where
    its content ends; the last inner mark's value is kept where the result had none.

    Rejected by: Anthropic, through GitHub Copilot's endpoint: "messages.5.content.0.
    tool_result.content.16.cache_control: cache_control may not be specified within
    `tool_result.content`. Instead, place it directly on `tool_result`"
    (caozhiyuan/copilot-api#241); langchain-ai/langchain#35126 moves it the same way.

    Before: tool_result(content [text "18C" {cache_control}])
    After:  tool_result {cache_control} (content [text "18C"])
    Lossless: the breakpoint stays at the end of the same tool result (or before the rest
    of its content, which the result's own mark then also covers).
    """
    if not any_mark(draft.history.messages):
        return draft, ()
    messages = list(draft.history.messages)
    changes: list[Change] = []
    for m, message in enumerate(messages):
        if not message.tool_results:
            continue
        parts = list(message.parts)
        moved = False
        for j, part in enumerate(parts):
            if not isinstance(part, ToolResult) or isinstance(part.content, str):
                continue
            marks_inside = [p.extras["cache_control"] for p in part.content
                            if not isinstance(p, Opaque) and _marked(p)]
            if not marks_inside:
                continue
            content = tuple(p if isinstance(p, Opaque) or not _marked(p)
                            else replace(p, extras=p.extras.without("cache_control"))
                            for p in part.content)
            extras = part.extras if _marked(part) else part.extras.merged(
                cache_control=marks_inside[-1])
            parts[j] = replace(part, content=content, extras=extras)
            moved = True
            changes.append(Change("hoist_tool_result_cache_control", "move-cache-breakpoint",
                                  f"moved {len(marks_inside)} cache_control mark(s) from "
                                  "inside a tool result's content onto the tool result",
                                  f"messages[{m}].parts[{j}]", lossless=True))
        if moved:
            messages[m] = message.with_parts(tuple(parts))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(messages))), \
        tuple(changes)


def shorten_late_long_cache_ttls(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a one-hour cache mark after a five-minute one (rule cache-ttl-order; a mark
    without a ttl is five minutes), in the order the vendor reads the prompt: system, the
    messages, then the request's top-level cache_control. Each such mark loses its ttl and
    lasts five minutes. Marks on tool declarations are not in the history:
    `normalize_request` does the same on the request it sends (`shorten_body_ttls`).

    Rejected by: Anthropic "messages.0.content.4.cache_control.ttl: a ttl='1h'
    cache_control block must not come after a ttl='5m' cache_control block. Note that
    blocks are processed in the following order: `tools`, `system`, `messages`."
    (cnighswonger/claude-code-cache-fix#44).

    Before: system "S" {cache_control: ephemeral}, user "a" {cache_control: ephemeral, 1h}
    After:  system "S" {cache_control: ephemeral}, user "a" {cache_control: ephemeral}
    Lossy: a cache entry's lifetime (the prompt is the same).
    """
    if not profile.enforces(TTL_RULE) or (not any_mark(draft.history.messages)
                                          and not is_long(draft.options.get("cache_control"))):
        return draft, ()
    sites = sorted((s for s in _sites(draft.history.messages) if s[2] is None),
                   key=lambda s: _prompt_order(draft.history, s))
    top = draft.options.get("cache_control")
    pairs = [(site, _mark(draft.history.messages[site[0]].parts[site[1]])) for site in sites]
    late = late_long([*pairs, (None, top)] if top is not None else pairs)
    if not late:
        return draft, ()
    messages = list(draft.history.messages)
    changes: list[Change] = []
    options = draft.options
    for site in late:
        if site is None:  # the top-level mark, read last
            options = options.merged(cache_control=_without_ttl(top))
            changes.append(_ttl_change("cache_control"))
            continue
        m, j, _ = site
        parts = list(messages[m].parts)
        parts[j] = _with_mark(parts[j], _without_ttl(_mark(parts[j])))
        messages[m] = messages[m].with_parts(tuple(parts))
        changes.append(_ttl_change(f"messages[{m}].parts[{j}]"))
    history = replace(draft.history, messages=tuple(messages))
    return replace(draft, history=history, options=options), tuple(changes)


def _mark(part: Part) -> Any:
    return (part.data if isinstance(part, Opaque) else part.extras).get("cache_control")


def _without_ttl(mark: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in mark.items() if k != "ttl"}


def _ttl_change(where: str) -> Change:
    return Change("shorten_late_long_cache_ttls", "shorten-cache-ttl",
                  "a one-hour cache mark after a five-minute one now lasts five minutes "
                  "(its ttl left out): the target reads the marks in order and refuses a "
                  "longer one after a shorter", where, lossless=False)


def shorten_body_ttls(body: dict[str, Any]) -> tuple[dict[str, Any], tuple[Change, ...]]:
    """The request as it will be sent (tool declarations included): each one-hour mark
    after a five-minute one loses its ttl. A copy when something changes."""
    late = late_long(with_top(mark_holders(body), body))
    if not late:
        return body, ()
    out = copy.deepcopy(body)
    for place in late:
        holder = out
        for key in place:
            holder = holder[key]
        holder["cache_control"] = _without_ttl(holder["cache_control"])
    return out, tuple(_ttl_change(bracketed(place) if place else "cache_control")
                      for place in late)


def _prompt_order(history: History, site: Site) -> tuple[int, int, int, int]:
    """System text goes before every message in the prompt, wherever it stands here; a
    tool result's own blocks come after the result's block."""
    m, j, n = site
    return (0 if history.messages[m].role == "system" else 1), m, j, -1 if n is None else n


# The messages last asked about and the answer: the cache passes run one after another,
# mostly on the same messages, and most histories hold no mark at all.
_LAST_ASKED: list[tuple[tuple[Message, ...], bool]] = []


def any_mark(messages: tuple[Message, ...]) -> bool:
    """Whether any part (or a tool result's inner part) of `messages` carries a
    cache_control."""
    last = _LAST_ASKED[-1] if _LAST_ASKED else None  # one read: another thread may ask too
    if last is not None and last[0] is messages:
        return last[1]
    found = _scan(messages)
    _LAST_ASKED[:] = [(messages, found)]
    return found


def _scan(messages: tuple[Message, ...]) -> bool:
    return next(_sites(messages), None) is not None


def _sites(messages: tuple[Message, ...]) -> Iterator[Site]:
    """Where the messages' marks are: a part, or a tool result's inner part."""
    for m, message in enumerate(messages):
        for j, part in enumerate(message.parts):
            kind = type(part)
            fields = part.data if kind is Opaque else part.extras  # type: ignore[union-attr]
            if fields is not EMPTY and fields.get("cache_control") is not None:
                yield m, j, None
            if kind is ToolResult and type(part.content) is not str:  # type: ignore[union-attr]
                for n, inner in enumerate(part.content):  # type: ignore[union-attr]
                    if _marked(inner):
                        yield m, j, n


# The part index of a Chat message's own mark (OpenRouter's form), which marks the message's
# last block upstream: after every part of the message in prompt order.
_WHOLE = 1 << 30


def _whole_sites(messages: tuple[Message, ...]) -> Iterator[Site]:
    """The messages that carry a cache_control of their own (a Chat message field; Anthropic
    targets have it moved onto a block first, by move_message_cache_marks)."""
    for m, message in enumerate(messages):
        extras = message.extras
        if extras is not EMPTY and extras.get("cache_control") is not None:
            yield m, _WHOLE, None


def _marked(part: Part) -> bool:
    fields = part.data if isinstance(part, Opaque) else part.extras
    return fields.get("cache_control") is not None


def _unmarked(part: Part, inner: int | None) -> Part:
    if inner is not None and isinstance(part, ToolResult) and not isinstance(part.content, str):
        content = list(part.content)
        content[inner] = _unmarked(content[inner], None)  # type: ignore[assignment]
        return replace(part, content=tuple(content))
    if isinstance(part, Opaque):
        return replace(part, data=part.data.without("cache_control"))
    return replace(part, extras=part.extras.without("cache_control"))


def drop_tool_breakpoints(declared: list[dict[str, object]], history_marks: int,
                          limit: int) -> tuple[list[dict[str, object]], tuple[Change, ...]]:
    """Tool declarations sent as they came (same protocol): the earliest of their
    breakpoints go while the request would hold more than `limit`."""
    marked = [int(place[1]) for place, _ in mark_holders({"tools": declared})]
    excess = len(marked) + history_marks - limit
    if excess <= 0:
        return declared, ()
    out = list(declared)
    for k in marked[:excess]:
        out[k] = {key: value for key, value in declared[k].items() if key != "cache_control"}
    return out, tuple(_drop_change(limit, f"tools[{k}]") for k in marked[:excess])


def _drop_change(limit: int, where: str) -> Change:
    return Change("drop_excess_cache_breakpoints", "drop-cache-breakpoint",
                  f"left out a cache_control breakpoint: the target takes {limit}, and the "
                  f"last {limit} are kept", where, lossless=False)


def tool_marked(declared: Any) -> bool:
    """Whether any tool declaration in `declared` (a request's tools) carries a cache mark."""
    return isinstance(declared, list) and any(
        place[0] == "tools" for place, _ in mark_holders({"tools": declared}))


def marks(message_parts: tuple[Message, ...]) -> int:
    """How many breakpoints the messages hold, a message's own mark included."""
    return sum(1 for _ in _sites(message_parts)) + sum(1 for _ in _whole_sites(message_parts))

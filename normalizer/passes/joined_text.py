"""Content that must be one plain string: text parts joined where the target takes no list."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Message, Part, Text, Thinking, ToolCall, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile


def join_text_parts(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes messages of params.roles (rule assistant-content-not-string) whose text would be
    sent as a list of parts (several parts, or parts with extras such as cache_control)
    where the target takes one string. An assistant message keeps its calls and thinking,
    which travel in fields of their own; a tool result's text parts become its one string.
    A list holding anything but text (an image) is left as it is: no string can carry it.

    Rejected by: Groq, until its API took lists (groq-python 0.30.0, 2025-07-11):
    "'messages.0' : for 'role:system' the following must be
    satisfied[('messages.0.content' : value must be a string)]" (OpenHands/OpenHands#4643),
    the same for an assistant (tidyverse/ellmer#162) and a tool message
    (CherryHQ/cherry-studio#3307).

    Before: system([text "A", text "B" {cache_control}]); system([]); tool(result [text "x"])
    After:  system(text "A" + newline + "B"); system(""); tool(result "x")
    Lossless when only part boundaries go (joined with a newline); lossy when part extras
    (cache hints) are dropped.
    """
    roles = set(profile.param("assistant-content-not-string", "roles", ("system",)))
    changes: list[Change] = []
    out: list[Message] = []
    for i, message in enumerate(draft.history.messages):
        if message.role not in roles:  # before reading the parts
            out.append(message)
            continue
        joined, change = (_join_results(message, f"messages[{i}]") if message.role == "tool"
                          else _join_content(message, f"messages[{i}]"))
        out.append(joined)
        if change is not None:
            changes.append(change)
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _join_content(message: Message, where: str) -> tuple[Message, Change | None]:
    """The message's content parts (all but calls and thinking) as one text, if they are
    text only and would go as a list."""
    content = [p for p in message.parts if not isinstance(p, ToolCall | Thinking)]
    texts = [p for p in content if isinstance(p, Text)]
    array = message.extras.get("content_form") == "array"
    # A lone text kept as a one-part array (`content_form`) is still a list on the wire.
    plain = len(texts) == 1 and not texts[0].extras and not array
    if plain or len(texts) != len(content) or (not texts and message.parts and not array):
        return message, None
    extras = message.extras.without("content_form")
    if not texts and message.role == "assistant":  # its calls alone: content null, not []
        return replace(message, extras=extras), Change(
            "join_text_parts", "join-text-parts", "wrote empty content as null, not a list",
            where, lossless=True)
    one = Text("\n".join(t.text for t in texts))
    # No parts at all (Anthropic's `system: []`) is an empty list on the wire: "" here.
    first = texts[0] if texts else None
    parts: list[Part] = [] if texts else [one]
    for part in message.parts:  # the joined text where the first was; calls stay in order
        if part is first:
            parts.append(one)
        elif not isinstance(part, Text):
            parts.append(part)
    lost = any(t.extras for t in texts)
    return replace(message, parts=tuple(parts), extras=extras), Change(
        "join_text_parts", "join-text-parts",
        (f"joined {len(texts)} text part(s) into one string" if texts
         else "wrote empty content as an empty string, not a list")
        + (" and dropped their part fields" if lost else ""), where, lossless=not lost)


def _join_results(message: Message, where: str) -> tuple[Message, Change | None]:
    """Each result whose output is a list of text parts, as one string."""
    parts: list[Part] = []
    joined = 0
    lost = False
    for part in message.parts:
        if (isinstance(part, ToolResult) and not isinstance(part.content, str)
                and all(isinstance(p, Text) for p in part.content)):
            texts = [p for p in part.content if isinstance(p, Text)]
            part = replace(part, content="\n".join(t.text for t in texts))
            joined += 1
            lost = lost or any(t.extras for t in texts)
        parts.append(part)
    if not joined:
        return message, None
    return replace(message, parts=tuple(parts)), Change(
        "join_text_parts", "join-text-parts",
        f"wrote the output of {joined} tool result(s) as one string, not a list of parts"
        + (" and dropped their part fields" if lost else ""), where, lossless=not lost)

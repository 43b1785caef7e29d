"""A prefill (a final assistant message, for the model to continue) whose text ends with
whitespace: Anthropic refuses it."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Part, Text
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile


def trim_prefill_whitespace(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a final assistant message whose text ends with whitespace (rule
    prefill-trailing-whitespace): the whitespace at the end of its last text part goes, and a
    text part that was nothing but whitespace goes whole (the one before it is then the end).
    Lossy, said: the model continues from the text without its last spaces or newlines,
    which every client's fix also does.

    Rejected by: Anthropic "messages: final assistant content cannot end with trailing
    whitespace" (tailcallhq/forgecode#1872, justlovemaki/AIClient2API#80).

    Before: [user "Write a title", assistant "title: "]
    After:  [user "Write a title", assistant "title:"]
    """
    messages = draft.history.messages
    last = messages[-1] if messages else None
    if last is None or last.role != "assistant":
        return draft, ()
    parts: list[Part] = list(last.parts)
    cut = 0
    while parts and isinstance(parts[-1], Text) and parts[-1].text[-1:].isspace():
        end = parts[-1]
        kept = end.text.rstrip()
        cut += len(end.text) - len(kept)
        if kept:
            parts[-1] = replace(end, text=kept)
            break
        parts.pop()
    if not cut:
        return draft, ()
    at = len(messages) - 1
    change = Change("trim_prefill_whitespace", "trim-prefill-whitespace",
                    f"left out {cut} whitespace character(s) at the end of the final assistant "
                    "message: the vendor refuses a prefill that ends with whitespace",
                    f"messages[{at}]", lossless=False)
    history = replace(draft.history, messages=(*messages[:-1], last.with_parts(tuple(parts))))
    return replace(draft, history=history), (change,)

"""Reasoning items that nothing follows: a Responses turn whose stream broke after its
reasoning, or reasoning items replayed one after another.

OpenAI's Responses API takes a reasoning item only right before the item it was produced
for, a call or an assistant message. In the neutral model a reasoning item is a Thinking part
of an assistant message, and the item after it is the next part's, or (for the last part)
the first item of the next message.
"""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Message, Opaque, Part, Thinking, part_types
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile
from normalizer.protocols import answers_reasoning

_PASS = "drop_orphan_thinking"


def drop_orphan_thinking(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes reasoning items given by id and not followed by a call, a program item or an
    assistant message (rule reasoning-item-orphan): the Thinking part is dropped, and an
    assistant message left with no parts goes with it. An id-less one stays: OpenAI takes it
    anywhere.

    Rejected by: OpenAI Responses "Item 'rs_…' of type 'reasoning' was provided without its
    required following item." (continuedev/continue#8933, the whole body recorded).

    Before: user "Hi", assistant [reasoning rs_1], user "Again"
    After:  user "Hi", user "Again"
    Lossy: the reasoning is named in the change (the vendor would not take it back).
    """
    messages = draft.history.messages
    if Thinking not in part_types(messages):
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = []
    last = len(messages) - 1
    for i, message in enumerate(messages):
        if message.role != "assistant" or Thinking not in map(type, message.parts):
            out.append(message)
            continue
        orphans = _orphans(message, messages[i + 1] if i < last else None)
        if not orphans:
            out.append(message)
            continue
        for j in orphans:
            changes.append(Change(_PASS, "drop-orphan-reasoning",
                                  "dropped a reasoning item that no call or assistant message "
                                  "follows (the target refuses it)",
                                  f"messages[{i}].parts[{j}]", lossless=False))
        parts = tuple(p for j, p in enumerate(message.parts) if j not in orphans)
        if parts:
            out.append(replace(message, parts=parts))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _orphans(message: Message, after: Message | None) -> tuple[int, ...]:
    """The indexes of `message`'s Thinking parts whose next item is not one they belong to."""
    parts = message.parts
    found: list[int] = []
    for j, part in enumerate(parts):
        if not isinstance(part, Thinking) or "id" not in part.extras:
            continue  # an id-less reasoning item is taken anywhere (its encrypted_content alone)
        if j + 1 < len(parts):
            follows = _starts_answer(parts[j + 1])
        else:  # the next message's first item; an assistant message with no parts is one
            follows = after is not None and after.role == "assistant" and (
                not after.parts or _starts_answer(after.parts[0]))
        if not follows:
            found.append(j)
    return tuple(found)


def _starts_answer(part: Part) -> bool:
    """Whether `part` renders as a call item or in an assistant message item (what a
    reasoning item before it was produced for): an Opaque item, by the item it is."""
    if isinstance(part, Thinking):
        return False
    if not isinstance(part, Opaque) or part.slot == "part":
        return True  # text and media go in a message item; a call is a function_call item
    return answers_reasoning(part.data)

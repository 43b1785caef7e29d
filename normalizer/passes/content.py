"""Content passes: no empty text blocks, no message without content."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Message, Part, Text, Thinking, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes.crossing import with_refusal_part
from normalizer.profiles import Profile

# Protocols whose wire counts thinking as message content (a block or part of its own);
# OpenAI Chat carries it beside the content (`reasoning_content`), so there a message with
# only thinking has no content.
_THINKING_IS_CONTENT = frozenset({"anthropic", "gemini", "openai_responses"})
# Where system messages go to the body's `system` field, not into turns: the empty-content
# rule is about turns, and Anthropic took `system: []` (llama-index's recorded request,
# tests/data/real_requests/anthropic/empty-system-array.yaml).
_SYSTEM_OUTSIDE_TURNS = frozenset({"anthropic"})
EMPTY_TEXT = "(empty message)"
EMPTY_RESULT = "(the tool returned no output)"


def _blank(part: Part) -> bool:
    return isinstance(part, Text) and not part.text.strip()


def _empty(part: Part) -> bool:
    return isinstance(part, Text) and not part.text


def drop_empty_text_blocks(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes empty text parts beside other parts (a streamed assistant turn that opened a
    text block and then only called a tool).

    Rejected by: Anthropic "messages: text content blocks must be non-empty" (its profile).
    A whitespace-only text beside a non-blank part is accepted there (recorded: simonw/
    llm-anthropic, a " " block before tool_use; tabulated in LibreChat-AI/agents#124), so it
    stays: a valid body comes back unchanged, byte for byte.

    Before: [assistant(text "", call_1)]
    After:  [assistant(call_1)]
    Lossless (nothing was said). A message whose parts are all blank is left to
    `fill_empty_content`, so that no message disappears here.
    """
    out: list[Message] = []
    changes: list[Change] = []
    for m, message in enumerate(draft.history.messages):
        for part in message.parts:  # what _empty asks, without a call or generator per part
            if isinstance(part, Text) and not part.text:
                break
        else:
            out.append(message)  # nothing empty
            continue
        kept = tuple(p for p in message.parts if not _empty(p))
        if all(_blank(p) for p in kept):
            out.append(message)  # only blank parts (or none) would be left
            continue
        changes.extend(Change("drop_empty_text_blocks", "drop-empty-text",
                              "dropped an empty text part", f"messages[{m}].parts[{p}]",
                              lossless=True)
                       for p, part in enumerate(message.parts) if _empty(part))
        out.append(replace(message, parts=kept))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def fill_empty_content(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes messages with no content: user messages get a placeholder text (a user message
    is never dropped); assistant and system messages with nothing in them are removed (they
    carry nothing, and a placeholder in an assistant turn would put words in the model's
    mouth; an assistant message holding only thinking is removed too where the protocol does
    not count thinking as content); tool results with no output get a text saying so. An
    assistant message whose only content is its Chat `refusal` field keeps it as a refusal
    part (lossless).

    Rejected by: Anthropic "all messages must have non-empty content except for the optional
    final assistant message"; Gemini "contents.parts must not be empty" — see the profiles.

    Before: [user "", assistant "", user "hi"]
    After:  [user "(empty message)", user "hi"]
    Lossless: only empty things are replaced or removed.
    """
    out: list[Message] = []
    changes: list[Change] = []
    thinking_counts = profile.protocol in _THINKING_IS_CONTENT
    system_outside = profile.protocol in _SYSTEM_OUTSIDE_TURNS
    for m, message in enumerate(draft.history.messages):
        if _filled(message, thinking_counts):  # the common case, without building a place
            out.append(message)
            continue
        if system_outside and message.role == "system" and not message.parts:
            out.append(message)  # no turn: the body's (empty) system field
            continue
        fixed, change = _fill(message, f"messages[{m}]", thinking_counts)
        if change is not None:
            changes.append(change)
        if fixed is not None:
            out.append(fixed)
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _filled(message: Message, thinking_counts: bool) -> bool:
    """Whether `_fill` would keep `message` as it is: some content (a tool message: every
    result has some output)."""
    if message.role == "tool":
        return _results_filled(message.parts)
    for part in message.parts:
        if isinstance(part, Text):
            if part.text.strip():
                return True
        elif thinking_counts or not isinstance(part, Thinking):
            return True
    return False


def _results_filled(parts: tuple[Part, ...]) -> bool:
    """No result among `parts` without output: a loop, not any(), since this runs for every
    tool message, with `_no_output` of a text result spelled out."""
    for part in parts:
        if isinstance(part, ToolResult):
            content = part.content
            if type(content) is str:
                if part.value is None and not content.strip():
                    return False
            elif _no_output(part):
                return False
    return True


def _fill(message: Message, where: str,
          thinking_counts: bool) -> tuple[Message | None, Change | None]:
    if message.role == "tool":
        return _fill_results(message, where)
    thoughts = any(isinstance(p, Thinking) for p in message.parts)
    if not all(_blank(p) or (isinstance(p, Thinking) and not thinking_counts)
               for p in message.parts):
        return message, None
    if message.role == "user":
        return replace(message, parts=(Text(EMPTY_TEXT),)), Change(
            "fill_empty_content", "fill-empty-content",
            f"gave an empty user message the text {EMPTY_TEXT!r}", where, lossless=True)
    refusal = message.extras.get("refusal")
    if isinstance(refusal, str) and refusal.strip():
        # The openai SDK keeps a refusal in the message's `refusal` field with content null:
        # the message says something, which a refusal part carries as content.
        return with_refusal_part(message), Change(
            "fill_empty_content", "refusal-field-as-part", f"the {message.role} message's "
            "refusal field (its only content) sent as a refusal part", where, lossless=True)
    if thoughts:
        return None, Change("fill_empty_content", "drop-thinking-only-message",
                            f"removed the {message.role} message holding only thinking, which "
                            "is no content for this protocol", where, lossless=False)
    return None, Change("fill_empty_content", "drop-empty-message",
                        f"removed an empty {message.role} message", where, lossless=True)


def _no_output(result: ToolResult) -> bool:
    """No text, no media or other part, no structured value: nothing came back."""
    if result.value is not None or (not isinstance(result.content, str) and any(
            not isinstance(p, Text) for p in result.content)):
        return False
    return not result.text.strip()


def _fill_results(message: Message, where: str) -> tuple[Message, Change | None]:
    parts = tuple(replace(p, content=EMPTY_RESULT)
                  if isinstance(p, ToolResult) and _no_output(p) else p
                  for p in message.parts)
    if parts == message.parts:
        return message, None
    return replace(message, parts=parts), Change(
        "fill_empty_content", "fill-empty-tool-result",
        f"gave tool results with no output the text {EMPTY_RESULT!r}", where, lossless=True)

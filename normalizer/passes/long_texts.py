"""Content pass: a text longer than the vendor takes in one string (rule text-too-long)."""

from __future__ import annotations

from dataclasses import replace

from normalizer.model import Change, Part, Text, ToolResult
from normalizer.passes import Draft, Policy
from normalizer.passes._content_walk import with_parts_replaced
from normalizer.profiles import Profile

RULE = "text-too-long"
# Stands where the middle of a shortened text was, so that the model reading it sees the cut.
MARK = "\n[… {cut} characters left out here: the text was longer than the {limit} characters " \
       "the target takes in one string …]\n"


def shorten_long_texts(
    draft: Draft, profile: Profile, policy: Policy
) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a text longer than the target takes in one string (rule text-too-long,
    params.max_length): a message's text part, or a tool result's output (its string, or a
    text part of it), keeps its beginning and its end, and a line saying how many characters
    were left out stands between them, the whole as long as the limit. Both ends, because a
    tool's output often says what went wrong last (a build log, a stack trace). The message
    stays, with its role and its other parts.

    Rejected by: OpenAI "Invalid 'messages[5].content': string too long. Expected a string
    with maximum length 10485760, but got a string with length 10605342 instead." (a tool's
    output of `ls -R`, Shopify/roast#52); the same words on the Responses API for
    `input[N].output`.

    Before: tool result of 10,605,342 characters for OpenAI
    After:  its first 5,242,819 and last 5,242,818 characters with "[… 119,705 characters
            left out here: …]" between them, 10,485,760 characters in all
    Lossy: the middle of the text is gone; the change says how much.
    """
    if not profile.enforces(RULE):
        return draft, ()
    limit = int(profile.param(RULE, "max_length"))
    new: dict[tuple[int, int], Part] = {}
    changes: list[Change] = []
    for m, message in enumerate(draft.history.messages):
        for j, part in enumerate(message.parts):
            kind = type(part)  # nearly every part: told here, no call and no path made
            if kind is Text:
                if len(part.text) <= limit:  # type: ignore[union-attr]
                    continue
            elif kind is not ToolResult or not _result_long(part, limit):  # type: ignore[arg-type]
                continue
            new[m, j] = _part(part, f"messages[{m}].parts[{j}]", limit, changes)
    return with_parts_replaced(draft, new), tuple(changes)


def _result_long(result: ToolResult, limit: int) -> bool:
    """Whether a tool result's output (its string, or a text part of it) is over the limit."""
    content = result.content
    if type(content) is str:
        return len(content) > limit
    return any(type(p) is Text and len(p.text) > limit  # type: ignore[union-attr]
               for p in content)


def _part(part: Part, where: str, limit: int, changes: list[Change]) -> Part:
    kind = type(part)
    if kind is Text:
        text = part.text  # type: ignore[union-attr]
        if len(text) <= limit:
            return part
        return replace(part, text=_shortened(text, limit, where, changes))  # type: ignore[type-var]
    if kind is not ToolResult:
        return part
    content = part.content  # type: ignore[union-attr]
    if isinstance(content, str):
        if len(content) <= limit:
            return part
        return replace(part, content=_shortened(content, limit,  # type: ignore[type-var]
                                                f"{where}.content", changes))
    inner = tuple(replace(p, text=_shortened(p.text, limit, f"{where}.content[{n}]", changes))
                  if type(p) is Text and len(p.text) > limit else p  # type: ignore[union-attr]
                  for n, p in enumerate(content))
    if all(a is b for a, b in zip(inner, content, strict=True)):
        return part
    return replace(part, content=inner)  # type: ignore[type-var]


def _shortened(text: str, limit: int, where: str, changes: list[Change]) -> str:
    """`text` cut to at most `limit` characters: its two ends and, between them, the mark
    saying exactly how many characters it stands for."""
    cut = len(text) - limit
    while True:  # the mark's own length moves the cut; it grows by digits, so this ends
        mark = MARK.format(cut=f"{cut:,}", limit=f"{limit:,}")
        need = len(text) - max(limit - len(mark), 0)
        if need <= cut:
            break
        cut = need
    if len(mark) > limit:  # no room for the mark (a limit of a few dozen): a plain cut
        changes.append(Change(
            "shorten_long_texts", "shorten-long-text",
            f"left out the last {len(text) - limit:,} of the {len(text):,} characters of a "
            f"text (the target takes at most {limit:,} in one string)", where,
            lossless=False))
        return text[:limit]
    keep = len(text) - cut
    head, tail = keep - keep // 2, keep // 2
    changes.append(Change(
        "shorten_long_texts", "shorten-long-text",
        f"left out {cut:,} of the {len(text):,} characters in the middle of a text (the "
        f"target takes at most {limit:,} in one string); kept the first {head:,} and the "
        f"last {tail:,}", where, lossless=False))
    return text[:head] + mark + (text[len(text) - tail:] if tail else "")

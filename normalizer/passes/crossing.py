"""The crossing pass: parts one protocol has and the target does not, turned into what the
target has (normalizer/crossing.py is the table; docs/crossing.md the page). It runs for
every target, before the profile's passes, because it follows from the protocol alone.
"""

from __future__ import annotations

import json
from collections.abc import Sized
from dataclasses import replace
from typing import TypeVar

from normalizer.crossing import (
    CITATION_KEYS,
    citation_names,
    field_fate,
    field_value,
    media_native,
    media_placeholder,
    opaque_text,
    plain_text,
    reported_fields,
    typed_part,
)
from normalizer.model import (
    EMPTY,
    Change,
    JsonMap,
    Media,
    Message,
    Opaque,
    Part,
    ResultPart,
    Text,
    Thinking,
    ToolCall,
    ToolResult,
    thaw,
)
from normalizer.passes import Draft, Policy
from normalizer.passes._blocks import describe_result
from normalizer.profiles import Profile
from normalizer.protocols import foreign_extras

NAME = "cross_parts"

# What carries extras: a message or a part (an Opaque part has none: `_without_fields`
# hands it back as it is).
_Extras = TypeVar("_Extras", bound="Message | Part")


def cross_parts(draft: Draft, profile: Profile,
                policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes parts the target protocol has no form for: another vendor's hosted tool activity
    (-> text, lossy), a part only another protocol knows (dropped, lossy), media the target
    cannot carry where it stands (-> a placeholder, lossy; a plain-text document -> its text),
    a structured tool result for a protocol whose results are text (-> JSON text, lossless),
    citations the target has no field for (dropped, each named in a lossy change), and
    fields another protocol owns that hold a setting or content (dropped, each named in a
    change: lossless for settings such as cache hints; see `crossing.FOREIGN_FIELDS`).

    Before: [assistant(anthropic server_tool_use web_search)] for openai_chat
    After:  [assistant(text "[anthropic server_tool_use: {...}]")]
    """
    del policy
    target = profile.protocol
    changes: list[Change] = []
    messages = []
    named = "name" in foreign_extras(target)
    reported = reported_fields(target)
    for m, message in enumerate(draft.history.messages):
        if message.extras is not EMPTY:
            message = _message_fields(message, target, named, reported, f"history[{m}]",
                                      changes)
        if _all_native(message.parts, reported):  # the common case: no list, no tuple
            messages.append(message)
            continue
        parts: list[Part] = []
        moved: list[Part] = []
        for j, part in enumerate(message.parts):
            if _native(part, reported):  # the common case, without building its place text
                parts.append(part)
                continue
            where = f"history[{m}].parts[{j}]"
            if isinstance(part, ToolResult):
                part, media = _move_media(part, target, where, changes)
                moved.extend(_without_fields(p, _label(p), target, reported, f"{where}.content"
                                             f"[{k}]", changes) for k, p in media)
            parts.extend(_cross(part, target, "message", where, changes, reported))
        parts.extend(moved)
        messages.append(message if tuple(parts) == message.parts
                        else replace(message, parts=tuple(parts)))
    if not changes:
        return draft, ()
    history = replace(draft.history, messages=tuple(messages))
    return replace(draft, history=history), tuple(changes)


def _unnamed(message: Message, target: str, where: str, changes: list[Change]) -> Message:
    """A Chat message's participant `name` (which tells apart speakers of one role), for a
    protocol with no field for it: the renderer would leave it out unsaid."""
    changes.append(Change(NAME, "participant-name-dropped", f"the {message.role} message's "
                          f"name {message.extras['name']!r} has no field in {target}; dropped",
                          where, lossless=False))
    return replace(message, extras=message.extras.without("name"))


def _message_fields(message: Message, target: str, named: bool, reported: frozenset[str],
                    where: str, changes: list[Change]) -> Message:
    """A message's own fields another protocol owns, for `target`: a participant name and a
    refusal each have a change of their own, the others `_without_fields`."""
    if named and message.extras.get("name"):
        message = _unnamed(message, target, where, changes)
    refusal = message.extras.get("refusal")
    if target != "openai_chat" and isinstance(refusal, str) and refusal:
        message = _refusal_part(message, target, where, changes)
    if not reported.isdisjoint(message.extras):
        message = _without_fields(message, f"the {message.role} message", target, reported,
                                  where, changes)
    return message


def _refusal_part(message: Message, target: str, where: str, changes: list[Change]) -> Message:
    """A Chat assistant message's `refusal` field, for a protocol with no such field: the
    same text as a refusal part, which Responses writes as one and the others as text."""
    changes.append(Change(NAME, "refusal-field-as-part", f"the {message.role} message's refusal "
                          f"field sent as a refusal part in {target}", where, lossless=True))
    return with_refusal_part(message)


def with_refusal_part(message: Message) -> Message:
    """`message` with its `refusal` field (the openai SDK's message object keeps the model's
    refusal there, apart from `content`) moved into a refusal part, before its calls."""
    at = next((j for j, p in enumerate(message.parts) if isinstance(p, ToolCall)),
              len(message.parts))
    refusal = Text(message.extras["refusal"], {"type": "refusal"})
    return replace(message, parts=(*message.parts[:at], refusal, *message.parts[at:]),
                   extras=message.extras.without("refusal"))


def _all_native(parts: tuple[Part, ...], reported: frozenset[str]) -> bool:
    """`all(_native(p, reported) for p in parts)`, with the model's own types told apart by
    identity first: this pass is the first to read every part of a history (8 ms of a
    10,000-message normalize went here)."""
    for part in parts:
        kind = type(part)
        if kind is ToolCall or kind is Thinking or kind is Text or (
                kind is ToolResult and type(part.content) is str  # type: ignore[union-attr]
                and part.value is None):  # type: ignore[union-attr]
            extras = part.extras  # type: ignore[union-attr]
            if extras is EMPTY or (reported.isdisjoint(extras)
                                   and (kind is not Text or not _cites(part))):  # type: ignore[arg-type]
                continue
            return False
        if not _native(part, reported):
            return False
    return True


def _native(part: Part, reported: frozenset[str]) -> bool:
    """Parts every protocol has a form for, which `_cross` and `_move_media` keep as they
    are: text, calls, thinking, and a text-only result with no structured value, none of
    them holding a field another protocol owns that is `reported` for the target."""
    extras = getattr(part, "extras", EMPTY)
    if extras is not EMPTY and not reported.isdisjoint(extras):
        return False
    if isinstance(part, Text):
        return extras is EMPTY or not _cites(part)
    if isinstance(part, ToolCall | Thinking):
        return True
    return isinstance(part, ToolResult) and isinstance(part.content, str) \
        and part.value is None


_LABELS = {Text: "a text part", ToolCall: "a tool call", ToolResult: "a tool result",
           Thinking: "a thinking part"}


def _label(part: Part) -> str:
    if isinstance(part, Media):
        return f"{'an' if part.kind[:1] in 'aeiou' else 'a'} {part.kind} part"
    return _LABELS.get(type(part), "a part")


def _holds(value: object) -> bool:
    """Whether a field's value says anything: not null, false, "" or empty."""
    if value is None or value is False or value == "":
        return False
    return not (isinstance(value, Sized) and not isinstance(value, str) and len(value) == 0)


def _without_fields(item: _Extras, label: str, target: str, reported: frozenset[str],
                    where: str, changes: list[Change]) -> _Extras:
    """`item` (a message or a part) without the fields another protocol owns that hold a
    setting or content the target has no field for: its renderer would leave them out
    unsaid. One change names them all; lossless when each is a setting. A text's citations
    are left to `_citations`, which names each one."""
    extras: JsonMap = getattr(item, "extras", EMPTY)
    if extras is EMPTY:
        return item
    skip = CITATION_KEYS if isinstance(item, Text) else ()
    keys = [k for k, v in extras.items() if k in reported and k not in skip and _holds(v)]
    if not keys:
        return item
    named = "; ".join(f"{k} {field_value(extras[k])} ({field_fate(k).what})" for k in keys)
    lossless = all(field_fate(k).kind == "setting" for k in keys)
    changes.append(Change(NAME, "foreign-field-dropped", f"{label}: {len(keys)} field(s) "
                          f"with no form in {target} dropped: {named}", where, lossless))
    return replace(item, extras=extras.without(*keys))  # type: ignore[arg-type]


def _cites(text: Text) -> bool:
    """Whether a Text carries citations (of any protocol): `_citations` decides what stays."""
    return any(key in text.extras for key in CITATION_KEYS)


def _cross(part: Part, target: str, place: str, where: str, changes: list[Change],
           reported: frozenset[str]) -> list[Part]:
    part = _without_fields(part, _label(part), target, reported, where, changes)
    if isinstance(part, Opaque) and part.protocol != target:
        if part.hosted or part.slot == "message":
            changes.append(Change(NAME, "hosted-activity-as-text", f"{part.protocol} "
                                  f"{part.kind} has no form in {target}; sent as text, "
                                  "not re-run", where, lossless=False))
            return [Text(opaque_text(part))]
        if part.kind == "":  # no type at all: its words, typed as the target's text
            typed, change = typed_part(part, NAME, where)
            changes.append(change)
            return [typed]
        text = plain_text(part)
        if text is not None:
            changes.append(Change(NAME, "retype-text-part", f"a {part.protocol} part typed "
                                  f"{part.kind!r} holding only text; sent as {target}'s text",
                                  where, lossless=True))
            return [Text(text)]
        changes.append(Change(NAME, "foreign-part-dropped", f"{part.protocol} {part.kind} "
                              f"has no form in {target}; dropped", where, lossless=False))
        return []
    if isinstance(part, Media) and not media_native(part, target, place):  # type: ignore[arg-type]
        return [_media_text(part, target, where, changes)]
    if isinstance(part, ToolResult):
        return [_result(part, target, where, changes, reported)]
    if isinstance(part, Text):
        return [_citations(part, target, where, changes)]
    return [part]


def _citations(text: Text, target: str, where: str, changes: list[Change]) -> Text:
    """Citations (Anthropic `citations`, Responses `annotations`) a target has no field for:
    the renderer would leave them out silently, so they go here, and the lossy change names
    each one (its URL, title or cited text); the text itself is kept."""
    lost = [key for key, owner in CITATION_KEYS.items()
            if owner != target and key in text.extras]
    if not lost:
        return text
    names = [name for key in lost for name in citation_names(text.extras[key])]
    if names:
        changes.append(Change(NAME, "citations-dropped", f"{len(names)} citation(s) have no "
                              f"field in {target}; dropped, the text kept: "
                              + "; ".join(names), where, lossless=False))
    return replace(text, extras=text.extras.without(*lost))


def _move_media(result: ToolResult, target: str, where: str,
                changes: list[Change]) -> tuple[ToolResult, list[tuple[int, Media]]]:
    """Media a target carries in a turn but not inside a result (OpenAI Chat, Gemini) move
    out of the result, to the end of the same turn: the renderers write them there (Chat as
    a user message after the tool messages, Gemini as parts beside the responses)."""
    if isinstance(result.content, str):
        return result, []
    movable = [(k, p) for k, p in enumerate(result.content) if isinstance(p, Media)
               and not media_native(p, target, "result") and media_native(p, target, "message")]
    if not movable:
        return result, []
    kept = tuple(p for p in result.content if not any(p is m for _, m in movable))
    if result.value is None and not any(isinstance(p, Text) and p.text for p in kept):
        # Never an empty result (which fill_empty_content would call "no output").
        kept = (*kept, Text(f"[{len(movable)} attachment(s) follow the tool results]"))
    changes.append(Change(NAME, "media-moved-beside-results", f"{len(movable)} media part(s) "
                          f"of the {describe_result(result)} moved after the results "
                          f"({target} has no media inside a result)", where, lossless=True))
    return replace(result, content=kept), movable


def _media_text(media: Media, target: str, where: str, changes: list[Change]) -> Text:
    if media.text is not None:
        changes.append(Change(NAME, "document-as-text", f"a plain-text document sent as "
                              f"a text part in {target}", where, lossless=True))
        return Text(media.text)
    changes.append(Change(NAME, "media-as-placeholder", f"a {media.kind} ({media.source}) "
                          f"has no form here in {target}; a text placeholder names it",
                          where, lossless=False))
    return Text(media_placeholder(media))


def _result(result: ToolResult, target: str, where: str, changes: list[Change],
            reported: frozenset[str]) -> ToolResult:
    content = result.content
    if not isinstance(content, str):
        crossed: list[ResultPart] = []
        for k, part in enumerate(content):
            for new in _cross(part, target, "result", f"{where}.content[{k}]", changes,
                              reported):
                crossed.append(new)  # type: ignore[arg-type]
        content = tuple(crossed)
    if result.value is not None and target != "gemini" and not _has_text(content):
        text = json.dumps(thaw(result.value), ensure_ascii=False)
        # Media beside a structured value (a Gemini functionResponse with parts) stay.
        content = (Text(text), *content) if content and not isinstance(content, str) else text
        changes.append(Change(NAME, "structured-result-as-json", f"the structured "
                              f"{describe_result(result)} sent as JSON text in {target}",
                              where, lossless=True))
        return replace(result, content=content, value=None)
    if content == result.content:
        return result
    return replace(result, content=content)


def _has_text(content: str | tuple[ResultPart, ...]) -> bool:
    if isinstance(content, str):
        return bool(content)
    return any(isinstance(p, Text) and p.text for p in content)

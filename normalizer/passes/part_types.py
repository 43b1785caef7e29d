"""Content parts of a type the vendor's API does not have (rule content-part-type-unknown), or
that the model does not take (rule content-type-unsupported)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from dataclasses import dataclass, replace
from fnmatch import fnmatchcase

from normalizer.crossing import media_placeholder, opaque_text, plain_text
from normalizer.media import chat_part_type
from normalizer.model import (
    EMPTY,
    Change,
    Media,
    Message,
    Opaque,
    Part,
    Text,
    ToolResult,
)
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

NAME = "replace_unknown_part_types"
RULE = "content-part-type-unknown"
MODEL_RULE = "content-type-unsupported"
# Reasoning blocks another vendor wrote, replayed as content: dropped, as foreign thinking is
# by default (their text was never the conversation's), not turned into visible text.
_REASONING = frozenset({"thinking", "redacted_thinking", "reasoning"})


def _chat_type(part: object) -> str | None:
    """The `type` the Chat renderer writes for `part`, where it is a content part whose type
    can be one the vendor lacks: media, a refusal, and parts kept verbatim from a Chat
    body."""
    if isinstance(part, Media):
        return chat_part_type(part)
    if isinstance(part, Text):  # a refusal goes as a part of its own type; other texts `text`
        return "refusal" if part.extras.get("type") == "refusal" else None
    return _verbatim_type(part, "openai_chat")


def _responses_type(part: object) -> str | None:
    """The `type` the Responses renderer writes for `part`, where it can be one the vendor
    lacks: a text's or a media part's type kept from the body it came in (a Chat-style
    `text`, `image_url` or `file` part sent to Responses), and parts kept verbatim from a
    Responses body. Other media are written with the types Responses has (input_image,
    input_file, input_audio)."""
    if isinstance(part, Text | Media):  # a Chat type kept (a media part's: image_url, file)
        kind = part.extras.get("type")
        return kind if isinstance(kind, str) else None
    return _verbatim_type(part, "openai_responses")


def _verbatim_type(part: object, protocol: str) -> str | None:
    """The type of a content part `protocol`'s body held and the model keeps verbatim."""
    if isinstance(part, Opaque) and part.protocol == protocol and part.slot == "part":
        kind = part.data.get("type")
        return kind if isinstance(kind, str) else None
    return None


def _anthropic_type(part: object) -> str | None:
    """The `type` the Anthropic renderer writes for `part`, where it can be one the vendor
    lacks: a Chat media part's type kept from the body it came in (an `image_url` or `file`
    part sent to Anthropic), and blocks kept verbatim from an Anthropic body other than
    server tool activity (another protocol's part, such as a Responses `output_text`)."""
    if isinstance(part, Media):
        kind = part.extras.get("type")
        return kind if isinstance(kind, str) else None
    if isinstance(part, Opaque) and part.hosted:
        return None
    return _verbatim_type(part, "anthropic")


def _no_type(part: object) -> None:
    """Gemini: parts of a type it lacks are crossed before the passes run; only the media
    types of its inline images are checked (`_Types.images`)."""
    return None


_TYPE_OF: dict[str, Callable[[object], str | None]] = {
    "openai_chat": _chat_type, "openai_responses": _responses_type,
    "anthropic": _anthropic_type, "gemini": _no_type}
# A non-standard spelling some clients write, and the type it means: relabelled, not lost.
_SAME_TYPE = {"image/jpg": "image/jpeg"}


@dataclass(frozen=True, slots=True)
class _Types:
    """What the target takes: the API's part types (None: not known to be limited) and the
    types the model refuses."""

    known: frozenset[str] | None
    refused: frozenset[str]
    type_of: Callable[[object], str | None]
    files: tuple[str, ...] = ()  # MIME globs the file part refuses (Responses: audio/*)
    images: frozenset[str] = frozenset()  # inline image MIME types taken (none: any)
    documents: frozenset[str] = frozenset()  # inline (base64) document MIME types taken
    # What a tool result's content takes, where it differs (Anthropic: text, image,
    # document, ...; no tool_use or thinking there). None: the same as here.
    results: _Types | None = None

    def for_results(self) -> _Types:
        """These types as a tool result's content parts see them."""
        return self if self.results is None else self.results

    @property
    def texts_vary(self) -> bool:
        """Whether a text can carry a type the vendor lacks (Chat: a refusal where there is no
        refusal part; Responses: any type kept from another body)."""
        return self.type_of is _responses_type or self.why("refusal") is not None

    def why(self, kind: str | None) -> str | None:
        """Why a part of this type cannot go as it is ("unknown", "unsupported"), or None
        (`verdict` adds "image-type" and "document-type": an inline image or document of a
        MIME type the vendor does not take)."""
        if kind is None:
            return None
        if self.known is not None and kind not in self.known:
            return "unknown"
        return "unsupported" if kind in self.refused else None

    def verdict(self, part: object) -> str | None:
        """`why` for `part`'s type, or "unsupported" for media sent as a file part of a MIME
        type the file part refuses (an mp3 as a Responses input_file), "image-type" for an
        inline image of a MIME type the vendor's images do not take (HEIC to Anthropic), and
        "document-type" for an inline document likewise (a base64 CSV to Anthropic)."""
        why = self.why(self.type_of(part))
        if why is not None or not isinstance(part, Media):
            return why
        if self.files and part.extras.get("type") == "input_file" and part.media_type \
                and any(fnmatchcase(part.media_type, glob) for glob in self.files):
            return "unsupported"
        if self.images and part.kind == "image" and part.data is not None \
                and part.media_type and part.media_type not in self.images:
            return "image-type"
        if self.documents and part.kind == "document" and part.data is not None \
                and part.media_type and part.media_type not in self.documents:
            return "document-type"
        return None


def _first_needing(messages: tuple[Message, ...], types: _Types) -> int | None:
    """The index of the first message with a part that cannot go as it is, or None (most
    histories). One walk, the parts that cannot carry a type of their own (calls,
    thinking, and texts where the vendor's types cannot differ) passed over by identity:
    this runs on every call, for every message. Media can differ on both wires (Chat:
    video_url, document_url; Responses: a Chat image_url or file kept from its body)."""
    texts = types.texts_vary
    for m, message in enumerate(messages):
        for part in message.parts:
            kind = type(part)
            if kind is Text:
                if texts and part.extras is not EMPTY and _unknown(part, types):
                    return m
            elif (kind is Opaque or kind is Media
                  or (kind is ToolResult and type(part.content) is not str)) \
                    and _unknown(part, types):  # type: ignore[union-attr]
                return m
    return None


def _unknown(part: Part, types: _Types) -> bool:
    """Whether `part`, or a part of it (a tool result's), cannot go as it is."""
    if isinstance(part, ToolResult):
        return not isinstance(part.content, str) and any(
            _unknown(p, types.for_results()) for p in part.content)
    return types.verdict(part) is not None


def replace_unknown_part_types(draft: Draft, profile: Profile,
                               policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes content parts whose type the target's API does not have (rule
    content-part-type-unknown, params.allowed): a Chat `image_url` part in an Anthropic or
    Responses body goes in the target's own form for the image, and a text-only part of
    another type (a Responses `output_text` in an Anthropic body) as text (both lossless);
    a video (`video_url`, which OpenRouter and Qwen hosts take) or a document by URL
    (Mistral's `document_url`) becomes a text placeholder naming it; another vendor's block
    kept verbatim in a Chat or Anthropic body (an Anthropic `tool_use` or `tool_result`, a
    Gemini `functionCall`, an unknown `drive_file`) becomes text describing it; a replayed
    reasoning block (`thinking`) is dropped. Parts the model does not take (rule
    content-type-unsupported, params.types: audio for a model without audio input;
    params.files: an audio clip as a Responses input_file) become a placeholder too. These
    are lossy, each named.

    Rejected by: OpenAI "Invalid value: 'thinking'. Supported values are: 'text',
    'image_url', 'input_audio', 'refusal', 'audio', and 'file'."; gpt-5-mini "Invalid
    'messages[3]'. Content blocks are expected to be either text or image_url type." (its
    profile).

    Before: [user(text, Media(video, url=…/clip.mp4))]
    After:  [user(text, Text("[video not carried to this provider: …/clip.mp4]"))]
    """
    del policy
    allowed, refused = profile.param(RULE, "allowed"), profile.param(MODEL_RULE, "types")
    files, images = profile.param(MODEL_RULE, "files"), profile.param(MODEL_RULE, "images")
    documents = profile.param(MODEL_RULE, "documents")
    type_of = _TYPE_OF.get(profile.protocol)
    if (allowed is None and not refused and not files and not images and not documents) \
            or type_of is None:
        return draft, ()
    messages = draft.history.messages
    types = _Types(None if allowed is None else frozenset(allowed), frozenset(refused or ()),
                   type_of, tuple(files or ()), frozenset(images or ()),
                   frozenset(documents or ()))
    in_results = profile.param(RULE, "allowed_in_results")
    if in_results is not None:
        types = replace(types, results=replace(types, known=frozenset(in_results)))
    first = _first_needing(messages, types)
    if first is None:
        return draft, ()
    changes: list[Change] = []
    out: list[Message] = list(messages[:first])
    for m, message in enumerate(messages[first:], first):
        if not any(_unknown(p, types) for p in message.parts):
            out.append(message)
            continue
        parts: list[Part] = []
        for j, part in enumerate(message.parts):
            where = f"history[{m}].parts[{j}]"
            if isinstance(part, ToolResult) and not isinstance(part.content, str):
                content: list[Part] = []
                for k, inner in enumerate(part.content):
                    content.extend(_swapped(inner, types.for_results(),
                                            f"{where}.content[{k}]", changes))
                parts.append(replace(part, content=tuple(content)))
            else:
                parts.extend(_swapped(part, types, where, changes))
        out.append(message.with_parts(tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


def _swapped(part: Part, types: _Types, where: str, changes: list[Change]) -> list[Part]:
    """`part` as it is when the vendor takes its type; else what stands in for it (nothing for
    replayed reasoning), with the change that says so."""
    kind = types.type_of(part)
    why = types.verdict(part)
    if why is None:
        return [part]
    if isinstance(part, Text):  # the same words under the place's own text type
        changes.append(Change(NAME, "refusal-as-text", f"a refusal part ({kind}) the "
                              "provider's API has no type for; sent as plain text", where,
                              lossless=True) if kind == "refusal" else
                       Change(NAME, "retype-text-part", f"a text part typed {kind!r}, which "
                              "the provider's API does not have; sent as the text type of its "
                              "place", where, lossless=True))
        return [Text(part.text, part.extras.without("type"))]
    if why == "unknown" and isinstance(part, Media) and "type" in part.extras:
        native = replace(part, extras=part.extras.without("type"))
        if types.verdict(native) is None:  # the same media in the place's own form
            changes.append(Change(NAME, "retype-media-part", f"{_a(part.kind)} part typed "
                                  f"{kind!r}, which the provider's API does not have; sent "
                                  "in the provider's own form for it", where, lossless=True))
            return [native]
    if why in ("image-type", "document-type") and isinstance(part, Media):
        return _media_of_another_type(part, why, types, where, changes)
    if why == "unsupported":
        who = ("the provider's file input does not take" if kind == "input_file"
               else "the model does not take")
        changes.append(Change(NAME, "unsupported-part-as-text", f"{_a(_kind(part))} part "
                              f"({kind}) {who}; a text placeholder names it", where,
                              lossless=False))
        return [Text(media_placeholder(part) if isinstance(part, Media)
                     else opaque_text(part))]  # type: ignore[arg-type]
    if isinstance(part, Media):
        changes.append(Change(NAME, "unknown-part-type-as-text", f"{_a(part.kind)} part "
                              f"({kind}) the provider's API has no type for; a text placeholder "
                              "names it", where, lossless=False))
        return [Text(media_placeholder(part))]
    assert isinstance(part, Opaque)  # the type functions give a type for these only
    text = plain_text(part)
    if text is not None:
        changes.append(Change(NAME, "retype-text-part", f"a text part typed {kind!r}, which "
                              "the provider's API does not have; sent as the text type of its "
                              "place", where, lossless=True))
        return [Text(text)]
    if part.kind in _REASONING:
        changes.append(Change(NAME, "unknown-part-type-dropped", f"a replayed {kind} block the "
                              "provider's API has no type for; dropped", where, lossless=False))
        return []
    changes.append(Change(NAME, "unknown-part-type-as-text", f"a {kind} part the provider's "
                          "API has no type for; sent as text describing it", where,
                          lossless=False))
    return [Text(opaque_text(part))]


def _media_of_another_type(part: Media, why: str, types: _Types, where: str,
                           changes: list[Change]) -> list[Part]:
    """An inline image or document of a MIME type the provider does not take: the same
    content under a type it takes where there is one (image/jpg as image/jpeg; a text/*
    document as plain text), else a placeholder naming it."""
    same = _SAME_TYPE.get(part.media_type or "")
    if why == "image-type" and same in types.images:
        changes.append(Change(NAME, "relabel-media-type", f"an image labelled "
                              f"{part.media_type!r}, which the provider does not take; sent "
                              f"as {same!r}, the same type", where, lossless=True))
        return [replace(part, media_type=same)]
    text = _plain_text(part) if why == "document-type" else None
    if text is not None:
        changes.append(Change(NAME, "document-as-text", f"a {part.media_type} document the "
                              "provider takes as base64 only when it is a PDF; sent as a "
                              "plain-text document, the same text", where, lossless=True))
        return [replace(part, data=None, text=text, media_type="text/plain")]
    changes.append(Change(NAME, "unsupported-part-as-text", f"{_a(part.kind)} part "
                          f"({part.media_type}) the provider's {part.kind}s do not take; a "
                          "text placeholder names it", where, lossless=False))
    return [Text(media_placeholder(part))]


def _plain_text(part: Media) -> str | None:
    """A text/* document's content as text, where its base64 data decodes as UTF-8."""
    if not (part.media_type or "").startswith("text/") or part.data is None:
        return None
    try:
        # Not validated: MIME-style base64 wraps its lines, and a text decodes the same.
        return base64.b64decode(part.data).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _kind(part: Part) -> str:
    return part.kind if isinstance(part, Media | Opaque) else type(part).__name__.lower()


def _a(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"

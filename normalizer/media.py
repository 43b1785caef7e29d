"""What a MIME type names, and a Gemini inlineData or fileData part as a Media part: read by
the wire parser (normalizer/wire/gemini.py) and the stream assembler (normalizer/streaming/
gemini.py) alike, so that an image a Gemini model streams is the same part as the one parse
reads from the request that sends it back. The other protocols' media shapes, read and
written, stay private to normalizer/wire/_media.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from normalizer.model import URL_IN_FILE_DATA, Media, MediaKind

# The extras key of a Gemini signature on a part that is not a thought.
GEMINI_SIGNATURE = "thought_signature"


def chat_part_type(media: Media) -> str | None:
    """The `type` of the Chat Completions content part `media` is written as (by
    normalizer/wire/_media.py's `chat_wire`, which reads it here), whether or not its fields
    give it a form there; None for a kind Chat has no part for. Documents by URL go as
    Mistral's `document_url` unless they came in a Chat `file_data`."""
    if media.kind in ("document", "file"):
        by_url = media.url is not None and media.extras.get(URL_IN_FILE_DATA) != "openai_chat"
        return "document_url" if by_url else "file"
    return _CHAT_TYPES.get(media.kind)


_CHAT_TYPES = {"image": "image_url", "video": "video_url", "audio": "input_audio"}


def kind_of(media_type: str | None, default: MediaKind) -> MediaKind:
    """The Media kind a MIME type names; `default` when it names none."""
    top = (media_type or "").split("/", 1)[0]
    if top in ("image", "audio", "video"):
        return top  # type: ignore[return-value]
    if media_type == "application/pdf" or top == "text":
        return "document"
    return default


_GEMINI_SNAKE = {"inline_data": "inlineData", "file_data": "fileData", "mime_type": "mimeType",
                 "file_uri": "fileUri", "display_name": "displayName"}


def gemini_media(part: Mapping[str, Any]) -> Media | None:
    """An inlineData or fileData part (snake_case accepted, written back in camelCase as
    google-genai sends it); the part's other fields stay in extras."""
    part = {_GEMINI_SNAKE.get(k, k): v for k, v in part.items()}
    rest = {k: v for k, v in part.items() if k not in ("inlineData", "fileData")}
    if isinstance(part.get("inlineData"), Mapping):
        inner = {_GEMINI_SNAKE.get(k, k): v for k, v in part["inlineData"].items()}
        if set(inner) != {"mimeType", "data"} or not _strings(inner.values()):
            return None
        mime = inner["mimeType"]
        media = Media(kind_of(mime, "file"), mime, data=inner["data"], extras=rest)
    elif isinstance(part.get("fileData"), Mapping):
        inner = {_GEMINI_SNAKE.get(k, k): v for k, v in part["fileData"].items()}
        if not set(inner) <= {"mimeType", "fileUri"} or not _strings(inner.values()):
            return None
        mime = inner.get("mimeType")
        media = Media(kind_of(mime, "file"), mime, url=inner.get("fileUri"), extras=rest)
    else:
        return None
    return media if media.source != "none" else None


def _strings(values: Iterable[Any]) -> bool:
    """Whether every value is a string: a part with another value in a media field is not
    media (it is kept verbatim, as a shape this model does not know)."""
    return all(isinstance(v, str) for v in values)


def signed_gemini_media(part: Mapping[str, Any], signature: str | None) -> Media | None:
    """`gemini_media` of a whole part whose `thoughtSignature` the caller has read: the
    signature goes in the Media's extras (GEMINI_SIGNATURE), not among its other fields."""
    media = gemini_media({k: v for k, v in part.items() if k != "thoughtSignature"})
    if media is None or signature is None:
        return media
    return Media(media.kind, media.media_type, media.data, media.url,
                 extras={GEMINI_SIGNATURE: signature, **media.extras})

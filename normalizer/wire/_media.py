"""Media parts (images, documents, audio, video) <-> each protocol's wire shapes. Private to
`normalizer.wire`.

Each `*_media` reader returns a Media only when writing it back gives the part exactly as
sent (checked, not assumed); otherwise it returns None and the caller keeps the part as an
Opaque one, so a spelling this module does not know is never altered. Each `*_wire` writer
returns None when the protocol has no form for that Media (the crossing pass turns such a
part into text before it reaches the renderer; see normalizer/crossing.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Final

from normalizer.media import chat_part_type, kind_of
from normalizer.model import URL_IN_FILE_DATA, Media, freeze, thaw
from normalizer.wire._extras import written

_DATA_URL = re.compile(r"data:([^;,]+);base64,(.*)", re.S)
Wire = dict[str, Any]


_WEB_URL = re.compile(r"https?://", re.IGNORECASE)


# Chat and Responses name an input_audio's format "wav" or "mp3" (their API references);
# a MIME type from another protocol spells them otherwise.
_AUDIO_FORMATS = {"mpeg": "mp3", "x-wav": "wav", "wave": "wav", "vnd.wave": "wav"}


def audio_format(media_type: str) -> str:
    """The `format` of an OpenAI input_audio part for an audio MIME type (audio/mpeg: mp3)."""
    sub = media_type.removeprefix("audio/")
    return _AUDIO_FORMATS.get(sub, sub)


def _from_url(url: str) -> dict[str, Any]:
    """A URL as Media fields: a base64 data URL splits into media_type and data."""
    match = _DATA_URL.fullmatch(url)
    return {"media_type": match[1], "data": match[2]} if match else {"url": url}


def _to_url(media: Media) -> str | None:
    if media.data is not None and media.media_type is not None:
        return f"data:{media.media_type};base64,{media.data}"
    return media.url if media.data is None else None


def _exact(part: Mapping[str, Any], media: Media | None,
           wire: Callable[[Media], Wire | None]) -> Media | None:
    """`media` where it is well typed and writes back as `part`; else None (the part is
    kept verbatim, as a shape this model does not know)."""
    if media is None or not all(isinstance(getattr(media, name), str | None)
                                for name in _STRING_FIELDS):
        return None
    return media if freeze(wire(media)) == freeze(part) else None


_STRING_FIELDS: Final = ("media_type", "data", "url", "file_id", "text", "filename")


def _rest(part: Mapping[str, Any], *own: str) -> dict[str, Any]:
    return {k: v for k, v in part.items() if k not in own}


# --- OpenAI Chat Completions content parts ---

# Chat part types Responses has no part of that name for (it has input_image and input_file).
CHAT_ONLY_FORMS: Final = frozenset({"image_url", "file"})


def chat_media(part: Mapping[str, Any]) -> Media | None:
    """image_url, input_audio, file, and the OpenAI-compatible video_url (OpenRouter) and
    document_url (Mistral) parts."""
    kind, inner = part.get("type"), part.get(str(part.get("type")))
    rest = _rest(part, "type", str(kind))
    media: Media | None = None
    if kind == "image_url" and isinstance(inner, Mapping) and isinstance(inner.get("url"), str):
        detail = {"detail": inner["detail"]} if "detail" in inner else {}
        media = Media("image", **_from_url(inner["url"]), extras={**rest, **detail})
    elif kind == "video_url" and isinstance(inner, Mapping) and isinstance(inner.get("url"), str):
        media = Media("video", **_from_url(inner["url"]), extras=rest)
    elif kind == "input_audio" and isinstance(inner, Mapping):
        media = Media("audio", f"audio/{inner.get('format')}", data=inner.get("data"),
                      extras=rest)
    elif kind == "file" and isinstance(inner, Mapping):
        media = _file_media(inner, rest, "file_data", "openai_chat")
    elif kind == "document_url" and isinstance(inner, str):
        media = Media("document", url=inner, filename=rest.pop("document_name", None),
                      extras=rest)
    return _exact(part, media, chat_wire)


def _file_media(inner: Mapping[str, Any], rest: dict[str, Any], data_key: str,
                protocol: str) -> Media | None:
    fields: dict[str, Any] = {}
    if isinstance(inner.get(data_key), str):
        fields = _from_url(inner[data_key])
        # Raw base64 without a data URL is data; a web address is a URL, marked to go back
        # in this protocol's `file_data` (OpenRouter takes one there: pydantic-ai's
        # cassette test_openrouter_document_url_no_force_download); elsewhere it is written
        # as that protocol writes a document's URL.
        if "url" in fields and not _WEB_URL.match(fields["url"]):
            fields = {"data": fields["url"]}
        elif "url" in fields:
            rest = {**rest, URL_IN_FILE_DATA: protocol}
    if isinstance(inner.get("file_id"), str):
        fields["file_id"] = inner["file_id"]
    if isinstance(inner.get("file_url"), str):
        fields["url"] = inner["file_url"]
    kind = kind_of(fields.get("media_type"), "document")
    return Media(kind, filename=inner.get("filename"), extras=rest, **fields)


def chat_wire(media: Media) -> Wire | None:
    """Media -> a Chat Completions content part, or None where Chat has no form for it."""
    extras = written(media.extras, "openai_chat", ("type", "detail"))
    url = _to_url(media)
    kind = chat_part_type(media)
    if kind == "image_url" and url is not None:
        inner = {"url": url, **({"detail": thaw(media.extras["detail"])}
                                if "detail" in media.extras else {})}
        return {"type": "image_url", "image_url": inner, **extras}
    if kind == "video_url" and url is not None:
        return {"type": "video_url", "video_url": {"url": url}, **extras}
    if kind == "input_audio" and media.data is not None and media.media_type:
        fmt = audio_format(media.media_type)
        return {"type": "input_audio", "input_audio": {"data": media.data, "format": fmt},
                **extras}
    if kind == "document_url":
        name = {} if media.filename is None else {"document_name": media.filename}
        return {"type": "document_url", "document_url": media.url, **name, **extras}
    if kind != "file":
        return None
    inner = _file_fields(media, "file_data", None, "openai_chat")
    return None if inner is None else {"type": "file", "file": inner, **extras}


def _file_fields(media: Media, data_key: str, url_key: str | None, protocol: str) -> Wire | None:
    inner: Wire = {}
    if media.data is not None:
        inner[data_key] = _to_url(media) if media.media_type else media.data
    elif media.file_id is not None:
        inner["file_id"] = media.file_id
    elif media.url is not None and media.extras.get(URL_IN_FILE_DATA) == protocol:
        inner[data_key] = media.url
    elif media.url is not None and url_key is not None:
        inner[url_key] = media.url
    else:
        return None
    if media.filename is not None:
        inner["filename"] = media.filename
    return inner


# --- OpenAI Responses content parts ---


def _chat_form(part: Mapping[str, Any], kind: str,
               wire: Callable[[Media], Wire | None]) -> Media | None:
    """A Chat `image_url` or `file` part found in another protocol's body, as media with
    its Chat type kept in extras["type"], so that `wire` writes it back as it came."""
    chat = chat_media(part)
    media = None if chat is None else replace(chat, extras={**chat.extras, "type": kind})
    return _exact(part, media, wire)


def responses_media(part: Mapping[str, Any]) -> Media | None:
    """input_image, input_file and input_audio parts; and Chat's image_url and file parts,
    which clients put in Responses bodies by mistake (MervinPraison/PraisonAI#3934; OpenAI
    refuses them: rule content-part-type-unknown): read as media with their Chat type kept
    in extras["type"], so they are written back as sent and the image reaches every other
    protocol."""
    kind = part.get("type")
    media: Media | None = None
    if kind in CHAT_ONLY_FORMS:
        return _chat_form(part, str(kind), responses_wire)
    if kind == "input_image":
        fields = _from_url(part["image_url"]) if isinstance(part.get("image_url"), str) else {}
        if isinstance(part.get("file_id"), str):
            fields["file_id"] = part["file_id"]
        media = Media("image", **fields, extras=_rest(part, "type", "image_url", "file_id"))
    elif kind == "input_file":
        rest = _rest(part, "type", "file_data", "file_id", "file_url", "filename")
        media = _file_media(part, rest, "file_data", "openai_responses")
        if media is not None and media.kind not in ("document", "file"):
            # an audio clip or image sent as a file (pydantic-ai sends audio so): kept a file
            media = replace(media, extras={**media.extras, "type": kind})
    elif kind == "input_audio" and isinstance(part.get("input_audio"), Mapping):
        inner = part["input_audio"]
        media = Media("audio", f"audio/{inner.get('format')}", data=inner.get("data"),
                      extras=_rest(part, "type", "input_audio"))
    return _exact(part, media, responses_wire)


def responses_wire(media: Media) -> Wire | None:
    """Media -> a Responses input part, or None where Responses has no form for it. A part
    read from a Chat-style part of a Responses body goes back in that form."""
    if media.extras.get("type") in CHAT_ONLY_FORMS:
        return chat_wire(media)
    extras = written(media.extras, "openai_responses", ("type",))
    if media.extras.get("type") == "input_file" and media.kind not in ("document", "file"):
        inner = _file_fields(media, "file_data", "file_url", "openai_responses")
        return None if inner is None else {"type": "input_file", **inner, **extras}
    if media.kind == "image":
        url = _to_url(media)
        if url is not None:
            return {"type": "input_image", "image_url": url, **extras}
        if media.file_id is not None:
            return {"type": "input_image", "file_id": media.file_id, **extras}
        return None
    if media.kind == "audio" and media.data is not None and media.media_type:
        fmt = audio_format(media.media_type)
        return {"type": "input_audio", "input_audio": {"data": media.data, "format": fmt},
                **extras}
    if media.kind not in ("document", "file"):
        return None
    inner = _file_fields(media, "file_data", "file_url", "openai_responses")
    return None if inner is None else {"type": "input_file", **inner, **extras}


# --- Anthropic image and document blocks ---

_SOURCES = {"base64": ("media_type", "data"), "url": ("url",), "file": ("file_id",),
            "text": ("media_type", "data")}


def anthropic_media(block: Mapping[str, Any]) -> Media | None:
    """Image and document blocks with a base64, url, file or text source; and Chat's
    image_url and file parts, which clients put in Anthropic bodies by mistake
    (AstrBotDevs/AstrBot#4444; Anthropic refuses them: rule content-part-type-unknown):
    read as media with their Chat type kept in extras["type"], as `responses_media` reads
    them, so they are written back as sent and the image reaches every other protocol."""
    source, kind = block.get("source"), block.get("type")
    if isinstance(kind, str) and kind in CHAT_ONLY_FORMS:
        return _chat_form(block, kind, anthropic_wire)
    if kind not in ("image", "document") or not isinstance(source, Mapping):
        return None
    stype = source.get("type")
    if not isinstance(stype, str) or stype not in _SOURCES:
        return None
    fields = {k: source.get(k) for k in _SOURCES[stype]}
    if stype == "text":
        fields["text"] = fields.pop("data")
    rest = _rest(block, "type", "source")
    media = Media(kind, **fields, extras=rest)  # type: ignore[arg-type]
    return _exact(block, media, anthropic_wire)


def anthropic_wire(media: Media) -> Wire | None:
    """Media -> an Anthropic image or document block, or None (audio, video, a plain-text
    image). A part read from a Chat-style part of an Anthropic body goes back in that form."""
    if media.extras.get("type") in CHAT_ONLY_FORMS:
        return chat_wire(media)
    if media.kind in ("audio", "video"):
        return None
    kind = "image" if media.kind == "image" else "document"
    source: Wire
    if media.data is not None:
        source = {"type": "base64", "media_type": media.media_type, "data": media.data}
    elif media.text is not None and kind == "document":
        source = {"type": "text", "media_type": media.media_type or "text/plain",
                  "data": media.text}
    elif media.url is not None:
        source = {"type": "url", "url": media.url}
    elif media.file_id is not None:
        source = {"type": "file", "file_id": media.file_id}
    else:
        return None
    return {"type": kind, "source": source, **written(media.extras, "anthropic", ("type",))}


# --- Gemini inlineData and fileData parts ---

def gemini_wire(media: Media) -> Wire | None:
    """Media -> a Gemini part, or None (a Files API id, a plain-text document, no MIME type
    for inline data)."""
    if media.data is not None and media.media_type:
        out: Wire = {"inlineData": {"mimeType": media.media_type, "data": media.data}}
    elif media.url is not None:
        inner = {"mimeType": media.media_type} if media.media_type else {}
        out = {"fileData": {**inner, "fileUri": media.url}}
    else:
        return None
    return {**out, **written(media.extras, "gemini", ("thought_signature",))}

"""Documents for a vendor whose Chat Completions wire takes them as `document_url`, and file
parts whose file_data a vendor cannot read."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from normalizer.crossing import media_placeholder
from normalizer.media import chat_part_type
from normalizer.model import URL_IN_FILE_DATA, Change, Media, Message, Part, Text, part_types
from normalizer.passes import Draft, Policy
from normalizer.profiles import Profile

NAME = "send_documents_as_urls"


def _nested_file(part: Part) -> bool:
    """A document the Chat renderer would write as OpenAI's nested `file` part (one with a
    URL is written as `document_url`, unless it came in `file_data`)."""
    if not isinstance(part, Media) or part.kind not in ("document", "file"):
        return False
    if part.url is not None:
        return part.extras.get(URL_IN_FILE_DATA) == "openai_chat"
    return part.data is not None or part.file_id is not None


def _as_url(part: Media, where: str) -> tuple[Part, Change]:
    if part.url is not None:  # a web address OpenRouter took in file_data
        return replace(part, extras=part.extras.without(URL_IN_FILE_DATA)), Change(
            NAME, "document-as-data-url", "sent the document's web address as a "
            "document_url (the same address)", where, lossless=True)
    if part.data is not None and part.media_type is not None:
        url = f"data:{part.media_type};base64,{part.data}"
        return replace(part, data=None, url=url), Change(
            NAME, "document-as-data-url", "sent the inline document as a document_url data "
            "URL (the same bytes)", where, lossless=True)
    # A file id names another vendor's upload (or bytes with no media type): nothing the
    # target can fetch, so the model is told a document stood here.
    return Text(media_placeholder(part)), Change(
        NAME, "document-not-carried", f"a {part.kind} the provider cannot take as "
        f"document_url ({part.source}) replaced by a placeholder text", where,
        lossless=False)


def send_documents_as_urls(draft: Draft, profile: Profile,
                           policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes documents in OpenAI's nested `file` part for a vendor that takes inline
    documents only as `document_url` (Mistral).

    Rejected by: Mistral 422 "Input should be a valid string" (its profile,
    nextcloud/integration_openai#419).

    Before: [user(text, Media(document, application/pdf, data=b64))]
    After:  [user(text, Media(document, url="data:application/pdf;base64,b64"))]
    Lossless for inline bytes with a media type; a file id or untyped bytes become a
    placeholder text (lossy, named).
    """
    del profile, policy
    return _rewrite_media(draft, _nested_file, _as_url)


def _rewrite_media(draft: Draft, wanted: Callable[[Part], bool],
                   fix: Callable[[Media, str], tuple[Part, Change]]
                   ) -> tuple[Draft, tuple[Change, ...]]:
    """Each media part `wanted` picks, replaced by what `fix` makes of it (with its change);
    messages with none are shared with the input."""
    if not any(issubclass(kind, Media) for kind in part_types(draft.history.messages)):
        return draft, ()  # most histories: no media at all, found without a Python loop
    changes: list[Change] = []
    out: list[Message] = []
    for m, message in enumerate(draft.history.messages):
        if not any(wanted(p) for p in message.parts):
            out.append(message)
            continue
        parts: list[Part] = []
        for j, part in enumerate(message.parts):
            if isinstance(part, Media) and wanted(part):
                part, change = fix(part, f"history[{m}].parts[{j}]")
                changes.append(change)
            parts.append(part)
        out.append(replace(message, parts=tuple(parts)))
    if not changes:
        return draft, ()
    return replace(draft, history=replace(draft.history, messages=tuple(out))), tuple(changes)


FILE_DATA = "replace_file_data_urls"


def _file_data_not_data_url(part: Part) -> bool:
    """A media part the Chat renderer would write in `file.file_data` as something other
    than a data URL: a web address that came in file_data (OpenRouter takes one there), or
    bytes with no media type to make a data URL of (a gs:// address reads as such)."""
    if not isinstance(part, Media) or chat_part_type(part) != "file":
        return False  # written as image_url, input_audio, document_url, ...: not file_data
    if part.url is not None:
        return True  # a web address that came in file_data, or it would be document_url
    return part.data is not None and part.media_type is None


def replace_file_data_urls(draft: Draft, profile: Profile,
                           policy: Policy) -> tuple[Draft, tuple[Change, ...]]:
    """Fixes a file part whose file_data would not be a data URL (rule file-data-not-data-url):
    the part becomes a placeholder text naming it, since OpenAI takes base64 data URLs only
    and the bytes behind an address cannot be fetched here. Lossy, said. Bare base64 named
    *.pdf goes as a PDF data URL instead (lossless: the same bytes).

    Rejected by: OpenAI "Invalid file data: 'messages[0].content[1].file.file_data'. Expected
    a base64-encoded data URL with an application/pdf MIME type (...), but got a value without
    the 'data:' prefix." (braintrustdata/lingua's recorded snapshots, gpt-5-nano).

    Before: [user(text, Media(document, url="https://…/sample-3s.mp3", from file_data))]
    After:  [user(text, Text("[document not carried to this provider: https://…/sample-3s.mp3]"))]
    """
    del profile, policy
    return _rewrite_media(draft, _file_data_not_data_url, _as_data_url_or_placeholder)


def _as_data_url_or_placeholder(part: Media, where: str) -> tuple[Part, Change]:
    if part.url is None and _pdf_name(part.filename):
        # Bare base64 named *.pdf: the data URL the vendor's own example shows.
        return replace(part, media_type="application/pdf"), Change(
            FILE_DATA, "file-data-as-data-url", f"the bare base64 of {part.filename!r} sent as "
            "a data URL of type application/pdf (its name's; the same bytes)", where,
            lossless=True)
    return Text(media_placeholder(part)), Change(
        FILE_DATA, "file-data-not-carried", f"a {part.kind} in file_data that is not a data URL "
        f"({part.url or part.filename or 'untyped bytes'}) replaced by a placeholder text: the "
        "provider reads base64 data URLs only", where, lossless=False)


def _pdf_name(filename: str | None) -> bool:
    return isinstance(filename, str) and filename.lower().endswith(".pdf")

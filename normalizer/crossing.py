"""What becomes of each kind of part when a history crosses to another protocol: the data
behind the crossing pass (`normalizer.passes.crossing`) and the page docs/crossing.md
(`table_markdown`, which a test keeps equal to the file).

A cell is `native` (the target's renderer writes the part as it is), `converted` (the pass
rewrites it into a form the target has, keeping the information) or `lossy` (the pass
keeps what it can and reports a lossy change naming what is lost). `MEDIA_FORMS` says which
media the renderers can write where; tests/test_crossing.py checks it against the wire
modules' own writers.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from normalizer.model import FUNCTION_RESPONSE_PART, Change, Media, Opaque, Text, thaw
from normalizer.protocols import FACTS, PROTOCOLS, foreign_extras

Verdict = Literal["native", "converted", "lossy"]
Place = Literal["message", "result"]

_B, _U, _F, _T = "base64", "url", "file_id", "text"
# (kind, source) pairs each renderer has a form for, in a user turn and in a tool result.
MEDIA_FORMS: Final[dict[str, dict[str, frozenset[tuple[str, str]]]]] = {
    "openai_chat": {
        # A tool message's content is text only in OpenAI's reference (the content parts of
        # ChatCompletionToolMessageParam are text parts): media move beside the results, to
        # a user message after the tool messages, as pydantic-ai sends them (real corpus:
        # tests/data/real_requests/openai_chat/tool-result-mixed-image.yaml).
        "result": frozenset(),
        "message": frozenset({("image", _B), ("image", _U), ("video", _B), ("video", _U),
                              ("audio", _B), ("document", _B), ("document", _F),
                              ("document", _U), ("file", _B), ("file", _F), ("file", _U)}),
    },
    "openai_responses": {
        "message": frozenset({("image", _B), ("image", _U), ("image", _F), ("audio", _B),
                              ("document", _B), ("document", _F), ("document", _U),
                              ("file", _B), ("file", _F), ("file", _U)}),
    },
    "anthropic": {
        "message": frozenset({("image", _B), ("image", _U), ("image", _F), ("document", _B),
                              ("document", _U), ("document", _F), ("document", _T),
                              ("file", _B), ("file", _U), ("file", _F), ("file", _T)}),
    },
    "gemini": {
        # Gemini's functionResponse.response is JSON: media in a result has no form there.
        "message": frozenset({(k, s) for k in ("image", "document", "audio", "video", "file")
                              for s in (_B, _U)}),
        "result": frozenset(),
    },
}
for _forms in MEDIA_FORMS.values():
    _forms.setdefault("result", _forms["message"])


def media_native(media: Media, protocol: str, place: Place) -> bool:
    """Whether `protocol`'s renderer writes this media part at `place`. Media a Gemini
    `functionResponse.parts` carried (Gemini 3 multimodal function responses) go back there
    for Gemini; media from another protocol's results still move beside the results, since
    which Gemini models take `parts` is known for Gemini 3 only
    (evidence/gemini/image-parts-inside-function-response-accepted-gemini-3-flash.yaml)."""
    if place == "result" and protocol == "gemini" and media.extras.get(FUNCTION_RESPONSE_PART):
        return (media.kind, media.source) in MEDIA_FORMS[protocol]["message"]
    return (media.kind, media.source) in MEDIA_FORMS[protocol][place]


def media_placeholder(media: Media) -> str:
    """The text that stands in for a media part the target cannot carry."""
    where = media.url or media.file_id or media.filename or media.media_type or ""
    return f"[{media.kind} not carried to this provider{': ' + where if where else ''}]"


def opaque_text(part: Opaque) -> str:
    """Another vendor's server-side tool activity as text (what it did and returned)."""
    data = json.dumps(thaw(part.data), ensure_ascii=False, sort_keys=True)
    return f"[{part.protocol} {part.kind}: {data}]"


def plain_text(part: Opaque) -> str | None:
    """The text of a part kept verbatim that is nothing but a text under another protocol's
    type (a Responses `output_text` or `input_text`, a `text` part where the protocol reads
    text otherwise: only `type` and `text`), else None: such a part is the same words in
    any protocol's own text form, nothing lost."""
    text = part.data.get("text")
    if part.kind in _TEXT_TYPES and isinstance(text, str) and part.data.keys() <= {"type",
                                                                                  "text"}:
        return text
    return None


_TEXT_TYPES: Final = frozenset({"text", "input_text", "output_text"})


def untyped_text(part: Opaque) -> tuple[str, dict[str, Any], str]:
    """The words of a content part sent without a type (an Opaque of kind ""), the fields
    to keep beside them, and what was read: "text", a bare {"text": ...} (its other fields
    kept, nothing lost); "content", a whole message put where a part goes ({role, content},
    as crewAI sent, evidence/openai/content-part-without-type-rejected-gpt-4o-mini), its
    content's words, its role lost; "json", anything else, as JSON."""
    data = part.data
    text = data.get("text")
    if isinstance(text, str):
        return text, {k: v for k, v in data.items() if k != "text"}, "text"
    content = data.get("content")
    if isinstance(content, str):
        return content, {}, "content"
    if isinstance(content, (list, tuple)) and all(
            isinstance(p, Mapping) and isinstance(p.get("text"), str) for p in content):
        return "\n".join(p["text"] for p in content), {}, "content"
    return json.dumps(thaw(data), ensure_ascii=False, sort_keys=True), {}, "json"


_UNTYPED_WORDS = {"text": "holding a text: sent as a text part",
                  "content": "its content's words sent as a text part, its other fields "
                             "left out",
                  "json": "sent as a text part holding it as JSON"}


def typed_part(part: Opaque, pass_name: str, where: str) -> tuple[Text, Change]:
    """A content part sent without a type, as a text part, and the change that says so."""
    text, extras, read = untyped_text(part)
    what = f"a content part without a type ({', '.join(sorted(part.data))}): " \
        + _UNTYPED_WORDS[read]
    return Text(text, extras), Change(pass_name, "type-untyped-part", what, where,
                                      lossless=read == "text")


# The Text extras key that holds a protocol's citations, and the protocol that owns it.
CITATION_KEYS: Final = {"citations": "anthropic", "annotations": "openai_responses"}
# What names a citation, in order of preference (Anthropic web search and document
# locations, Responses url and file citations).
_CITATION_FIELDS = ("url", "document_title", "title", "filename", "file_id", "cited_text")


def citation_names(citations: Any) -> list[str]:
    """One short name per citation of a Text's `citations`/`annotations` value (a list of
    objects; null or empty names none)."""
    if not isinstance(citations, Iterable) or isinstance(citations, str | bytes):
        return []
    names = []
    for citation in citations:
        found = next((str(citation[k]) for k in _CITATION_FIELDS
                      if hasattr(citation, "get") and citation.get(k)), None)
        names.append((found or json.dumps(thaw(citation), ensure_ascii=False))[:120])
    return names


FieldKind = Literal["bookkeeping", "setting", "content"]


@dataclass(frozen=True, slots=True)
class FieldFate:
    """What becomes of an extras field a protocol owns when a history crosses to a protocol
    that does not (the target's renderer never writes it: `protocols.foreign_extras`).
    `bookkeeping`: nothing the target could use (the source wire's own ids, spellings and
    signatures), left for the renderer to skip, no change; `setting`: how the vendor
    processes the request, not what the model reads (cache hints, image detail), dropped
    with a lossless change; `content`: something the model would read or the conversation
    carries, dropped with a lossy change naming it. `what` is what the field is."""

    kind: FieldKind
    what: str


# Every extras key any protocol owns (`ProtocolFacts.own_extras`; tests/test_crossing.py
# checks that none is missing). Two are reported by changes of their own and counted here
# only where those do not reach: a Chat message's `name` (participant-name-dropped) and a
# text's `citations`/`annotations` (citations-dropped).
FOREIGN_FIELDS: Final[dict[str, FieldFate]] = {
    "role": FieldFate("bookkeeping", "the role as the source wire spells it (Chat and "
                                     "Responses `developer`, a Gemini content's role); the "
                                     "message's role is kept"),
    "type": FieldFate("bookkeeping", "a part's or item's `type` as the source wire spells "
                                     "it; the part's kind is kept"),
    "name": FieldFate("bookkeeping", "a Chat tool message's `name`: the function answered, "
                                     "which the target reads off the call"),
    "id": FieldFate("bookkeeping", "a Responses item id (`fc_…`, `rs_…`); the target's "
                                   "calls carry their own call ids"),
    "status": FieldFate("bookkeeping", "a Responses item's status (`completed`)"),
    "item": FieldFate("bookkeeping", "the fields of the Responses message item a text came "
                                     "in (id, status, type)"),
    "instructions": FieldFate("bookkeeping", "that a system message came from Responses "
                                             "`instructions`; the system text is kept"),
    "summary": FieldFate("bookkeeping", "a Responses reasoning item's summary parts, whose "
                                        "text the thinking part holds (the thinking passes "
                                        "report what becomes of it)"),
    "content": FieldFate("bookkeeping", "a Responses reasoning item's `content`: its "
                                        "reasoning_text parts, whose text the thinking part "
                                        "holds, or Codex's null"),
    "encrypted_content": FieldFate("bookkeeping", "a Responses reasoning item's null "
                                                  "`encrypted_content` (a value is the "
                                                  "thinking part's signature)"),
    "logprobs": FieldFate("bookkeeping", "an output's log probabilities, as the SDK dumps "
                                         "an output; the model does not read them"),
    "index": FieldFate("bookkeeping", "a streamed Chat call's position"),
    "tool_calls": FieldFate("bookkeeping", "a Chat message's empty `tool_calls` list"),
    "reasoning_content": FieldFate("bookkeeping", "a Chat message's `reasoning_content: "
                                                  "null` (a string is a thinking part)"),
    "text": FieldFate("bookkeeping", "a Chat content part's other kind's field, unset "
                                     "(`text: null` on an image part)"),
    "image_url": FieldFate("bookkeeping", "a Chat content part's other kind's field, unset "
                                          "(`image_url: null` on a text part)"),
    "is_error": FieldFate("bookkeeping", "an explicit Anthropic `is_error: false` (true is "
                                         "the result's error flag, kept)"),
    "thought_signature": FieldFate("bookkeeping", "a Gemini thought signature, which only "
                                                  "Gemini can check"),
    "cache_control": FieldFate("setting", "a prompt-cache breakpoint"),
    "prompt_cache_breakpoint": FieldFate("setting", "a prompt-cache breakpoint"),
    "detail": FieldFate("setting", "the resolution an image is read at"),
    "mediaResolution": FieldFate("setting", "the resolution a media part is read at"),
    "citations": FieldFate("setting", "whether answers may cite a document (on a text: "
                                      "its citations, reported by citations-dropped)"),
    "refusal": FieldFate("content", "an assistant message's refusal text (a string goes as a "
                                    "refusal part: docs/crossing.md)"),
    "audio": FieldFate("content", "a reference to an earlier audio answer"),
    "prefix": FieldFate("content", "Mistral's flag: the model continues this assistant "
                                   "message"),
    "reasoning": FieldFate("content", "reasoning the vendor returned beside the message "
                                      "(OpenRouter, vLLM, GPUStack)"),
    "reasoning_details": FieldFate("content", "OpenRouter's reasoning details (text, "
                                              "summaries, encrypted reasoning)"),
    "annotations": FieldFate("content", "citations (a text's are reported by "
                                        "citations-dropped)"),
    "phase": FieldFate("content", "whether an assistant message was commentary or the "
                                  "final answer"),
    "namespace": FieldFate("content", "the namespace of a tool-search call"),
    "title": FieldFate("content", "a document's title"),
    "context": FieldFate("content", "a document's context"),
    "videoMetadata": FieldFate("content", "the clip and frame rate of a video"),
    "function": FieldFate("content", "fields of a Chat call's `function` beside its name "
                                     "and arguments"),
    "function_call": FieldFate("content", "fields of a Gemini functionCall beside its id, "
                                          "name and arguments"),
    "function_response": FieldFate("content", "fields of a Gemini functionResponse beside "
                                              "its id, name and response"),
    "response": FieldFate("content", "a Gemini functionResponse's response object"),
    "partMetadata": FieldFate("content", "a Gemini part's metadata"),
}


_UNKNOWN = FieldFate("content", "a field no table names")


def field_fate(key: str) -> FieldFate:
    """What becomes of extras field `key` where its protocol's renderer is not the one."""
    return FOREIGN_FIELDS.get(key, _UNKNOWN)


@functools.lru_cache(maxsize=8)
def reported_fields(protocol: str) -> frozenset[str]:
    """The extras keys other protocols own whose drop for `protocol` is reported (settings
    and content): the crossing pass takes them off and names them in a change."""
    return frozenset(key for key in foreign_extras(protocol)
                     if field_fate(key).kind != "bookkeeping")


def field_value(value: Any) -> str:
    """A dropped field's value as the change names it: short JSON."""
    text = json.dumps(thaw(value), ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the table: the verdict and how (or what is lost)."""

    verdict: Verdict
    how: str


def _media_row(kind: str, source: str, place: Place) -> dict[str, Cell]:
    row = {}
    for protocol in PROTOCOLS:
        if (kind, source) in MEDIA_FORMS[protocol][place]:
            row[protocol] = Cell("native", "")
        elif place == "result" and (kind, source) in MEDIA_FORMS[protocol]["message"]:
            row[protocol] = Cell("converted", "moved beside the results, in the same turn")
        elif source == "text":
            row[protocol] = Cell("converted", "the document's text as a text part")
        else:
            row[protocol] = Cell("lossy", "a text placeholder naming it")
    return row


def _same(native_in: tuple[str, ...], other: Cell) -> dict[str, Cell]:
    return {p: Cell("native", "") if p in native_in else other for p in PROTOCOLS}


def table() -> dict[str, dict[str, Cell]]:
    """Every part kind (rows) x every target protocol (columns)."""
    rows: dict[str, dict[str, Cell]] = {
        "text": _same(PROTOCOLS, Cell("native", "")),
        "refusal (Text, type refusal)": _same(
            ("openai_chat", "openai_responses"), Cell("converted", "plain text")),
        "refusal (Chat message `refusal` field)": {
            "openai_chat": Cell("native", ""),
            "openai_responses": Cell("converted", "a refusal part"),
            "anthropic": Cell("converted", "plain text"),
            "gemini": Cell("converted", "plain text")},
        "citations (Anthropic `citations`)": _same(
            ("anthropic",), Cell("lossy", "dropped, each named in the change (text kept)")),
        "citations (Responses `annotations`)": _same(
            ("openai_responses",), Cell("lossy", "dropped, each named in the change (text "
                                                 "kept)")),
        "participant name (Chat message `name`)": _same(
            ("openai_chat",), Cell("lossy", "dropped, named in the change")),
        "tool call, arguments string": _same(
            ("openai_chat", "openai_responses"),
            Cell("converted", "JSON object (bytes re-serialised)")),
        "tool result, text": _same(PROTOCOLS, Cell("native", "")),
        "tool result, structured value": _same(
            ("gemini",), Cell("converted", "JSON text of the value")),
        "media in a Gemini functionResponse (parts)": {
            "openai_chat": Cell("converted", "moved beside the results, in the same turn"),
            "openai_responses": Cell("native", ""), "anthropic": Cell(
                "native", "images and documents; other kinds as their media rows say"),
            "gemini": Cell("native", "")},
        "tool result without name": _same(
            ("openai_chat", "openai_responses", "anthropic"),
            Cell("converted", "the call's name, from the history")),
        "thinking, signed or redacted, same vendor": _same(PROTOCOLS, Cell("native", "")),
        "thinking from another vendor": _same((), Cell(
            "lossy", "dropped, or as text (Policy.foreign_thinking); signature dropped")),
        "hosted tool activity, same protocol": _same(PROTOCOLS, Cell("native", "")),
        "hosted tool activity, other protocol": _same((), Cell(
            "lossy", "text describing the call and its result (not re-run)")),
        "unknown part, same protocol": _same(PROTOCOLS, Cell("native", "")),
        "unknown part, other protocol": _same((), Cell("lossy", "dropped")),
        "text-only part of another type, other protocol (type and text only: a Responses "
        "output_text in an Anthropic body)": _same((), Cell("converted", "text")),
        "part without a type, other protocol (a bare {text}, or a whole message where a "
        "part goes)": _same((), Cell("converted", "text: the bare text with its other "
                                     "fields (lossless); a message's content, its role lost, "
                                     "or the part as JSON (lossy)")),
    }
    for place in ("message", "result"):
        for kind in ("image", "document", "audio", "video"):
            for source in ("base64", "url", "file_id", "text"):
                if source == "text" and kind != "document":
                    continue
                label = f"{kind} ({source})" + (" in a tool result" if place == "result" else "")
                rows[label] = _media_row(kind, source, place)  # type: ignore[arg-type]
    return rows


def table_markdown() -> str:
    """docs/crossing.md: the table as a page."""
    lines = ["# Crossing vendors: what becomes of each part", "",
             "Generated from `normalizer/crossing.py` (tests/test_crossing.py keeps it equal).",
             "Rows are part kinds, columns the target protocol. `native`: written as it is;",
             "`converted`: rewritten, information kept; `lossy`: the crossing pass reports a",
             "lossy change naming what is lost. A column is the protocol: one vendor of it may",
             "still lack a form the table calls native, and its profile then says so (OpenAI",
             "Chat has no `video_url` or `document_url` part: rule content-part-type-unknown,",
             "whose repair sends a placeholder naming the video or document).", "",
             "| part | " + " | ".join(PROTOCOLS) + " |",
             "| --- |" + " --- |" * len(PROTOCOLS)]
    for label, row in table().items():
        cells = [row[p].verdict + (f": {row[p].how}" if row[p].how else "") for p in PROTOCOLS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "## Fields one protocol owns", "",
              "Fields with no neutral home ride in a part's or message's extras; the protocols "
              "that own",
              "one write it back, the others cannot (`FOREIGN_FIELDS`). Crossing to a protocol "
              "that does",
              "not own it: `bookkeeping` is left unwritten with no change (nothing the target "
              "could use);",
              "`setting` is dropped with a lossless change naming it (how the vendor processes "
              "the",
              "request, not what the model reads); `content` is dropped with a lossy change "
              "naming it",
              "(code `foreign-field-dropped`). Null, false and empty values are never reported.",
              "", "| field | owned by | what it is | crossing elsewhere |",
              "| --- | --- | --- | --- |"]
    fates = {"bookkeeping": "not written, no change", "setting": "dropped, lossless change",
             "content": "dropped, lossy change"}
    order = {"content": 0, "setting": 1, "bookkeeping": 2}
    for key, fate in sorted(FOREIGN_FIELDS.items(), key=lambda kv: (order[kv[1].kind], kv[0])):
        owners = ", ".join(name for name, facts in FACTS.items() if key in facts.own_extras)
        lines.append(f"| `{key}` | {owners} | {fate.what} | {fate.kind}: {fates[fate.kind]} |")
    return "\n".join(lines) + "\n"

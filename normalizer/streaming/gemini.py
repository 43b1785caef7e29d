"""Gemini `streamGenerateContent` streams: each chunk is a whole GenerateContentResponse
whose `candidates[].content.parts` hold text fragments (`thought: true` for thinking) and
`functionCall` parts that arrive whole — so a Gemini call is never cut in half; a cut
stream only loses what never came. Some models send calls without `id`: this assembler
derives one from the call's position, name and arguments (never the time; a repeated
identical call gets a different id; `id_seed` makes ids unique across a history) and marks
it {"derived_id": true}. `thoughtSignature` on a call or text part goes in the part's
extras under "thought_signature"; on a thought part it is the Thinking's signature.
A `finishReason` ends the stream; reasons other than STOP and MAX_TOKENS (e.g.
MALFORMED_FUNCTION_CALL, SAFETY) are stream-error problems, as is an `error` chunk.
Vertex streams a call's arguments when asked (`streamFunctionCallArguments`; "not
supported in Gemini API"): a `functionCall` part with the name and `willContinue: true`,
parts of `partialArgs` pieces, then a part without `willContinue` (often `{}`) that ends
the call. The pieces are assembled into the call's `args` (normalizer/streaming/
partial_args.py); a call the stream left open is incomplete, its raw fragment the JSON of
the arguments so far.

Any other part arrives whole and is read as the wire parser reads it: an image or file
output (`inlineData`, `fileData`) is a Media part, its signature in extras; code execution's
`executableCode` and `codeExecutionResult` are Opaque parts, hosted where
`protocols.GEMINI_HOSTED` says so.

Source of the shapes: google-genai `types.GenerateContentResponse` (dumped by_alias).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from normalizer.errors import UnstreamablePartError
from normalizer.media import signed_gemini_media
from normalizer.model import EMPTY, JsonMap, Message, Opaque, Part, Text, Thinking, ToolCall
from normalizer.protocols import DEFAULT_MODEL, GEMINI_HOSTED, gemini_part_kind
from normalizer.streaming.base import BaseAssembler
from normalizer.streaming.emitting import Splitter, whole
from normalizer.streaming.partial_args import PartialArgs
from normalizer.streaming.result import (
    ProblemCode,
    StreamProblem,
    StreamResult,
    cut_call,
    derive_call_id,
    finished_call,
)

_CLEAN_FINISH = frozenset({"STOP", "MAX_TOKENS"})


@dataclass(slots=True)
class _Segment:
    kind: str  # "text", "thought", "call" or "opaque" (any other part, in `call`)
    where: str
    chunks: list[str] = field(default_factory=list)
    call: Mapping[str, Any] = EMPTY
    signature: str | None = None
    args: PartialArgs | None = None  # a call whose arguments stream (Vertex partialArgs)


class Assembler(BaseAssembler):
    """Feed stream chunks with `feed`; `result()` gives the message so far. `candidate`
    selects a candidate index; `id_seed` salts derived ids; `origin` names the provider."""

    protocol = "gemini"

    def __init__(self, *, candidate: int = 0, id_seed: str = "",
                 origin: str | None = None) -> None:
        super().__init__(origin=origin)
        self._candidate = candidate
        self._id_seed = id_seed
        self._segments: list[_Segment] = []
        self._streaming: _Segment | None = None  # a call whose last part said willContinue
        self._finish: str | None = None

    def _handle(self, chunk: Mapping[str, Any], where: str) -> None:
        if "error" in chunk:
            self._problem("stream-error", where, json.dumps(chunk["error"], ensure_ascii=False))
            return
        candidates = chunk.get("candidates")
        if not isinstance(candidates, list):
            feedback = chunk.get("promptFeedback")
            if feedback:
                self._problem("stream-error", where, f"promptFeedback: {json.dumps(feedback)}")
            elif "usageMetadata" not in chunk:
                self._problem("malformed-event", where, "no `candidates` list")
            return
        for k, candidate in enumerate(candidates):
            if isinstance(candidate, Mapping) and candidate.get("index", 0) == self._candidate:
                self._candidate_chunk(candidate, f"{where}.candidates[{k}]")

    def _problem(self, code: ProblemCode, where: str, detail: str, raw: str | None = None) -> None:
        self._problems.append(StreamProblem(code, where, detail, raw=raw))

    def _candidate_chunk(self, candidate: Mapping[str, Any], where: str) -> None:
        parts = (candidate.get("content") or {}).get("parts") or ()
        for j, part in enumerate(parts):
            self._part(part, f"{where}.content.parts[{j}]")
        reason = candidate.get("finishReason")
        if reason:
            self._finish = str(reason)
            if reason not in _CLEAN_FINISH:
                self._problem("stream-error", where,
                              f"finishReason {reason}: {candidate.get('finishMessage', '')}")

    def _part(self, part: Mapping[str, Any], where: str) -> None:
        signature = part.get("thoughtSignature")
        if "functionCall" in part:
            call = part["functionCall"] or {}
            if not isinstance(call, Mapping):  # before it is kept: `result` reads it
                raise TypeError(f"functionCall is {type(call).__name__}")
            if self._streaming is not None:
                self._more_of_call(self._streaming, call, signature, f"{where}.functionCall")
                return
            seg = _Segment("call", where, call=call, signature=signature)
            self._segments.append(seg)
            if "partialArgs" in call or call.get("willContinue"):
                seg.args = PartialArgs(call.get("args"))
                self._more_of_call(seg, call, None, f"{where}.functionCall")
        elif "text" in part:
            kind = "thought" if part.get("thought") else "text"
            last = self._segments[-1] if self._segments else None
            # Fragments of one text continue the last segment until a signature closes it.
            if last is None or last.kind != kind or last.signature is not None:
                last = _Segment(kind, where)
                self._segments.append(last)
            last.chunks.append(str(part["text"]))
            last.signature = signature or last.signature
        else:  # code execution and other parts: kept whole, as the wire parser keeps them
            self._segments.append(_Segment("opaque", where, call=part))

    def _more_of_call(self, seg: _Segment, call: Mapping[str, Any], signature: str | None,
                      where: str) -> None:
        """A part of a call whose arguments stream: its name or id if the first part had
        none, its pieces, and whether the call goes on after it."""
        assert seg.args is not None
        known = {k: call[k] for k in ("name", "id") if call.get(k) and not seg.call.get(k)}
        if known:
            seg.call = {**seg.call, **known}
        seg.signature = seg.signature or signature
        for k, piece in enumerate(call.get("partialArgs") or ()):
            problem = seg.args.add(piece) if isinstance(piece, Mapping) else "not an object"
            if problem is not None:
                self._problem("malformed-event", f"{where}.partialArgs[{k}]", problem)
        self._streaming = seg if call.get("willContinue") else None

    def result(self) -> StreamResult:
        """The assembled message so far, and how the stream went."""
        parts: list[Part] = []
        problems = list(self._problems)
        calls = 0
        for seg in self._segments:
            if seg.kind == "call":
                call, problem = self._call(seg, calls)
                calls += 1
                parts.append(call)
                problems.extend([problem] if problem else [])
            elif seg.kind == "opaque":
                parts.append(_other_part(seg.call))
            elif seg.kind == "thought":
                parts.append(Thinking("".join(seg.chunks), signature=seg.signature,
                                      vendor="gemini"))
            else:
                marks = {"thought_signature": seg.signature} if seg.signature else {}
                parts.append(Text("".join(seg.chunks), extras=marks))
        message = Message("assistant", tuple(parts), origin=self._origin)
        return StreamResult(message, self._finish is not None, self._finish, tuple(problems))

    def _call(self, seg: _Segment, ordinal: int) -> tuple[ToolCall, StreamProblem | None]:
        name = str(seg.call.get("name", ""))
        args = seg.call.get("args") if seg.args is None else seg.args.value
        extras: dict[str, Any] = {"thought_signature": seg.signature} if seg.signature else {}
        call_id = seg.call.get("id")
        if not call_id:
            call_id = derive_call_id(self._id_seed, ordinal, name, args or {})
            extras["derived_id"] = True
        if seg is self._streaming:  # the stream ended (so far) inside its arguments
            raw = json.dumps(args, ensure_ascii=False)
            return cut_call(name, call_id, raw, f"{seg.where}.functionCall", extras)
        if args is None or isinstance(args, Mapping):
            return ToolCall(name, JsonMap(args or {}), call_id, extras), None
        raw = json.dumps(args, ensure_ascii=False)
        return finished_call(name, call_id, raw, f"{seg.where}.functionCall.args", extras)


def emit(
    message: Message,
    *,
    split: Splitter | None = None,
    model: str = DEFAULT_MODEL["gemini"],
    finish_reason: str = "STOP",
) -> list[dict[str, Any]]:
    """An assistant message -> the chunks Gemini would stream (inverse of `assemble`): text
    and thought pieces one per chunk, each call whole in its own chunk, the signature on the
    last piece of its part, `finishReason` and usage on a final empty chunk. Derived ids
    are not sent (the vendor did not send them)."""
    pieces = split or whole
    wire_parts: list[dict[str, Any]] = []
    for part in message.parts:
        wire_parts += _wire_parts(part, pieces)
    chunks = [_chunk(model, [p]) for p in wire_parts]
    final = _chunk(model, [])
    final["candidates"][0]["finishReason"] = finish_reason
    final["usageMetadata"] = {"promptTokenCount": 1, "candidatesTokenCount": 1,
                              "totalTokenCount": 2}
    return [*chunks, final]


def _other_part(raw: Mapping[str, Any]) -> Part:
    """A part that arrived whole, as parse reads it: an image or file output (inlineData,
    fileData) a Media, anything else (code execution) an Opaque part kept verbatim."""
    signature = raw.get("thoughtSignature")
    if signature is None or isinstance(signature, str):  # else not a part parse reads
        media = signed_gemini_media(raw, signature)
        if media is not None:
            return media
    kind = gemini_part_kind(raw)
    return Opaque("gemini", kind, raw, hosted=kind in GEMINI_HOSTED)


def _wire_parts(part: Part, pieces: Splitter) -> list[dict[str, Any]]:
    if isinstance(part, ToolCall):
        call: dict[str, Any] = {"name": part.name, "args": (
            part.arguments.thaw() if isinstance(part.arguments, JsonMap) else {})}
        if part.id and not part.extras.get("derived_id"):
            call["id"] = part.id
        signature = part.extras.get("thought_signature")
        return [{"functionCall": call, **({"thoughtSignature": signature} if signature else {})}]
    if isinstance(part, Thinking):
        out = [{"text": p, "thought": True} for p in pieces(part.text) if p] or [
            {"text": "", "thought": True}]
        signature = part.signature
    elif isinstance(part, Text):
        out = [{"text": p} for p in pieces(part.text) if p] or [{"text": ""}]
        signature = part.extras.get("thought_signature")
    else:
        raise UnstreamablePartError(f"an assistant message cannot stream a {type(part).__name__}")
    if signature:
        out[-1] = {**out[-1], "thoughtSignature": signature}
    return out


def _chunk(model: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
            "modelVersion": model}

"""Small valid 200 answers per protocol: one assistant text ("ok"), as a JSON body or as the
protocol's server-sent events when the request streams.

Ids come from the request id and `created` is a fixed time, so the same request gets the
same bytes (stable cassettes recorded against the emulator). Token counts are a crude
estimate (request bytes / 4): the emulator does not tokenize.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

TEXT = "ok"
CREATED = 1_735_689_600  # 2025-01-01T00:00:00Z, fixed on purpose (see module docstring)


def _tokens(size: int) -> tuple[int, int]:
    return max(1, size // 4), 1


def _event(data: Mapping[str, Any], name: str | None = None) -> str:
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


# --- OpenAI Chat Completions ------------------------------------------------------------

def chat(model: str, rid: str, size: int) -> dict[str, Any]:
    """An OpenAI Chat completion holding the one assistant text."""
    prompt, out = _tokens(size)
    return {"id": f"chatcmpl-{rid}", "object": "chat.completion", "created": CREATED,
            "model": model, "system_fingerprint": None,
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": TEXT, "refusal": None}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": out,
                      "total_tokens": prompt + out}}


def chat_stream(model: str, rid: str, size: int, body: Mapping[str, Any]) -> str:
    """The same completion as Chat SSE chunks, with a usage chunk when the request's
    `stream_options` asks for it, ended by `data: [DONE]`."""
    def chunk(delta: Mapping[str, Any], finish: str | None) -> dict[str, Any]:
        return {"id": f"chatcmpl-{rid}", "object": "chat.completion.chunk", "created": CREATED,
                "model": model, "system_fingerprint": None,
                "choices": [{"index": 0, "delta": dict(delta), "logprobs": None,
                             "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": ""}, None), chunk({"content": TEXT}, None),
              chunk({}, "stop")]
    options = body.get("stream_options")
    if isinstance(options, Mapping) and options.get("include_usage"):
        usage = chat(model, rid, size)["usage"]
        events.append({**chunk({}, None), "choices": [], "usage": usage})
    return "".join(_event(e) for e in events) + "data: [DONE]\n\n"


# --- OpenAI Responses -------------------------------------------------------------------

def _message_item(rid: str, status: str, text: str | None) -> dict[str, Any]:
    content = [] if text is None else [{"type": "output_text", "text": text,
                                        "annotations": [], "logprobs": []}]
    return {"type": "message", "id": f"msg_{rid}", "status": status, "role": "assistant",
            "content": content}


def responses(model: str, rid: str, size: int, *, status: str = "completed") -> dict[str, Any]:
    """An OpenAI Responses object; `status` other than "completed" gives the empty, in-progress
    one the stream starts with."""
    prompt, out = _tokens(size)
    done = status == "completed"
    return {"id": f"resp_{rid}", "object": "response", "created_at": CREATED,
            "status": status, "error": None, "incomplete_details": None, "instructions": None,
            "model": model, "output": [_message_item(rid, "completed", TEXT)] if done else [],
            "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
            "temperature": 1.0, "top_p": 1.0,
            "usage": {"input_tokens": prompt, "input_tokens_details": {"cached_tokens": 0},
                      "output_tokens": out, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": prompt + out} if done else None}


def responses_stream(model: str, rid: str, size: int) -> str:
    """The same response as Responses SSE events, from `response.created` to
    `response.completed`."""
    item = {"item_id": f"msg_{rid}", "output_index": 0, "content_index": 0}
    part = {"type": "output_text", "text": TEXT, "annotations": [], "logprobs": []}
    steps: list[tuple[str, dict[str, Any]]] = [
        ("response.created", {"response": responses(model, rid, size, status="in_progress")}),
        ("response.in_progress", {"response": responses(model, rid, size,
                                                        status="in_progress")}),
        ("response.output_item.added", {"output_index": 0,
                                        "item": _message_item(rid, "in_progress", None)}),
        ("response.content_part.added", {**item, "part": {**part, "text": ""}}),
        ("response.output_text.delta", {**item, "delta": TEXT, "logprobs": []}),
        ("response.output_text.done", {**item, "text": TEXT, "logprobs": []}),
        ("response.content_part.done", {**item, "part": part}),
        ("response.output_item.done", {"output_index": 0,
                                       "item": _message_item(rid, "completed", TEXT)}),
        ("response.completed", {"response": responses(model, rid, size)}),
    ]
    return "".join(_event({"type": name, "sequence_number": n, **data}, name)
                   for n, (name, data) in enumerate(steps))


# --- Anthropic Messages -----------------------------------------------------------------

def anthropic(model: str, rid: str, size: int) -> dict[str, Any]:
    """An Anthropic message holding the one assistant text."""
    prompt, out = _tokens(size)
    return {"id": f"msg_{rid}", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": TEXT}], "stop_reason": "end_turn",
            "stop_sequence": None, "usage": {"input_tokens": prompt, "output_tokens": out}}


def anthropic_stream(model: str, rid: str, size: int) -> str:
    """The same message as Anthropic SSE events, from `message_start` to `message_stop`."""
    start = {**anthropic(model, rid, size), "content": [], "stop_reason": None}
    steps: list[dict[str, Any]] = [
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text",
                                                                      "text": ""}},
        {"type": "ping"},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta",
                                                              "text": TEXT}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
         "usage": {"output_tokens": _tokens(size)[1]}},
        {"type": "message_stop"},
    ]
    return "".join(_event(step, step["type"]) for step in steps)


# --- Gemini generateContent -------------------------------------------------------------

def gemini(model: str, rid: str, size: int) -> dict[str, Any]:
    """A Gemini generateContent response holding the one model text."""
    prompt, out = _tokens(size)
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": TEXT}]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": out,
                              "totalTokenCount": prompt + out},
            "modelVersion": model, "responseId": rid}


def gemini_stream(model: str, rid: str, size: int, *, sse: bool) -> str:
    """streamGenerateContent: SSE with `?alt=sse` (what the SDK asks for), else a JSON array
    of the same chunks (the REST default)."""
    chunks = [gemini(model, rid, size)]
    if not sse:
        return json.dumps(chunks, separators=(",", ":"))
    return "".join(f"data: {json.dumps(c, separators=(',', ':'))}\r\n\r\n" for c in chunks)

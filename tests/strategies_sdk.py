"""Hypothesis strategies built from the official SDKs' request types (issue 17): the oracle
for `parse` and the same-protocol round trip. `st.from_type` resolves the TypedDicts of
openai and anthropic; the few places it cannot go are filled here by hand:

- `Iterable[X]` (the SDKs' array fields) -> small lists of X (hypothesis would also pick
  dicts and sets, which the SDK does not send as arrays); a bare `Iterable` -> JSON values;
- `object` and `Dict[str, object]` fields -> JSON values.

Sizes are kept small so that 300 examples per protocol run in a few seconds.
"""

from __future__ import annotations

import collections.abc
import json
import typing
from typing import Any

from hypothesis import strategies as st

JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=2),
    max_leaves=4)


def _iterable(thing: Any) -> st.SearchStrategy[Any]:
    args = getattr(thing, "__args__", None)
    if not args or args[0] is object or args[0] is typing.Any:
        return st.lists(JSON, max_size=2)
    return st.lists(st.from_type(args[0]), max_size=2)


st.register_type_strategy(collections.abc.Iterable, _iterable)  # type: ignore[type-abstract]


def _plain(value: Any) -> Any:
    # `object` fields (a tool's input_schema) come out as arbitrary Python objects: any
    # JSON value is allowed there, so a non-JSON one stands for null.
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.decode("latin-1")
    return None


def as_sent(value: Any) -> Any:
    """The JSON the SDK would send for a generated value."""
    return json.loads(json.dumps(value, default=_plain))


def union_members(union: Any) -> st.SearchStrategy[Any]:
    """One of the union's members, each from its own type (a failing member fails alone)."""
    return st.one_of([st.from_type(m) for m in typing.get_args(union)])


# --- google-genai: `types.Content` is a pydantic model, whose fields from_type leaves at
# None; parts are written by hand (one data field each, as the API requires), validated by
# `types.Content` and dumped the way the SDK sends them.

_B64 = st.sampled_from(["iVBORw0KGgo=", "JVBERi0xLjQ=", "c2lnbmF0dXJl"])
_TEXT = st.text(max_size=4)
_NAME = st.from_regex(r"[a-z_]{1,6}", fullmatch=True)
_OBJECT = st.dictionaries(st.text(max_size=3), JSON, max_size=2)
# Gemini 3 multimodal function responses: `functionResponse.parts`.
_RESPONSE_PARTS = st.sampled_from([{}]) | st.builds(
    lambda m, d: {"parts": [{"inlineData": {"mimeType": m, "data": d}}]},
    st.sampled_from(["image/png", "application/pdf"]), _B64)
_DATA = st.one_of(
    st.builds(lambda t: {"text": t}, _TEXT),
    st.builds(lambda n, a, i: {"functionCall": {"name": n, "args": a, **i}}, _NAME, _OBJECT,
              st.sampled_from([{}, {"id": "c1"}])),
    st.builds(lambda n, r, i, p: {"functionResponse": {"name": n, "response": r, **i, **p}},
              _NAME, _OBJECT | st.builds(lambda t: {"output": t}, _TEXT),
              st.sampled_from([{}, {"id": "c1"}]), _RESPONSE_PARTS),
    st.builds(lambda m, d: {"inlineData": {"mimeType": m, "data": d}},
              st.sampled_from(["image/png", "application/pdf", "audio/wav"]), _B64),
    st.builds(lambda m, u: {"fileData": {"mimeType": m, "fileUri": u}},
              st.sampled_from(["image/png", "application/pdf", "video/mp4"]),
              st.sampled_from(["https://example.com/a", "gs://b/c.pdf"])),
    st.builds(lambda c: {"executableCode": {"language": "PYTHON", "code": c}}, _TEXT),
    st.builds(lambda o: {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": o}}, _TEXT),
)
_PART = st.builds(lambda d, thought, sig: {**d, **thought, **sig}, _DATA,
                  st.sampled_from([{}, {"thought": True}]),
                  st.sampled_from([{}]) | _B64.map(lambda s: {"thoughtSignature": s}))
GEMINI_CONTENT = st.builds(lambda r, p: {"role": r, "parts": p},
                           st.sampled_from(["user", "model"]), st.lists(_PART, max_size=3))

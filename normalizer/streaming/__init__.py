"""Streamed responses -> one assistant message of the neutral model, for every protocol.

    result = assemble(events, "anthropic")          # events: dicts or the SDK's event objects
    history = History((*history.messages, result.message))

An assembler takes the parsed JSON of each SSE event (or chunk) in order, and can be read
at any point (`result()`): a stream cut anywhere gives a usable message. Calls the vendor
did not close are kept, marked {"incomplete": true, "raw_arguments": <fragment>} with the
fragment as their arguments; a closed call whose arguments are not a JSON object is kept
with its raw text, marked {"invalid_arguments": true, "raw_arguments": ...}, and its
ArgumentsJSONError is on the result (`argument_errors`, `raise_on_invalid_arguments()`).
Everything else that went wrong (unknown index, error events, unknown events) is a typed
StreamProblem on the result; nothing raises in the middle of a stream.

`emit` is the inverse (message -> the events a vendor would stream; emulators serve it),
and `sse` reads and writes the event-stream framing.
"""

from normalizer.model import STREAM_MARKERS
from normalizer.streaming import sse
from normalizer.streaming.dispatch import (
    Assembler,
    assemble,
    assemble_sse,
    assembler,
    emit,
)
from normalizer.streaming.result import (
    ProblemCode,
    StreamProblem,
    StreamResult,
    derive_call_id,
)

__all__ = [
    "STREAM_MARKERS",
    "Assembler",
    "ProblemCode",
    "StreamProblem",
    "StreamResult",
    "assemble",
    "assemble_sse",
    "assembler",
    "derive_call_id",
    "emit",
    "sse",
]

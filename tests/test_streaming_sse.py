"""The event-stream framing: line endings, comments, multi-line data, a cut last event,
`[DONE]`, data that is not JSON, and each vendor's encoding."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer.streaming import assemble_sse, sse
from normalizer.streaming.sse import SSEDecoder, SSEMessage


def test_line_endings_comments_and_multiline_data() -> None:
    body = b": keep-alive\r\nevent: ping\rdata: {\"a\":\ndata: 1}\r\n\r\ndata: x\n\n"
    assert sse.decode(body) == [SSEMessage("ping", '{"a":\n1}'), SSEMessage(None, "x")]


def test_a_cr_split_from_its_lf_is_one_line_end() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: 1\r") == []
    assert decoder.feed(b"\n") == []
    assert decoder.feed(b"\r\n") == [SSEMessage(None, "1")]
    # a held CR that no LF follows ended the event: it is dispatched by the next read,
    # even one that holds no line end of its own
    assert decoder.feed(b"data: 2\r\r") == []
    assert decoder.feed(b"x") == [SSEMessage(None, "2")]


_PIECES = st.sampled_from([b"data: x", b"data: ", b"AAAA", "東".encode(), b"\r", b"\n",
                           b"\r\n", b": c", b"event: e", b"data:y"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=30), st.lists(st.integers(0, 200), max_size=12))
def test_any_chunking_decodes_as_the_whole_body(pieces: list[bytes], cuts: list[int]) -> None:
    """Reads that end inside a line (kept until its end comes), right after a CR (maybe
    half of a CRLF) or inside a UTF-8 character give the events of the body read at once."""
    body = b"".join(pieces)
    assert sse.decode(body, [c for c in cuts if c <= len(body)]) == sse.decode(body)


def test_utf8_character_split_across_reads() -> None:
    raw = 'data: "東"\n\n'.encode()
    decoder = SSEDecoder()
    out = [m for i in range(len(raw)) for m in decoder.feed(raw[i:i + 1])]
    assert out == [SSEMessage(None, '"東"')]


def test_unterminated_last_event_is_dropped_but_a_final_cr_ends_it() -> None:
    assert sse.decode(b'data: {"a": 1}\n\ndata: {"b": ') == [SSEMessage(None, '{"a": 1}')]
    assert sse.decode(b"data: 2\r\r") == [SSEMessage(None, "2")]


def test_done_ends_and_bad_json_is_marked_for_the_assembler() -> None:
    messages = [SSEMessage(None, "{oops"), SSEMessage(None, "[DONE]"), SSEMessage(None, "{}")]
    assert sse.json_events(messages) == [{sse.INVALID_JSON_KEY: "{oops"}]
    result = assemble_sse(b"data: {oops\n\ndata: [DONE]\n\n", "openai_chat")
    assert [(p.code, p.raw) for p in result.problems] == [("malformed-event", "{oops")]


def test_each_vendor_framing() -> None:
    event = {"type": "message_stop"}
    assert sse.encode([event], "anthropic") == (
        b'event: message_stop\ndata: {"type": "message_stop"}\n\n')
    assert sse.encode([{}], "openai_chat") == b"data: {}\n\ndata: [DONE]\n\n"
    assert sse.encode([{}], "gemini") == b"data: {}\r\n\r\n"

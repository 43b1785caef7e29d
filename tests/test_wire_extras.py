"""Markers the streaming assembler puts in extras never reach a request body."""

from __future__ import annotations

import pytest

from normalizer import PROTOCOLS, History, Message, Text, ToolCall, render
from normalizer.streaming import STREAM_MARKERS


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_stream_markers_are_not_rendered(protocol: str) -> None:
    markers = {key: True for key in STREAM_MARKERS}
    call = ToolCall("f", '{"a', "c1", markers)
    body = render(History((Message("user", (Text("x"),)), Message("assistant", (call,)))),
                  protocol)
    text = str(body)
    assert not [key for key in STREAM_MARKERS if f"'{key}'" in text]

"""The real corpus (issue 17): request bodies and recorded streams taken from public
sources, each with its provenance. This checks the files themselves — every one loads, says
where it came from and holds no key-like string — not yet what the library makes of them
(see tests/data/real_requests/README.md)."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from pathlib import Path
from typing import Any

import fast_yaml
import pytest

from conformance.cassettes import lint
from normalizer.wire import PROTOCOLS

DATA = Path(__file__).parent / "data"
REQUESTS = sorted((DATA / "real_requests").rglob("*.yaml"))
STREAMS = sorted((DATA / "real_streams").rglob("*.yaml"))
HEX40 = re.compile(r"^[0-9a-f]{40}$")
CONFIDENCE = ("recorded", "documented", "pasted")


def load(path: Path) -> dict[str, Any]:
    doc = fast_yaml.load(path.read_text(encoding="utf-8"))
    assert isinstance(doc, dict), f"{path}: not a mapping"
    return doc


def holds_tool_call(events: list[Any]) -> bool:
    """Any protocol's sign of a tool call in a stream: a tool block or item, chat tool_calls
    deltas, or a Gemini functionCall part."""
    text = "\n".join(str(e) for e in events)
    return any(mark in text for mark in (
        "'tool_use'", "'server_tool_use'", "'mcp_tool_use'", "'function_call'",
        "'custom_tool_call'", "'tool_search_call'", "'functionCall'", "'tool_calls': [{"))


def check_provenance(path: Path, doc: dict[str, Any]) -> None:
    assert doc.get("protocol") in PROTOCOLS, f"{path}: protocol {doc.get('protocol')!r}"
    assert path.parent.name == doc["protocol"], f"{path}: folder is not its protocol"
    source = doc.get("source")
    assert isinstance(source, dict) and str(source.get("url", "")).startswith("https://"), \
        f"{path}: source.url missing"
    if "repo" in source:
        assert HEX40.match(str(source.get("commit", ""))), f"{path}: commit is not 40 hex"
        assert source.get("path"), f"{path}: source.path missing"
        assert source["commit"] in source["url"], f"{path}: url does not pin the commit"
    assert isinstance(doc.get("date"), (str, datetime.date)), f"{path}: date missing"
    datetime.date.fromisoformat(str(doc["date"]))
    assert isinstance(doc.get("model"), str) and doc["model"], f"{path}: model missing"
    assert isinstance(doc.get("reconstructed", []), list), f"{path}: reconstructed is a list"


def test_the_corpus_is_large_enough() -> None:
    requests = Counter(p.parent.name for p in REQUESTS)
    streams = Counter(p.parent.name for p in STREAMS)
    assert sum(requests.values()) >= 48 and min(requests[p] for p in PROTOCOLS) >= 10
    assert sum(streams.values()) >= 24 and min(streams[p] for p in PROTOCOLS) >= 5
    with_calls = [p for p in STREAMS if holds_tool_call(load(p)["events"])]
    assert len(with_calls) >= 24


@pytest.mark.parametrize("path", REQUESTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_request_file_has_provenance(path: Path) -> None:
    doc = load(path)
    check_provenance(path, doc)
    assert doc.get("confidence") in CONFIDENCE, f"{path}: confidence"
    assert isinstance(doc.get("shows"), list), f"{path}: shows"
    assert isinstance(doc.get("request"), dict), f"{path}: request is not a mapping"


@pytest.mark.parametrize("path", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_stream_file_has_provenance(path: Path) -> None:
    doc = load(path)
    check_provenance(path, doc)
    events = doc.get("events")
    assert isinstance(events, list) and events, f"{path}: no events"
    assert all(isinstance(e, dict) or e == "[DONE]" for e in events), f"{path}: event shape"
    assert isinstance(doc.get("final", {}), (dict, list)), f"{path}: final"
    # Every stream holds a tool call, unless it says why it is here without one.
    assert holds_tool_call(events) != ("no_tool_call" in doc.get("shows", [])), \
        f"{path}: tool call present / shows no_tool_call disagree"


@pytest.mark.parametrize("path", REQUESTS + STREAMS, ids=lambda p: p.stem)
def test_no_key_like_string(path: Path) -> None:
    assert lint(path) == []  # the cassette lint: key-like strings and secret headers

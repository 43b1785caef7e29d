"""Cassettes: matching on canonical JSON, mismatch reports, lint for key-like strings."""

from __future__ import annotations

from pathlib import Path

from conformance.cassettes import cassette_path, first_difference, lint


def test_path_layout() -> None:
    assert cassette_path(Path("c"), "anthropic", "pairing", "orphan", "raw") == Path(
        "c/anthropic/pairing/orphan.raw.yaml")


def test_first_difference_names_the_field() -> None:
    a = {"messages": [{"role": "user", "content": "hi"}, {"role": "tool", "x": 1}], "m": 1}
    b = {"m": 1, "messages": [{"role": "user", "content": "hi"}, {"role": "tool", "x": 2}]}
    assert first_difference(a, b) == "body.messages[1].x: request has 1, recording has 2"
    assert first_difference({"a": 1}, {}) == "body.a: only in the request"
    assert "2 items in the request, 1 in the recording" in first_difference([1, 2], [1])


def test_lint_finds_keys_and_secret_headers(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: sk-proj-" + "x" * 30 + "\n      authorization:\n      - Bearer y\n"
                   "b: AIza" + "Q" * 35 + "\n")
    problems = lint(bad)
    assert len(problems) == 3 and "key-like string" in problems[0]
    good = tmp_path / "good.yaml"
    good.write_text("content-type: application/json\nbody: hello\n")
    assert lint(good) == []


def test_committed_cassettes_hold_no_secret() -> None:
    root = Path(__file__).parent.parent / "cassettes"
    problems = [p for path in sorted(root.rglob("*.yaml")) for p in lint(path)]
    assert problems == []



def test_lint_knows_the_shapes_the_secrets_test_plants(tmp_path: Path) -> None:
    from test_secrets import KEYS

    for key in KEYS.values():
        leaked = tmp_path / "leak.yaml"
        leaked.write_text(f"body: {key}\n")
        assert lint(leaked), key


def test_a_replay_patches_the_sdk_transport_only(tmp_path: Path) -> None:
    """A replay enters vcrpy's patcher of the SDKs' HTTP client (httpx2) and skips the
    others (cassette_replay.py): the official SDK still sends over its real client code,
    and vcrpy answers at its transport."""
    import http.client

    import httpx2

    from conformance import cassettes
    from conformance.cassette_replay import skipped_patchers

    assert "httpx2" not in skipped_patchers() and "httplib" in skipped_patchers()
    original = httpx2.HTTPTransport.handle_request
    path = tmp_path / "c.yaml"
    path.write_text("interactions: []\nversion: 1\n")
    with cassettes.use(path, "none"):
        assert httpx2.HTTPTransport.handle_request is not original
        assert http.client.HTTPConnection.__module__ == "http.client"
    assert httpx2.HTTPTransport.handle_request is original


def test_a_replay_reads_the_recorded_request_as_the_published_page_does() -> None:
    """A scenario item carries the request its replay loaded (recorded_body); the page reads
    the same body from the file (recorded_request)."""
    from conformance import cassettes
    from conformance.cassette_replay import recorded_body
    from conformance.publish.recorded import recorded_request

    path = Path(__file__).resolve().parent.parent / "cassettes" / "openai" / "pairing" \
        / "orphan-tool-result.raw.yaml"
    with cassettes.use(path, "none") as loaded:
        body = recorded_body(loaded)
    assert body == recorded_request(path) and body["messages"]

"""A re-recorded cassette tells the truth about itself: one interaction, fresh provenance."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openai
import yaml

from conformance import cassettes
from conformance.emulator import serve

BODY = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "hi"}]}


def _ask(base_url: str, text: str) -> None:
    client = openai.OpenAI(api_key="placeholder", base_url=base_url, max_retries=0)
    client.chat.completions.create(model="gpt-4.1-mini",
                                   messages=[{"role": "user", "content": text}])
    client.close()


def _stored(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_re_recording_rewrites_the_provenance_and_keeps_one_interaction(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    with serve(["openai"]) as emu:
        url = emu.sdk_base_url("openai")
        stale = cassettes.provenance("live", "gpt-4.1-mini", "https://api.openai.com/v1",
                                     today=dt.date(2020, 1, 1))
        with cassettes.use(path, "once", "", stale):
            _ask(url, "hi")
        assert _stored(path)["metadata"]["provenance"]["backend"] == "live"

        fresh = cassettes.provenance("emulator", "gpt-4.1-mini", url, today=dt.date(2026, 11, 23))
        with cassettes.use(path, "new_episodes", "", fresh):
            _ask(url, "hello again")  # a changed body: a new answer is recorded
    stored = _stored(path)
    assert stored["metadata"]["provenance"] == fresh
    assert len(stored["interactions"]) == 1
    assert "hello again" in stored["interactions"][0]["request"]["body"]


def test_replaying_or_re_recording_nothing_new_keeps_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    with serve(["openai"]) as emu:
        url = emu.sdk_base_url("openai")
        first = cassettes.provenance("emulator", "gpt-4.1-mini", url, today=dt.date(2026, 1, 1))
        with cassettes.use(path, "once", "", first):
            _ask(url, "hi")
        before = path.read_bytes()
        later = cassettes.provenance("emulator", "gpt-4.1-mini", url, today=dt.date(2026, 6, 1))
        with cassettes.use(path, "new_episodes", "", later):
            _ask(url, "hi")  # matches the recording: nothing new, so the old stamp is true
        with cassettes.use(path, "none"):
            _ask(url, "hi")
    assert path.read_bytes() == before


def test_recording_a_block_that_sends_nothing_leaves_a_stamped_empty_cassette(
        tmp_path: Path) -> None:
    # An SDK that refuses a body before sending records no interaction; the replay must still
    # find a cassette (and reach the same refusal), and the cassette must say where it came from.
    path = tmp_path / "gemini" / "c.yaml"
    stamp = cassettes.provenance("emulator", "gemini-2.5-flash", "http://127.0.0.1:1/gemini",
                                 today=dt.date(2026, 11, 23))
    with cassettes.use(path, "all", "", stamp):
        pass
    stored = _stored(path)
    assert stored["interactions"] == []
    assert stored["metadata"]["provenance"] == stamp
    with cassettes.use(path, "none"):
        pass
    assert _stored(path) == stored

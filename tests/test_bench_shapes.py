"""The shapes benchmark's plumbing (benchmarks/shapes_bench.py) on tiny sizes: every shape grows
with n and each mode runs it through, one row per shape and provider,
and a row growing faster than its size is flagged."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import shapes_bench


@pytest.mark.parametrize("shape", sorted(shapes_bench.SHAPES))
def test_each_shape_grows_with_n(shape: str) -> None:
    """n messages, or for the one-turn shapes n/2 to n calls or results in a message."""
    for n in (40, 120):
        made = shapes_bench.SHAPES[shape](n)
        size = max(len(made), *(len(m.parts) for m in made))
        assert n // 2 - 2 <= size <= n + 2, (shape, n, size)


@pytest.mark.parametrize("mode", ["normalize", "window", "check", "stream"])
def test_every_mode_prints_a_row_per_shape_and_provider(
        mode: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = shapes_bench.main(["--sizes", "40,80", "--providers", "openai,gemini",
                              "--mode", mode, "--timeout", "30"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if "growth" in line and "mode" not in line]
    if mode == "stream":  # every protocol; OpenAI Chat alone for its servers' quirks
        quirks = len(shapes_bench.CHAT_QUIRKS)
        expected = (len(shapes_bench.STREAMED) - quirks) * len(shapes_bench.STREAM_PROTOCOLS) \
            + quirks
        assert sum("(chat)" in line for line in rows) == quirks
    else:
        expected = len(shapes_bench.SHAPES) * 2
    assert len(rows) == expected
    assert out.rstrip().endswith("flagged row(s)")


def test_a_row_growing_faster_than_its_size_is_flagged(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    times = {"users in a row": [0.010, 0.021], "assistants in a row": [0.010, 0.100]}
    monkeypatch.setattr(shapes_bench, "row", lambda shape, *_: times[shape])
    shapes_bench.main(["--sizes", "100,200", "--providers", "openai", "--shapes", "in a row"])
    out = capsys.readouterr().out.splitlines()
    assert [line.endswith("<-- superlinear") for line in out if "growth" in line][1:] == [
        False, True]  # 2.1x the time for 2x the messages is linear; 10x is not
    assert out[-1] == "1 flagged row(s)"


def test_an_unknown_shape_is_refused_with_the_known_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        shapes_bench.main(["--shapes", "no such shape"])
    assert "users in a row" in capsys.readouterr().err


def test_a_size_past_the_timeout_ends_its_row_flagged(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def overrun() -> None:
        raise shapes_bench._Overrun  # what the alarm raises when a cell runs too long

    monkeypatch.setattr(shapes_bench, "_runner", lambda *_: overrun)
    shapes_bench.main(["--sizes", "10,20", "--providers", "openai", "--shapes", "users in"])
    out = capsys.readouterr().out.splitlines()
    assert "timeout" in out[1] and out[1].endswith("<-- superlinear")
    assert out[-1] == "1 flagged row(s)"

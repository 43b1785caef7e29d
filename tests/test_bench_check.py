"""The check benchmark's plumbing (benchmarks/check_bench.py) on tiny histories: one row per
size and provider with both ratios and the load average, and the growth table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import check_bench


def test_rows_growth_and_load_are_printed(capsys: pytest.CaptureFixture[str]) -> None:
    code = check_bench.main(["--sizes", "40,80", "--providers", "openai,anthropic,gemini",
                             "--repeat", "1"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("| 40 |", "| 80 |"))]
    assert len(rows) == 6 and all(line.count("×") == 2 for line in rows)
    assert "load average" in out and "| check 40→80 (×2 messages) | json |" in out
    assert sum(line.startswith("| gemini | ") for line in out.splitlines()) == 1

"""The parse benchmark (benchmarks/parse_bench.py) runs end to end on a tiny size and prints
one row per protocol. No timing is asserted: speed belongs to the benchmark's output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import parse_bench

from normalizer.wire import PROTOCOLS


def test_runs_and_prints_a_row_per_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_bench.main(["--sizes", "60", "--repeat", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 60 |")]
    assert [row.split(" | ")[1] for row in rows] == list(PROTOCOLS)
    assert all(row.rstrip().endswith("× |") for row in rows)

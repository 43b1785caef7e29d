"""The normalize benchmark's inputs and plumbing (benchmarks/normalize_bench.py): histories
are deterministic, of the asked size and really damaged; the script runs end to end on tiny
sizes. No timing is asserted: speed belongs to the benchmark's own output."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from normalizer import History, Message, ToolCall, ToolResult, render

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import baselines
import histories
import normalize_bench
from compare import request_points


def _wire(history: History) -> str:
    return json.dumps(render(history, "anthropic", tools=histories.TOOLS), sort_keys=True)


@pytest.mark.parametrize("n", [1, 57, 600])
def test_history_has_exactly_n_messages_and_same_bytes_every_time(n: int) -> None:
    first, again = histories.history(n), histories.history(n)
    assert len(first) == n
    assert _wire(first) == _wire(again)
    assert _wire(first) != _wire(histories.history(n, seed=1)) or n == 1


def test_history_holds_every_damage_thinking_and_parallel_calls() -> None:
    history, counts = histories.generate(3_000)
    assert {name for name in histories.DAMAGE_RATES if counts[name] == 0} == set()
    assert counts["thinking"] > 0
    widths = {len(m.tool_calls) for m in history if m.tool_calls}
    assert widths == {1, 2, 3, 4}
    assert {m.origin for m in history if m.role == "assistant"} == set(histories.ORIGINS)


def _without_ids(history: History) -> History:
    def strip(part: object) -> object:
        if isinstance(part, ToolCall):
            return replace(part, id=None)
        if isinstance(part, ToolResult):
            return replace(part, call_id=None)
        return part

    return History(tuple(Message(m.role, tuple(strip(p) for p in m.parts), m.origin)
                         for m in history))


def test_gemini_ids_change_only_the_gemini_ids() -> None:
    plain, with_ids = histories.history(800), histories.history(800, gemini_ids=True)
    assert _without_ids(plain) == _without_ids(with_ids)
    gemini_calls = [c for m in with_ids if m.origin == "gemini" for c in m.tool_calls]
    assert gemini_calls and all(c.id for c in gemini_calls)
    assert all(c.id is None for m in plain if m.origin == "gemini" for c in m.tool_calls)


def test_request_points_end_after_a_user_or_tool_message_past_the_window() -> None:
    history = histories.history(1_000, gemini_ids=True)
    points = request_points(history, 20)
    assert 0 < len(points) <= 40 and points == sorted(set(points))
    assert all(end > 20 and history.messages[end - 1].role in ("user", "tool")
               for end in points)


def test_bench_runs_end_to_end_on_tiny_sizes(capsys: pytest.CaptureFixture[str]) -> None:
    code = normalize_bench.main(["--sizes", "60,120", "--providers", "openai,anthropic,gemini",
                                 "--repeat", "1", "--repeat-small", "1", "--time-budget", "120"])
    out = capsys.readouterr().out
    assert code == 0
    assert "| openai | openai_chat |" in out and "| gemini | gemini |" in out
    assert "growth 60→120" in out and "load average" in out
    walk = next(line for line in out.splitlines()
                if line.startswith("| bare walk over every message and part |"))
    assert len(walk.strip("| ").split("|")) == 4  # the row, two sizes and their growth
    # normalize's contract: wherever the window cuts, the output breaks no rule
    table = out.split("violations after")[1].splitlines()
    row = next(line for line in table if line.startswith("| normalize(budget)+render |"))
    cells = [cell.strip() for cell in row.strip("| ").split("|")][1:]
    assert len(cells) == 2 and all(cell.startswith("0/") for cell in cells), row


def test_without_langchain_or_turnsafe_the_bench_says_so_and_runs(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(baselines, "available", lambda module: False)
    code = normalize_bench.main(["--sizes", "40,80", "--providers", "openai,anthropic",
                                 "--repeat", "1", "--repeat-small", "1", "--time-budget", "60"])
    out = capsys.readouterr().out
    assert code == 0
    assert "trim_messages: not installed (pip install langchain-core)" in out
    assert "turnsafe repair+fit: not installed (pip install turnsafe)" in out
    assert "| trim_messages" not in out and "| naive slice |" in out


def test_cells_below_the_largest_size_get_at_least_repeat_small_runs() -> None:
    args = normalize_bench.parse_args(["--sizes", "100,10,1000", "--repeat", "3",
                                       "--repeat-small", "7"])
    assert [normalize_bench.repeats(args, size) for size in args.sizes] == [7, 7, 3]
    args = normalize_bench.parse_args(["--sizes", "10,100", "--repeat", "9"])
    assert [normalize_bench.repeats(args, size) for size in args.sizes] == [9, 9]


def test_prediction_scales_the_previous_size_by_the_worst_growth_seen() -> None:
    cells = normalize_bench.Cells(norm={(1_000, "a"): [1.0], (10_000, "a"): [20.0],
                                        (1_000, "b"): [2.0]})
    assert normalize_bench.predict(cells, [1_000, 10_000], 10_000, "b") == pytest.approx(40.0)
    assert normalize_bench.predict(cells, [1_000, 10_000], 1_000, "b") is None


def test_cells_over_the_time_budget_are_reported_not_dropped(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = normalize_bench.main(["--sizes", "40,80", "--providers", "openai,vllm",
                                 "--repeat", "1", "--repeat-small", "1", "--time-budget", "0",
                                 "--no-compare"])
    out = capsys.readouterr().out
    assert code == 0
    assert "- openai at 80: not run: predicted ~" in out
    assert "- vllm at 80: not run: predicted ~" in out
    row = next(line for line in out.splitlines() if line.startswith("| openai |"))
    assert row.split("|")[3].strip() != "—" and row.split("|")[5].strip() == "—"

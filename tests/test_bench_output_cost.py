"""The output-cost benchmark's plumbing (benchmarks/output_cost.py) on a tiny history: one
row per pass of the provider's schedule and one for render, the passes it marks as changing
the history are the ones normalize reports changes from, and bad arguments are refused."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import output_cost
from histories import SEED, TOOLS, generate
from normalize_bench import fresh

from normalizer import normalize
from normalizer.profiles import load_profile
from normalizer.scope import scoped


@pytest.mark.parametrize("provider", ["mistral", "openai", "gemini"])
def test_one_row_per_pass_and_the_changing_ones(provider: str) -> None:
    _, _, rows = output_cost.rows(provider, 120, 1)
    schedule = output_cost.NORMALIZE.schedule(scoped(load_profile(provider), model=None,
                                                     on=None))
    assert [r.name for r in rows] == [*schedule, "render"]
    history, _ = generate(120, SEED)
    reported = {c.pass_name for c in normalize(fresh(history), provider, tools=TOOLS).changes}
    assert {r.name for r in rows[:-1] if r.changed} <= reported


def test_the_table_is_printed_and_bad_arguments_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert output_cost.main(["--providers", "mistral", "--sizes", "60", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "### mistral, 60 messages" in out and "| rewrite_tool_call_ids |" in out
    assert "output-making passes and render" in out
    for bad in (["--providers", "nope"], ["--sizes", "ten"], ["--repeat", "0"]):
        with pytest.raises(SystemExit):
            output_cost.main(bad)

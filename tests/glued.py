"""Long histories glued from the scenario corpus: its parts (images, documents, hosted and
MCP tools, reasoning items, signed thinking, structured results) and damages in one
history, each piece's system prompt and tail landing mid-history (more damage). Small
tests read each scenario alone; these find what only their mix, or a long history's
shortcuts, shows."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from conformance.scenarios.load import find_scenarios, load_scenario
from normalizer.model import History, Message, ToolSpec
from normalizer.passes import Policy

ROOT = Path(__file__).resolve().parent.parent

Case = tuple[History, tuple[ToolSpec, ...], Mapping[str, object], Policy]


@cache
def scenario_cases() -> tuple[Case, ...]:
    """Every scenario's history, tools, options (per protocol) and a default policy."""
    found: list[Case] = []
    for path in find_scenarios(ROOT / "scenarios"):
        s = load_scenario(path, root=ROOT)
        found.append((s.history, s.tools, s.options, Policy()))
    return tuple(found)


def glued(seed: int, pieces: int, cases: tuple[Case, ...] | None = None) -> Case:
    """`pieces` cases drawn from `cases` (default: the scenarios) with `random.Random(seed)`,
    shuffled and joined, with the tools, options and policy of the first drawn."""
    rng = random.Random(seed)
    picks = [rng.choice(cases or scenario_cases()) for _ in range(pieces)]
    histories = [case[0] for case in picks]
    rng.shuffle(histories)
    messages: tuple[Message, ...] = tuple(m for h in histories for m in h.messages)
    _, tools, options, policy = picks[0]
    return History(messages, histories[0].extras), tools, options, policy

"""window.fit walks back from the end (normalizer.window_walk); it must cut exactly where the
whole-history rule says (`units` of every message, then the earliest allowed fitting start),
on damaged histories: orphans, wedged messages, reused ids, late results."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from normalizer.model import Message
from normalizer.profiles import Profile, load_profile
from normalizer.window import Budget, estimate_tokens, fit, units
from normalizer.window_walk import may_start

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import histories


def reference_start(messages: Sequence[Message], limit: Budget, profile: Profile) -> int:
    """The cut as the whole-history version computed it (before issue 13)."""
    costs = [estimate_tokens(m) for m in messages]
    head = next((i for i, m in enumerate(messages) if m.role != "system"), len(messages))
    after = messages[head - 1].role if head else None

    def fits(s: int) -> bool:
        return ((limit.messages is None or head + len(messages) - s <= limit.messages)
                and (limit.tokens is None or sum(costs[:head]) + sum(costs[s:]) <= limit.tokens))

    if fits(head):
        return head
    starts = [s for s, _ in units(messages, head)]
    allowed = [s for s in starts if may_start(messages[s], profile, after)]
    best = next((s for s in allowed if fits(s)), None)
    if best is None and allowed:
        best = allowed[-1]
    if best is None:
        best = next((s for s in starts if fits(s)), None)
    return head if best is None else best


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_the_walk_cuts_where_the_whole_history_rule_cuts(provider: str) -> None:
    profile = load_profile(provider)
    budgets = [Budget(messages=m) for m in (1, 2, 5, 20)] + [Budget(tokens=t)
                                                            for t in (30, 400)]
    for seed in range(20):
        history = histories.history(60 + seed, seed)
        for budget in budgets:
            kept, _ = fit(history, budget, profile)
            start = reference_start(history.messages, budget, profile)
            head = next(i for i, m in enumerate(history.messages) if m.role != "system")
            assert kept.messages == history.messages[:head] + history.messages[start:], \
                (seed, budget)


def _late_results(n: int) -> list[Message]:
    """Call turns whose results all come at the end, some of them orphans (no call at all)
    and some for an id called twice: every result stays pending for most of the walk."""
    from normalizer.model import Text, ToolCall, ToolResult
    turns = [Message("assistant", (ToolCall("f", {}, f"c{k % (n - 2)}"),)) for k in range(n)]
    results = [Message("tool", (ToolResult(f"c{k}" if k % 4 else f"lost{k}", "ok"),))
               for k in range(n)]
    return [Message("system", (Text("s"),)), Message("user", (Text("q"),)), *turns,
            Message("user", (Text("and?"),)), *results]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_the_walk_cuts_where_the_rule_cuts_when_results_come_late(provider: str) -> None:
    """Many results pending at once: the walk asks them only until one has its call before."""
    from normalizer.model import History
    profile = load_profile(provider)
    messages = _late_results(30)
    for budget in [Budget(messages=m) for m in (1, 5, 20, 40)] + [Budget(tokens=200)]:
        kept, _ = fit(History(tuple(messages)), budget, profile)
        start = reference_start(messages, budget, profile)
        assert list(kept.messages) == messages[:1] + messages[start:], budget

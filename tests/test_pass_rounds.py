"""The confirming rounds skip a *local* pass where the messages made since its last run give
it nothing to do (normalizer/passes/rounds.py). That is exact only if every pass marked
local is idempotent and finds nothing to do exactly where no message alone gives it
anything: checked here on every draft such a pass receives while
normalizing the scenario corpus and damaged benchmark histories, for every provider."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from normalizer.model import EMPTY, Change, History, Message, Text, ToolCall, ToolResult
from normalizer.passes import Draft, Pass, Policy
from normalizer.profiles import PROVIDERS, Profile, load_profile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import histories  # noqa: E402  (benchmarks/ is put on the path just above)
from glued import Case, scenario_cases  # noqa: E402

# The module, not the function the package face re-exports under the same name.
NORMALIZE = importlib.import_module("normalizer.normalize")
LOCAL = sorted(name for name, step in NORMALIZE.STEPS.items() if step.local)
Seen = list[tuple[str, Draft, Profile, Policy]]


@cache
def _cases() -> tuple[Case, ...]:
    """Built once per process: 17 providers read the same (immutable) histories."""
    return tuple(_each_case())


def _each_case() -> Iterator[Case]:
    yield from scenario_cases()
    for seed in (histories.SEED, 7):
        h = histories.history(300, seed)
        yield h, histories.TOOLS, {}, Policy()
        yield h, histories.TOOLS, {}, Policy(foreign_thinking="as-text", thinking="on")
    yield histories.history(300, 5, gemini_ids=True), histories.TOOLS, {}, Policy()
    # A model that thinks by default: DeepSeek's every foreign call turn wants reasoning.
    yield histories.history(300, 7), histories.TOOLS, {}, Policy(model="deepseek-v4-flash")
    # A turn of more parallel calls than OpenAI takes in one message (128).
    wide = tuple(ToolCall("f", {"k": k}, f"c{k}") for k in range(130))
    yield History((Message("user", (Text("all of them"),)), Message("assistant", wide),
                   Message("tool", tuple(ToolResult(f"c{k}", "ok") for k in range(130))),
                   Message("user", (Text("thanks"),)))), (), {}, Policy()
    # Foreign message and result fields, which no scenario carries into these passes.
    yield History((Message("user", (Text("hi"),), extras={"name": "ann"}),
                   Message("assistant", (Text(""), ToolCall("f", {}, "c1", {"call_id": "c1"})),
                           extras={"prefix": False}),
                   Message("tool", (ToolResult("c1", "ok", extras={"is_error": False}),)),
                   Message("assistant", (Text("done"),), extras={"reasoning_details": []}),
                   # A call id reused in a later turn: a defect of the history as a whole.
                   Message("assistant", (ToolCall("f", {}, "c1"),)),
                   Message("tool", (ToolResult("c1", "again"),)),
                   Message("assistant", (Text("done"),))),
                  ), (), {}, Policy()


def _recording(name: str, run: Pass, seen: Seen) -> Pass:
    def record(draft: Draft, profile: Profile, policy: Policy
               ) -> tuple[Draft, tuple[Change, ...]]:
        seen.append((name, draft, profile, policy))
        return run(draft, profile, policy)
    return record


def _alone(draft: Draft, index: int) -> Draft:
    one = (draft.history.messages[index],)
    return replace(draft, history=History(one, draft.history.extras))


def _check(name: str, draft: Draft, profile: Profile, policy: Policy) -> None:
    run = NORMALIZE.STEPS[name].run
    out, changes = run(draft, profile, policy)
    again, more = run(out, profile, policy)
    assert not more and again is out, f"{name} is not idempotent for {profile.provider}"
    alone = [bool(run(_alone(draft, i), profile, policy)[1]) for i in range(len(draft.history))]
    assert bool(changes) == any(alone), f"{name} does not decide message by message " \
        f"for {profile.provider}"
    forgetful = replace(draft, id_map=EMPTY, name_map=EMPTY)
    assert bool(run(forgetful, profile, policy)[1]) == bool(changes), \
        f"{name} reads the id or name map to decide"


def test_some_passes_are_local() -> None:
    assert {"fill_empty_content", "drop_foreign_thinking", "rewrite_tool_call_ids"} <= set(LOCAL)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_local_passes_are_local_and_idempotent(provider: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Seen = []
    for name in LOCAL:
        step = NORMALIZE.STEPS[name]
        monkeypatch.setitem(NORMALIZE.STEPS, name,
                            replace(step, run=_recording(name, step.run, seen)))
    protocol = load_profile(provider).protocol
    for history, tools, options, policy in _cases():
        mine = options.get(protocol)
        NORMALIZE.normalize(history, provider, tools=tools, policy=policy,
                            options=mine if isinstance(mine, Mapping) else None)
    monkeypatch.undo()
    for name, draft, profile, policy in seen:
        _check(name, draft, profile, policy)


@pytest.mark.parametrize("seed", [histories.SEED, 7])
@pytest.mark.parametrize("every", [3, 40, 400])
def test_the_messages_looked_at_again_include_every_new_one(seed: int, every: int) -> None:
    """The confirming rounds look at the messages a settled tuple does not hold (found by the
    stretches both share, or, where many are new, a set): every new message is among them,
    in order, and what else is there is a message of the tuple (settled, hence harmless)."""
    from normalizer.passes import rounds

    settled = histories.history(1200, seed).messages
    edited = list(settled)
    for k in range(5, len(settled) - 40, every):
        edited[k] = Message(settled[k].role, settled[k].parts, settled[k].origin,
                            settled[k].extras)  # made anew
        del edited[k + 2]  # dropped
        edited.insert(k + 9, Message("user", (Text("later"),)))  # put in
        edited[k + 20], edited[k + 30] = edited[k + 30], edited[k + 20]  # moved
    messages = tuple(edited)
    looked = rounds._not_in(messages, settled, rounds._Ids())
    held = set(map(id, settled))
    assert [m for m in messages if id(m) not in held] == [m for m in looked
                                                         if id(m) not in held]
    positions = {id(m): k for k, m in enumerate(messages)}
    assert all(id(m) in positions for m in looked)
    assert [positions[id(m)] for m in looked] == sorted(positions[id(m)] for m in looked)

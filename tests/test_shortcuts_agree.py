"""normalize takes shortcuts on long histories: the confirming rounds skip a local pass that
the new messages give nothing to do (passes/rounds.py), the pairing index takes unchanged
blocks from the last tuple's (passes/_blocks.py `_reused`), and the id passes hand each
other the ids they gathered (passes/_known_ids.py). Each is tested on its own elsewhere;
here the whole of normalize, with all of them turned off, must give the same body, report
and maps as with them on, for every provider, on long histories glued from the scenario
corpus (its parts and damages) and on heavily damaged benchmark histories. The last tests
give the confirming round work, which none of those histories does."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from normalizer.model import Change, History, JsonMap, Message, Text, ToolSpec
from normalizer.normalize import Normalized, normalize
from normalizer.passes import Draft, Pass, Policy
from normalizer.profiles import PROVIDERS, Profile, load_profile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import histories  # benchmarks/ is put on the path just above
import test_pass_rounds  # its corpus: the scenarios and damaged histories
from glued import Case, glued

NORMALIZE = importlib.import_module("normalizer.normalize")
ROUNDS = importlib.import_module("normalizer.passes.rounds")
BLOCKS = importlib.import_module("normalizer.passes._blocks")
ID_PASSES = importlib.import_module("normalizer.passes.ids")
PAIRING_PASSES = importlib.import_module("normalizer.passes.pairing")


def _shortcuts_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every pass runs in every round on the whole draft, the index walks every tuple, and
    every id pass gathers its ids itself."""
    monkeypatch.setattr(ROUNDS, "_nothing_new", lambda *args: False)
    monkeypatch.setattr(BLOCKS, "_reused", lambda last, messages: [])
    monkeypatch.setattr(ID_PASSES, "remember_ids", lambda *args: None)
    monkeypatch.setattr(PAIRING_PASSES, "remember_ids", lambda *args: None)


def _output(result: Normalized) -> str:
    changes = [(c.pass_name, c.code, c.what, c.where, c.lossless) for c in result.changes]
    return json.dumps([result.render(), changes, dict(result.id_map), dict(result.name_map)],
                      sort_keys=True, default=repr)


def _heavily_damaged(seed: int, monkeypatch: pytest.MonkeyPatch) -> Case:
    """A benchmark history with every damage five times as often (one episode in two)."""
    with monkeypatch.context() as patch:
        patch.setattr(histories, "DAMAGE_RATES",
                      {kind: 5 * rate for kind, rate in histories.DAMAGE_RATES.items()})
        history = histories.history(1500, seed, gemini_ids=bool(seed % 2))
    return history, histories.TOOLS, {}, Policy()


def _long_glued(seed: int, corpus: tuple[Case, ...]) -> Case:
    """A glued history long enough for the shortcuts to be taken: 40 pieces, or twice as
    many until it is (which pieces are drawn moves whenever a scenario is added)."""
    pieces = 40
    while len((case := glued(seed, pieces, corpus))[0].messages) <= BLOCKS._REUSE_FROM:
        pieces *= 2
    return case


@pytest.mark.parametrize("provider", PROVIDERS)
def test_normalize_gives_the_same_output_with_its_shortcuts_off(
        provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = test_pass_rounds._cases()  # the scenarios and damaged benchmark histories
    cases = [_long_glued(1, corpus), _long_glued(2, corpus), _heavily_damaged(3, monkeypatch),
             _heavily_damaged(4, monkeypatch)]
    assert all(len(case[0].messages) > BLOCKS._REUSE_FROM for case in cases)
    protocol = load_profile(provider).protocol

    def outputs() -> list[str]:
        found = []
        for history, tools, options, policy in cases:
            mine = options.get(protocol)  # a scenario's options are given per protocol
            found.append(_output(normalize(
                history, provider, tools=tools, policy=policy,
                options=mine if isinstance(mine, Mapping) else None)))
        return found

    fast = outputs()
    _shortcuts_off(monkeypatch)
    plain = outputs()
    for k, (a, b) in enumerate(zip(fast, plain, strict=True)):
        assert a == b, f"case {k}: {provider}'s output moves with the shortcuts off"


# On every history above the confirming round finds nothing to do (as on the whole
# scenario corpus), so a skip there that missed work would not show. Here a pass run after a
# local one gives it work, once: the round after must find and do it, with the skips on as
# with them off.

_MARK = "empty me"


def _emptying(remake: bool) -> Pass:
    """A pass that empties every user message that says `_MARK` (work for
    fill_empty_content); `remake`: and makes every other message anew, unchanged (all of
    them new to the confirming round)."""
    def run(draft: Draft, profile: Profile, policy: Policy
            ) -> tuple[Draft, tuple[Change, ...]]:
        messages = list(draft.history.messages)
        changes: list[Change] = []
        for k, message in enumerate(messages):
            if message.role == "user" and message.text == _MARK:
                messages[k] = Message("user", (Text(""),))
                changes.append(Change("emptying", "emptied", "emptied", f"messages[{k}]",
                                      False))
            elif remake:
                messages[k] = Message(message.role, message.parts, message.origin,
                                      message.extras)
        if not changes:
            return draft, ()
        return replace(draft, history=History(tuple(messages), draft.history.extras)), \
            tuple(changes)
    return run


def _declaring(draft: Draft, profile: Profile, policy: Policy
               ) -> tuple[Draft, tuple[Change, ...]]:
    """Declares a tool whose name OpenAI refuses, once: work for rewrite_tool_names, which
    no message shows (only the draft's tools)."""
    if any(t.name == "github.search/issues" for t in draft.tools):
        return draft, ()
    tool = ToolSpec("github.search/issues", "Search issues.", {"type": "object"})
    return replace(draft, tools=(*draft.tools, tool)), (
        Change("declaring", "declared", "declared", "tools", True),)


def _rounds(draft: Draft, provider: str, steps: list[tuple[Pass, bool]]
            ) -> tuple[Draft, list[Change]]:
    profile = load_profile(provider)
    try:
        return ROUNDS.run_rounds(draft, profile, Policy(), steps, 4)
    finally:
        BLOCKS.forget_pairing()


@pytest.mark.parametrize(("every", "remake"), [(3, False), (50, False), (700, False),
                                               (1000, True)])
def test_a_later_pass_giving_a_local_pass_work_gets_it_done_in_the_next_round(
        every: int, remake: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """`every`: one message in so many is a user message saying `_MARK` (3: a third of the
    messages new to the confirming round; 700: a few; remade: all, one of them with work)."""
    history = histories.history(1400, 5)
    messages = tuple(Message("user", (Text(_MARK),)) if k % every == 1 else m
                     for k, m in enumerate(history.messages))
    draft = Draft(history=History(messages), tools=histories.TOOLS, options=JsonMap({}))
    steps = [(NORMALIZE.STEPS["fill_empty_content"].run, True), (_emptying(remake), False)]
    fast, fast_changes = _rounds(draft, "anthropic", steps)
    assert not any(m.role == "user" and not m.text for m in fast.history.messages)
    assert any(c.code == "emptied" for c in fast_changes)
    _shortcuts_off(monkeypatch)
    plain, plain_changes = _rounds(draft, "anthropic", steps)
    assert fast.history == plain.history and fast_changes == plain_changes


def test_a_later_pass_changing_the_tools_gets_a_local_pass_run_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    draft = Draft(history=histories.history(600, 5), tools=histories.TOOLS,
                  options=JsonMap({}))
    steps = [(NORMALIZE.STEPS["rewrite_tool_names"].run, True), (_declaring, False)]
    fast, fast_changes = _rounds(draft, "openai", steps)
    assert "github_search_issues" in {t.name for t in fast.tools}
    _shortcuts_off(monkeypatch)
    plain, plain_changes = _rounds(draft, "openai", steps)
    assert (fast.history, fast.tools) == (plain.history, plain.tools)
    assert fast_changes == plain_changes

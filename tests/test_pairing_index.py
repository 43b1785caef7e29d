"""The pairing passes read one index per message tuple (`_blocks.pairing`): it must hold
exactly what the plain queries `blocks` and `block_matches` give, on damaged histories with
id-less (Gemini) calls, reused ids, orphans and misplaced results."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.passes import Policy, ordering
from normalizer.passes._blocks import (
    Pairing,
    _match_many,
    block_matches,
    blocks,
    match,
    pairing,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import histories

pairing_passes = importlib.import_module("normalizer.passes.pairing")
normalize = importlib.import_module("normalizer.normalize").normalize


def _plain(messages: tuple[Message, ...]) -> tuple[list[tuple[int | None, list[int]]],
                                                   list[dict[tuple[int, int], int | None]]]:
    found = blocks(messages)
    return ([(at, list(tools)) for at, tools in found],
            [block_matches(messages, b) for b in found])


@pytest.mark.parametrize("seed", [histories.SEED, 7, 11, 12])
def test_pairing_index_equals_the_plain_queries(seed: int) -> None:
    messages = histories.history(600, seed).messages
    index = pairing(messages)
    assert ([(at, list(tools)) for at, tools in index.blocks],
            [index.hits(k) for k in range(len(index.blocks))]) == _plain(messages)
    assert any(m is None for m in index.matches)  # settled blocks are found


def test_pairing_index_matches_like_the_plain_queries_on_shared_ids() -> None:
    calls = (ToolCall("f", {}, "a"), ToolCall("f", {}, "a"), ToolCall("g", {}),
             ToolCall("f", {}))
    results = (ToolResult("a"), ToolResult(None, name="f"), ToolResult("a"), ToolResult("a"),
               ToolResult(None), ToolResult(None, name="g"))
    messages = History((Message("user", (Text("hi"),)), Message("assistant", calls),
                        Message("tool", results[:3]), Message("tool", (Text("x"), *results[3:])),
                        Message("tool", (ToolResult("zz"),)))).messages
    index = pairing(messages)
    assert [index.hits(k) for k in range(len(index.blocks))] == _plain(messages)[1]
    assert index.hits(0)[(3, 1)] is None  # a third "a" finds no free call
    assert pairing(messages) is index  # the same tuple: the same index


def _reference_match(calls: tuple[ToolCall, ...],
                     results: tuple[ToolResult, ...]) -> tuple[int | None, ...]:
    """The rule as first written: for each result, the first free call with its id, or for
    an id-less result the first free id-less call of its name (or any, without a name)."""
    free = list(range(len(calls)))
    out: list[int | None] = []
    for result in results:
        hit = next((c for c in free if _answers(result, calls[c])), None)
        if hit is not None:
            free.remove(hit)
        out.append(hit)
    return tuple(out)


def test_match_keeps_the_rule_as_first_written() -> None:
    calls = (ToolCall("f", {}, "a"), ToolCall("f", {}), ToolCall("f", {}, "a"),
             ToolCall("g", {}), ToolCall("f", {}, "b"))
    pool = (ToolResult("a"), ToolResult("b"), ToolResult("c"), ToolResult(None, name="f"),
            ToolResult(None, name="g"), ToolResult(None), ToolResult(None, name="h"))
    for size in range(len(pool) + 1):
        for start in range(len(pool)):
            results = (pool[start:] + pool[:start])[:size] * 2
            assert match(calls, results) == _reference_match(calls, results)


# mostly id-less (Gemini's), where results by name and results with neither name nor id
# take from the same calls
_CALLS = st.builds(ToolCall, st.sampled_from(["f", "g"]), st.just({}),
                   st.sampled_from(["a", "b", None, None, None]))
_RESULTS = st.builds(ToolResult, st.sampled_from(["a", "b", "c", None, None, None]),
                     name=st.sampled_from(["f", "g", "h", None]))


@settings(max_examples=300, deadline=None)
@given(st.lists(_CALLS, max_size=40), st.lists(_RESULTS, max_size=45))
def test_both_ways_of_matching_keep_the_rule(calls: list[ToolCall],
                                             results: list[ToolResult]) -> None:
    """The scan a few calls take and the maps a long turn takes (up to 40 calls: both)."""
    want = _reference_match(tuple(calls), tuple(results))
    assert _match_many(calls, results) == want
    assert match(calls, results) == want


def _answers(result: ToolResult, call: ToolCall) -> bool:
    if result.call_id is not None:
        return call.id == result.call_id
    return call.id is None and result.name in (None, call.name)


def _checked(real: Callable[[tuple[Message, ...]], Pairing], seen: list[int]
             ) -> Callable[[tuple[Message, ...]], Pairing]:
    def check(messages: tuple[Message, ...]) -> Pairing:
        index = real(messages)
        assert ([(at, list(tools)) for at, tools in index.blocks],
                [index.hits(k) for k in range(len(index.blocks))]) == _plain(messages)
        seen.append(len(messages))
        return index
    return check


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini", "mistral"])
def test_the_index_taken_from_the_last_tuple_equals_the_plain_queries(
        provider: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pass hands the next a tuple that shares most messages with the last one indexed:
    the blocks taken over from that index (shifted where messages came or went before them)
    must be what the plain queries find, on every tuple a normalize indexes."""
    seen: list[int] = []
    for module in (ordering, pairing_passes):
        monkeypatch.setattr(module, "pairing", _checked(pairing, seen))
    for seed in (histories.SEED, 7):
        normalize(histories.history(1500, seed), provider, tools=histories.TOOLS)
        normalize(histories.history(1500, seed, gemini_ids=True), provider,
                  tools=histories.TOOLS, policy=Policy(orphan_results="drop",
                                                       unanswered_calls="drop"))
    assert len(seen) >= 8


def test_normalize_does_not_keep_the_last_history_alive() -> None:
    from normalizer.passes import _blocks

    out = normalize(histories.history(300, seed=3), "openai")
    assert out.history.messages and getattr(_blocks._LAST, "pairing", None) is None
    assert getattr(_blocks._LAST, "renamed", None) is None


# Passes that tell the index which new message stands for which old one (`same_pairing`),
# two in a row as a provider runs them: Mistral renames ids and splits text off call turns,
# Gemini drops foreign thinking and signs call turns.
_HANDING_OVER = {
    "mistral": ("normalizer.passes.ids:rewrite_tool_call_ids",
                "normalizer.passes.call_fields:split_text_from_tool_calls"),
    "gemini": ("normalizer.passes.thinking:drop_foreign_thinking",
               "normalizer.passes.signatures:add_placeholder_thought_signatures"),
}


def _pass(path: str) -> Callable[..., Any]:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


@pytest.mark.parametrize("provider", sorted(_HANDING_OVER))
@pytest.mark.parametrize("seed", [histories.SEED, 7, 11])
def test_turns_handed_over_keep_their_blocks(
        provider: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The messages these passes remake pair as the old ones did: the next index takes
    their blocks over instead of walking them, and is still what the plain queries find."""
    from normalizer.passes import _blocks
    from normalizer.passes.draft import Draft
    from normalizer.profiles import load_profile

    walked: list[int] = []
    real_walk = _blocks._walk

    def counted(messages, i, stop, found, matches):  # type: ignore[no-untyped-def]
        before = len(found)
        end = real_walk(messages, i, stop, found, matches)
        walked.append(len(found) - before)
        return end

    monkeypatch.setattr(_blocks, "_walk", counted)
    profile = load_profile(provider)
    first, second = (_pass(path) for path in _HANDING_OVER[provider])
    draft = Draft(histories.history(1200, seed))
    before = pairing(draft.history.messages)
    middle, changes = first(draft, profile, Policy())
    last, more = second(middle, profile, Policy())
    assert changes and more  # both passes made new messages
    walked.clear()
    after = pairing(last.history.messages)
    assert ([(at, list(tools)) for at, tools in after.blocks],
            [after.hits(k) for k in range(len(after.blocks))]) == _plain(last.history.messages)
    assert sum(walked) < len(before.blocks) // 4, (sum(walked), len(before.blocks))
    _blocks.forget_pairing()


def test_a_tool_message_that_lost_thinking_is_indexed_again() -> None:
    """Thinking dropped from a message holding results moves their part indexes: that
    message is not handed over, and the index finds the results where they now are."""
    from normalizer.model import Thinking
    from normalizer.passes import _blocks
    from normalizer.passes.draft import Draft
    from normalizer.passes.thinking import drop_foreign_thinking
    from normalizer.profiles import load_profile

    call = Message("assistant", (ToolCall("f", {}, "c1"), ToolCall("f", {}, "c2")))
    odd = Message("tool", (Thinking("hm", vendor="openai"), ToolResult("c2", "2"),
                           ToolResult("c1", "1")))
    filler = [Message("user", (Text(f"u{k}"),)) for k in range(300)]
    messages = (*filler, call, odd, *filler)
    pairing(messages)
    out, changes = drop_foreign_thinking(Draft(History(messages)), load_profile("anthropic"),
                                         Policy())
    assert changes
    after = pairing(out.history.messages)
    assert ([(at, list(tools)) for at, tools in after.blocks],
            [after.hits(k) for k in range(len(after.blocks))]) == _plain(out.history.messages)
    _blocks.forget_pairing()


def test_what_renames_tell_the_index_stays_bounded_when_passes_run_alone() -> None:
    """A program calling the id pass again and again on new histories, with no index built
    in between, does not make `same_pairing` hold every message it ever renamed."""
    from normalizer.passes import _blocks
    from normalizer.passes.draft import Draft
    from normalizer.passes.ids import rewrite_tool_call_ids
    from normalizer.profiles import load_profile

    mistral = load_profile("mistral")
    _blocks.forget_pairing()
    rewrite_tool_call_ids(Draft(histories.history(200, 1)), mistral, Policy())
    assert getattr(_blocks._LAST, "renamed", None) is None  # no index: nothing kept
    index = pairing(histories.history(200, 2).messages)
    for seed in range(3, 40):
        rewrite_tool_call_ids(Draft(histories.history(200, seed)), mistral, Policy())
    ids, held = _blocks._LAST.renamed
    assert 0 < len(held) <= 5 * len(index.messages) and len(ids) <= len(held)
    _blocks.forget_pairing()


_EDITS = st.lists(st.tuples(st.sampled_from(["drop", "copy", "renew", "tool", "user"]),
                            st.integers(0, 10_000), st.integers(0, 10_000)),
                  min_size=1, max_size=12)


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.sampled_from([histories.SEED, 7, 11]), _EDITS)
def test_the_index_taken_over_after_any_edit_equals_the_plain_queries(
        seed: int, edits: list[tuple[str, int, int]]) -> None:
    """Messages dropped, moved, made anew, or tool and user messages put in anywhere: the
    index built from the last one (blocks taken over where their messages, and the message
    after their run, allow) is what the plain queries find on the edited tuple."""
    from normalizer.passes import _blocks

    base = histories.history(400, seed).messages
    messages = list(base)
    for op, a, b in edits:
        at, to = a % len(messages), b % (len(messages) + 1)
        if op == "drop" and len(messages) > 300:
            del messages[at]
        elif op == "copy":
            messages.insert(to, messages[at])
        elif op == "renew":
            old = messages[at]
            messages[at] = Message(old.role, old.parts, old.origin, old.extras)
        elif op == "tool":
            messages.insert(to, Message("tool", (ToolResult(f"x{a}"),)))
        elif op == "user":
            messages.insert(to, Message("user", (Text("u"),)))
    _blocks.forget_pairing()
    pairing(base)
    edited = tuple(messages)
    index = pairing(edited)
    assert ([(at, list(tools)) for at, tools in index.blocks],
            [index.hits(k) for k in range(len(index.blocks))]) == _plain(edited)
    _blocks.forget_pairing()


@pytest.mark.parametrize("every", [2, 5, 200])
def test_the_index_taken_over_after_many_edits_equals_the_plain_queries(every: int) -> None:
    """Every `every`-th message made anew and every 211th dropped: with a difference every
    few messages the stretches are found through a map of the old tuple
    (`stretches_by_map`), with few of them by walking both tuples in step (`stretches`);
    either way the index is what the plain queries find."""
    from normalizer.passes import _blocks, _stretches

    base = histories.history(2000, histories.SEED).messages
    edited = tuple(Message(m.role, m.parts, m.origin, m.extras) if k % every == 0 else m
                   for k, m in enumerate(base) if k % 211 != 3)
    keys, old = list(map(id, edited)), list(map(id, base))
    assert (_stretches.stretches(keys, old) is None) == (every < 200)
    _blocks.forget_pairing()
    pairing(base)
    index = pairing(edited)
    assert ([(at, list(tools)) for at, tools in index.blocks],
            [index.hits(k) for k in range(len(index.blocks))]) == _plain(edited)
    _blocks.forget_pairing()


def test_both_ways_of_finding_stretches_find_identical_messages() -> None:
    """Each stretch either way is the same messages in the same order in both tuples, and
    the walk in step finds no stretch the map does not (it may cut one in two)."""
    from normalizer.passes import _stretches

    base = histories.history(3000, 7).messages
    edited = list(base)
    for k in range(40, 2900, 97):  # a few edits of each kind, spread out
        edited[k] = Message(base[k].role, base[k].parts, base[k].origin, base[k].extras)
        del edited[k + 5]
        edited.insert(k + 20, Message("user", (Text("u"),)))
    keys, old = list(map(id, edited)), list(map(id, base))
    walked, mapped = _stretches.stretches(keys, old), _stretches.stretches_by_map(keys, old)
    assert walked is not None
    for runs in (walked, mapped):
        for i, end, j in runs:
            assert keys[i:end] == old[j:j + end - i]
    covered = {k for i, end, _ in mapped for k in range(i, end)}
    assert {k for i, end, _ in walked for k in range(i, end)} <= covered

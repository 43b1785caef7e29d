"""window.fit: budgets of messages or tokens that never split a call from its results."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sizing import examples

from normalizer.model import History, Message, Text, ToolCall, ToolResult
from normalizer.profiles import Profile, profile_from_mapping
from normalizer.window import Budget, estimate_text, estimate_tokens, fit, units


def profile(provider: str, protocol: str, **rules: dict[str, Any]) -> Profile:
    """A profile enforcing `rules` (rule id with '_' for '-' -> params)."""
    return profile_from_mapping({"provider": provider, "protocol": protocol, "rules": [
        {"id": rid.replace("_", "-"), "forbids": "test", "status": 400, "message": "unknown",
         "source": "test", "last_verified": "2026-11-22", "confidence": "low",
         "params": params} for rid, params in rules.items()]})


LENIENT = profile("anthropic", "anthropic", missing_tool_result={})
GEMINI = profile("gemini", "gemini", call_turn_placement={})
USER_FIRST = profile("mistral", "openai_chat", first_message_role={"allowed": ["user"]})
PROFILES = (LENIENT, GEMINI, USER_FIRST)


def call_turn(k: int, n: int, *, ids: bool, split: bool, wedge: bool) -> list[Message]:
    """An assistant turn with n parallel calls and its results: in one tool message or one
    per result (Gemini's N results in N turns), optionally with a user message wedged
    between the calls and their results (pairing by id then spans it)."""
    calls = tuple(ToolCall("get_weather", {"city": f"c{k}{j}"}, f"call_{k}_{j}" if ids else None)
                  for j in range(n))
    results = [ToolResult(c.id, f"{j}C", name=c.name) for j, c in enumerate(calls)]
    answers = [Message("tool", (r,)) for r in results] if split else \
        [Message("tool", tuple(results))]
    wedged = [Message("user", (Text("wait"),))] if wedge and ids else []
    return [Message("assistant", calls, origin="gemini"), *wedged, *answers]


@st.composite
def histories(draw: st.DrawFn) -> History:
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message("system", (Text("You are terse."),)))
    for k in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(["user", "text", "calls", "calls"]))
        if kind == "user":
            messages.append(Message("user", (Text(f"question {k}"),)))
        elif kind == "text":
            messages.append(Message("assistant", (Text(f"answer {k}"),)))
        else:
            messages.extend(call_turn(k, draw(st.integers(1, 3)), ids=draw(st.booleans()),
                                      split=draw(st.booleans()), wedge=draw(st.booleans())))
    return History(tuple(messages))


def pairs(history: History) -> set[tuple[int, int]]:
    """(call message, result message) index pairs: by id, or id-less results in the tool
    messages right after an id-less call turn."""
    msgs = history.messages
    where = {c.id: i for i, m in enumerate(msgs) for c in m.tool_calls if c.id}
    found: set[tuple[int, int]] = set()
    for i, m in enumerate(msgs):
        for r in m.tool_results:
            if r.call_id in where:
                found.add((where[r.call_id], i))
            elif r.call_id is None:
                back = i
                while back > 0 and msgs[back].role == "tool":
                    back -= 1
                found.add((back, i))
    return found


def oracle(history: History, limit: int, prof: Profile) -> int:
    """Brute force: the earliest cut position that splits no pair, may start, and fits."""
    msgs = history.messages
    head = next((i for i, m in enumerate(msgs) if m.role != "system"), len(msgs))
    if len(msgs) <= limit:
        return head
    links = pairs(history)

    def clean(s: int) -> bool:
        return not any(c < s <= r for c, r in links) and s < len(msgs)

    def may(s: int) -> bool:
        m = msgs[s]
        return m.role != "tool" and not (m.tool_calls and prof is GEMINI) and (
            prof is not USER_FIRST or m.role == "user")

    starts = [s for s in range(head, len(msgs)) if clean(s)]
    good = [s for s in starts if may(s) and head + len(msgs) - s <= limit]
    if good:
        return good[0]
    allowed = [s for s in starts if may(s)]
    if allowed:
        return allowed[-1]
    fitting = [s for s in starts if head + len(msgs) - s <= limit]
    return fitting[0] if fitting else head


@settings(max_examples=examples(40, 120), deadline=None)
@given(histories(), st.data())
def test_cut_at_every_position_keeps_pairs_system_and_start(history: History,
                                                              data: st.DataObject) -> None:
    prof = data.draw(st.sampled_from(PROFILES))
    msgs = history.messages
    head = next((i for i, m in enumerate(msgs) if m.role != "system"), len(msgs))
    for limit in range(1, len(msgs) + 2):
        out, changes = fit(history, Budget(messages=limit), prof)
        kept = out.messages
        assert kept[:head] == msgs[:head], "system prompt lost"
        start = len(msgs) - (len(kept) - head)
        assert kept[head:] == msgs[start:], "not a suffix of the conversation"
        assert not any(c < start <= r for c, r in pairs(history)), "a call split from a result"
        assert start == oracle(history, limit, prof), "not the longest window that fits"
        if start > head:
            assert changes[0].code == "window-cut" and not changes[0].lossless
        over = len(kept) > limit
        assert over == any(c.code == "window-over-budget" for c in changes)


def test_units_merge_a_call_with_wedged_messages_and_late_results() -> None:
    msgs = [Message("user", (Text("q"),)),
            *call_turn(1, 2, ids=True, split=True, wedge=True),
            Message("assistant", (Text("done"),))]
    assert units(msgs, 0) == [(0, 1), (1, 5), (5, 6)]


def test_a_reused_id_pairs_with_the_latest_call_before_the_result() -> None:
    turn = call_turn(1, 1, ids=True, split=False, wedge=False)  # id call_1_0, twice
    msgs = [Message("user", (Text("q"),)), *turn, Message("user", (Text("again"),)), *turn]
    assert units(msgs, 0) == [(0, 1), (1, 3), (3, 4), (4, 6)]


def test_no_budget_or_enough_budget_changes_nothing() -> None:
    history = History((Message("user", (Text("hi"),)), Message("assistant", (Text("yo"),))))
    assert fit(history, None, LENIENT) == (history, ())
    assert fit(history, 2, LENIENT) == (history, ())
    assert fit(history, Budget(tokens=10_000), LENIENT) == (history, ())


def test_token_budget_with_a_pluggable_counter() -> None:
    history = History(tuple(Message("user" if i % 2 == 0 else "assistant", (Text(f"m{i}"),))
                            for i in range(10)))
    out, changes = fit(history, Budget(tokens=35), USER_FIRST, counter=lambda m: 10)
    # m7.. would fit 3 messages but opens on an assistant message; m8 is the latest user start
    assert [m.text for m in out] == ["m8", "m9"]
    assert changes[0].where == "messages[0:8]"


def test_budget_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Budget(messages=0)
    with pytest.raises(TypeError, match="Budget or an int"):
        fit(History(), "20", LENIENT)  # type: ignore[arg-type]


def seed_tail_history() -> History:
    """Seed 000/001: an agentic Gemini run with many parallel calls (id-less, N results in N
    turns), then the user switches to Anthropic with a 20-message window."""
    messages: list[Message] = [Message("system", (Text("You are an agent."),))]
    for k in range(6):
        messages.append(Message("user", (Text(f"step {k}: check the cities"),)))
        messages.extend(call_turn(k, 3, ids=False, split=True, wedge=False))
        messages.append(Message("assistant", (Text(f"step {k} done"),), origin="gemini"))
    return History(tuple(messages))


def test_seed_anthropic_tail_after_a_20_message_window() -> None:
    history = seed_tail_history()
    naive = history.messages[-20:]
    assert naive[0].role == "tool", "the naive slice opens on orphan results (the seed bug)"
    for prof, opening in ((LENIENT, "assistant"), (USER_FIRST, "user"), (GEMINI, "assistant")):
        out, changes = fit(history, 20, prof)
        kept = out.messages
        assert kept[0].role == "system" and kept[1].role == opening and len(kept) <= 20
        assert not kept[1].tool_calls
        start = len(history) - len(kept) + 1
        assert not any(c < start <= r for c, r in pairs(history))
        assert [c.code for c in changes] == ["window-cut"]


def test_seed_tail_normalizes_to_a_request_anthropic_accepts() -> None:
    normalize = pytest.importorskip("normalizer.normalize").normalize
    from normalizer import check

    result = normalize(seed_tail_history(), "anthropic", budget=20)
    body = result.render()
    assert check(body, "anthropic") == ()
    assert len(body["messages"]) <= 19  # the system prompt is top-level on Anthropic


def test_estimate_is_offline_and_close_to_a_real_tokenizer() -> None:
    """Against Mistral's Tekken tokenizer, which mistral-common ships (no download)."""
    pytest.importorskip("mistral_common")
    from pathlib import Path

    import mistral_common
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    path = Path(mistral_common.__file__).parent / "data" / "tekken_240911.json"
    tekken = Tekkenizer.from_file(str(path))
    samples = [
        "An assistant message with 'tool_calls' must be followed by tool messages responding "
        "to each 'tool_call_id'. The following tool_call_ids did not have response messages.",
        '{"city": "Paris", "units": "metric", "days": 3, "include": ["wind", "rain"]}',
        "def fit(history, budget, profile, counter=None):\n    return history, ()\n",
        "메시지 윈도우 제한으로 인해 tool 체인이 불완전하게 잘릴 때",
    ]
    real = sum(len(tekken.encode(s, bos=False, eos=False)) for s in samples)
    estimate = sum(estimate_text(s) for s in samples)
    assert abs(estimate - real) / real < 0.2, (estimate, real)
    assert estimate_tokens(Message("user", (Text(samples[0]),))) > estimate_text(samples[0])

"""The collector pause around parse, normalize and render of long histories
(normalizer/collector.py): off inside, back as it was after, counted across threads."""

from __future__ import annotations

import gc
import importlib
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from normalizer import History, Message, Text, normalize, parse, render
from normalizer.collector import PAUSE_FROM, collector_paused, is_paused


@pytest.fixture(autouse=True)
def _collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_short_histories_leave_the_collector_alone() -> None:
    with collector_paused(PAUSE_FROM - 1):
        assert gc.isenabled() and not is_paused()
    assert gc.isenabled()


def test_long_histories_pause_it_and_turn_it_back_on_even_after_an_error() -> None:
    with pytest.raises(RuntimeError), collector_paused(PAUSE_FROM):
        assert not gc.isenabled() and is_paused()
        raise RuntimeError("boom")
    assert gc.isenabled() and not is_paused()


def test_a_program_can_turn_the_pause_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("normalizer.collector.PAUSE_FROM", sys.maxsize)
    with collector_paused(10**9):
        assert gc.isenabled() and not is_paused()


def test_a_collector_the_program_turned_off_stays_off() -> None:
    gc.disable()
    with collector_paused(PAUSE_FROM):
        assert not gc.isenabled()
    assert not gc.isenabled()


def test_overlapping_pauses_in_two_threads_end_with_the_last() -> None:
    inside, release, done = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def other() -> None:
        with collector_paused(PAUSE_FROM):
            inside.set()
            release.wait(10)
        done.set()

    with collector_paused(PAUSE_FROM):
        thread = threading.Thread(target=other)
        thread.start()
        assert inside.wait(10)
    seen.append(gc.isenabled())  # this thread's pause ended, the other's has not
    release.set()
    assert done.wait(10)
    thread.join(10)
    seen.append(gc.isenabled())
    assert seen == [False, True]


def _long(n: int) -> History:
    return History(tuple(Message("user" if i % 2 == 0 else "assistant", (Text(f"m{i}"),))
                         for i in range(n)))


def test_normalize_render_and_parse_run_with_the_collector_paused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each public step pauses around its own work (the state is read inside it)."""
    states: dict[str, bool] = {}
    normalize_module = sys.modules["normalizer.normalize"]
    chat = importlib.import_module("normalizer.wire.openai_chat")

    def spy(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            states[name] = gc.isenabled()
            return fn(*args, **kwargs)
        return wrapped

    monkeypatch.setattr(normalize_module, "_normalize", spy("normalize",
                                                            normalize_module._normalize))
    monkeypatch.setattr(chat, "render", spy("render", chat.render))
    monkeypatch.setattr(chat, "parse", spy("parse", chat.parse))
    history = _long(PAUSE_FROM)
    body = render(normalize(history, "openai").history, "openai_chat")
    assert len(parse(body, "openai_chat").messages) == PAUSE_FROM
    assert states == {"normalize": False, "render": False, "parse": False}
    assert gc.isenabled()
    normalize(_long(10), "openai")
    assert states["normalize"] is True

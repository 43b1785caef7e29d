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


def _in_generation(generation: int, marker: object) -> bool:
    return any(o is marker for o in gc.get_objects(generation=generation))


@pytest.fixture()
def _nothing_frozen() -> Iterator[None]:
    """This suite freezes what collection left (tests/conftest.py): thawed for the test,
    frozen again after."""
    frozen = gc.get_freeze_count()
    gc.unfreeze()
    yield
    if frozen:
        gc.freeze()


@pytest.mark.usefixtures("_nothing_frozen")
def test_what_a_pause_made_goes_to_the_oldest_generation_unexamined() -> None:
    gc.collect()  # counts at zero: no young collection of its own in the test
    before = [object()]  # young: collected (examined) when the pause begins
    assert not _in_generation(2, before)
    with collector_paused(PAUSE_FROM):
        made = [object()]
        assert not _in_generation(2, made)
        assert _in_generation(2, before)
    assert _in_generation(2, made)
    assert gc.get_freeze_count() == 0 and gc.isenabled()


@pytest.mark.usefixtures("_nothing_frozen")
def test_nothing_moves_when_the_program_keeps_objects_frozen() -> None:
    kept = [object()]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused(PAUSE_FROM):
            made = [object()]
        assert gc.get_freeze_count() == frozen  # the program's freeze is not undone
        assert not _in_generation(2, made)
        assert not _in_generation(2, kept)
    finally:
        gc.unfreeze()


@pytest.mark.usefixtures("_nothing_frozen")
def test_a_program_can_turn_the_move_off(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for name in ("collect", "freeze", "unfreeze"):
        monkeypatch.setattr(gc, name, lambda *_, _name=name: calls.append(_name))
    monkeypatch.setattr("normalizer.collector.PROMOTE", False)
    with collector_paused(PAUSE_FROM):
        assert not gc.isenabled()
    assert gc.isenabled() and calls == []
    monkeypatch.setattr("normalizer.collector.PROMOTE", True)
    with collector_paused(PAUSE_FROM):
        pass
    assert calls == ["collect", "freeze", "unfreeze"]

"""CPython's cyclic garbage collector paused while a long history is parsed, repaired or
rendered.

Why: those steps build hundreds of thousands of objects for a long history (messages,
parts, tuples, the body's dicts and lists), none of them in a reference cycle, so the
collector never finds anything of theirs to free; reference counting frees them as usual.
But the collector runs a full collection of the whole heap whenever the objects surviving
its young collections reach a quarter of the old generation, which one 100,000-message
history does: a single full collection cost 343 ms of a 1,990 ms normalize + render
(OpenAI), and a paused collector made it 21 % faster (Mistral 27 %; benchmarks/README.md,
sixth session). Below `PAUSE_FROM` messages the collector is left alone: it costs ~4 %
there, not worth touching process-wide state.

The pause is process-wide (the collector is), so it is counted across threads: the
collector is turned back on when the last pause in any thread ends, and only if it was on
when the first began. A program that turns the collector off itself while a pause is
running has it turned back on at the end of that pause. A program that wants its collector
left alone whatever the size sets `normalizer.collector.PAUSE_FROM = sys.maxsize`.

When the collector comes back, what was made during the pause is moved to the oldest
generation unexamined (`gc.freeze()` then `gc.unfreeze()`: two list splices). Otherwise the
first young collection after the pause walks every object the call left (112,890 after an
OpenAI normalize of 100,000 messages: 51-57 ms, then 80 ms for the 315,805 left by render)
only to find no cycle, and the next one walks the survivors again; reference counting frees
them either way. So that nothing the program made before the call is moved unexamined, the
young generations are collected when the first pause begins (at most a few thousand
objects). Objects other threads make during the pause are moved too: a cycle among them
waits for the next full collection. Nothing is moved while the program keeps objects frozen
itself (`gc.get_freeze_count()`, as before a fork), since unfreezing would undo that; a
freeze made in another thread between the two calls would be undone too, so a program that
freezes while other threads normalize long histories sets
`normalizer.collector.PROMOTE = False`, which turns the move off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# Messages from which the pause pays (a 10,000-message history spends ~4 % in the
# collector, a 100,000-message one 19-27 %).
PAUSE_FROM = 5_000
# Whether the objects made during a pause go to the oldest generation when it ends.
PROMOTE = True

_LOCK = threading.Lock()
_running = 0  # pauses under way, in every thread
_resume = False  # whether the collector was on when the first of them began


@contextmanager
def collector_paused(messages: int) -> Iterator[None]:
    """The collector off for the block when `messages` (the size of the history at hand)
    is at least PAUSE_FROM; on again after the last pause of the process ends."""
    if messages < PAUSE_FROM:
        yield
        return
    global _running, _resume
    if PROMOTE and _running == 0 and gc.isenabled():
        # Outside the lock: a finalizer the collection runs may normalize in turn.
        gc.collect(1)
    with _LOCK:
        if _running == 0:
            _resume = gc.isenabled()
            gc.disable()
        _running += 1
    try:
        yield
    finally:
        with _LOCK:
            _running -= 1
            if _running == 0 and _resume:
                if PROMOTE and gc.get_freeze_count() == 0:
                    gc.freeze()
                    gc.unfreeze()
                gc.enable()


def is_paused() -> bool:
    """Whether a pause is under way (tests ask)."""
    return _running > 0

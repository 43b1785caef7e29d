"""Stretches two tuples of messages hold in common, found by identity: which messages of a
new tuple a pass inherited from the last one it or another pass looked at. The pairing
index takes over the blocks of such stretches (`_blocks.pairing`); the confirming rounds
look only at the messages outside them (`rounds`).

Both work on the messages' ids (`id(m)`, as lists: `list(map(id, messages))`), which stay
theirs while the old tuple holds them.
"""

from __future__ import annotations

from itertools import compress, count, repeat
from operator import ne, sub

# How far ahead, in each tuple, a difference is looked past before every old message is
# looked up by identity (a map of the whole old tuple).
_LOOK_AHEAD = 4


def stretches(keys: list[int], old: list[int]) -> list[tuple[int, int, int]] | None:
    """(start, end, old start) of each stretch where keys[start:end] is old[old start:...]
    element for element: both walked in step, a stretch scanned in C up to the first
    difference; there, the few next places of each are tried for the two to meet again
    (messages made anew, dropped or put in: most edits between two indexed tuples), and
    only where they do not, is the message looked up in a map of every old message. A
    message found nowhere starts no stretch. Stretches need not be the longest possible,
    nor cover every message the old tuple holds (a message passed over where the two meet
    again may be an old one): each caller is right with any such cut, only slower. The map
    of a 100,000-message tuple cost more per message than that of a 10,000-message one
    (its lookups miss the caches), hence the walk. None as soon as the two have differed
    in more than one place in sixteen so far: a map of the old ones then costs less than
    a stretch every few messages."""
    n, m = len(keys), len(old)
    found: list[tuple[int, int, int]] = []
    where: dict[int, int] | None = None
    new_at, old_at = iter(keys), iter(old)
    i = j = differences = 0
    while i < n and j < m:
        differences += 1
        if differences > (i >> 4) + 16:  # one in sixteen so far: given up early, where
            return None  # many messages are new (each difference costs a few microseconds)
        new_at.__setstate__(i)  # list iterators start anywhere in O(1)
        old_at.__setstate__(j)
        same = next(compress(count(), map(ne, new_at, old_at)), min(n - i, m - j))
        if same:
            found.append((i, i + same, j))
            i, j = i + same, j + same
            if i >= n or j >= m:
                break
        i, j, where = _meet(keys, old, i, j, where)
    return found


def stretches_by_map(keys: list[int], old: list[int]) -> list[tuple[int, int, int]]:
    """What `stretches` finds, the longest stretches, with every message looked up in a map of
    the old ones (C loops: map, zip)."""
    where = dict(zip(old, range(len(old)), strict=True))
    js = list(map(where.get, keys, repeat(-2, len(keys))))
    # A stretch ends where the next message is not the next old one (new, or from elsewhere).
    ends = [i for i, step in enumerate(map(sub, js[1:], js), 1) if step != 1]
    ends.append(len(keys))
    starts = [0, *ends[:-1]]
    return [(i, i1, js[i]) for i, i1 in zip(starts, ends, strict=True) if js[i] >= 0]


def _meet(keys: list[int], old: list[int], i: int, j: int, where: dict[int, int] | None
          ) -> tuple[int, int, dict[int, int] | None]:
    """Where keys[i:] and old[j:] (which differ at their first) meet again: the nearest
    places a, b (a + b up to twice the look-ahead) with keys[i + a] is old[j + b]; else
    keys[i] looked up in `where` (made at the first need, and asked first from then on),
    or, not there, the next one."""
    n, m = len(keys), len(old)
    if where is None:
        for total in range(1, 2 * _LOOK_AHEAD + 1):
            for a in range(total + 1):
                b = total - a
                if i + a < n and j + b < m and keys[i + a] == old[j + b]:
                    return i + a, j + b, where
        where = dict(zip(old, range(m), strict=True))
    at = where.get(keys[i])
    return (i + 1, j, where) if at is None else (i, at, where)

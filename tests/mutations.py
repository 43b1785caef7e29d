"""JSON documents damaged at random, for the tests that say bad input gets a clear error or
a typed problem, never a crash: one to a few values replaced by junk, removed, wrapped in a
list, or (where `repeats`) an array entry given twice."""

from __future__ import annotations

import copy
import random
from typing import Any

JUNK = (None, 0, 1.5, True, "", "{", [], {}, [None], {"type": None}, {"type": "text"},
        {"text": 5})


def mutated(document: Any, rng: random.Random, *, most: int = 3,
            repeats: bool = False) -> Any:
    """A copy of `document` with 1 to `most` mutations at places drawn with `rng`."""
    document = copy.deepcopy(document)
    places: list[tuple[Any, Any]] = []

    def walk(value: Any) -> None:
        items = value.items() if isinstance(value, dict) else enumerate(value) \
            if isinstance(value, list) else ()
        for key, inner in list(items):
            places.append((value, key))
            walk(inner)

    walk(document)
    if not places:
        return document
    for _ in range(rng.randint(1, most)):
        parent, key = rng.choice(places)
        try:
            choice = rng.random()
            if choice < 0.5:
                parent[key] = copy.deepcopy(rng.choice(JUNK))  # a fresh copy: no cycles
            elif choice < 0.7 and isinstance(parent, dict):
                del parent[key]
            elif choice < 0.85 or not repeats:
                parent[key] = [parent[key]]
            elif isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation took the place away
    return document

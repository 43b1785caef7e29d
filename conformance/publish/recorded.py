"""The request bodies behind the matrix, read back from the cassettes each verdict was
replayed from, so the published page can show what was sent (raw vs normalized).

A result gains an optional `request` (the JSON body as recorded) when its `source` names a
cassette that can be read; results from a live run without cassettes stay as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from conformance.cassette_replay import json_body
from conformance.cassettes import read_cassette
from conformance.item import Result


def recorded_request(path: Path) -> Any:
    """The JSON body of the first interaction recorded in the cassette at `path`, or None
    when the file is missing, unreadable, or its body is not JSON."""
    try:
        data = read_cassette(path)
    except (OSError, yaml.YAMLError):
        return None
    interactions = data.get("interactions") or []
    if not interactions:
        return None
    return json_body((interactions[0].get("request") or {}).get("body"))


def with_requests(results: Iterable[Result], root: Path = Path(".")) -> list[Result]:
    """Copies of `results`, each with `request` read from its cassette (relative paths are
    taken from `root`) where it has none yet and the cassette holds a JSON body."""
    out = []
    for r in results:
        cassette = r.source.get("cassette")
        if r.request is None and cassette:
            body = recorded_request(root / cassette)
            if body is not None:
                r = replace(r, request=body)
        out.append(r)
    return out

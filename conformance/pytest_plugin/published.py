"""Whether the published matrix is what this run's scenario items say.

Replaying every cassette again just to compare the published pages cost the suite
minutes. The scenario items of a run already hold every verdict, so when a run covered
exactly the published items, the pages are rendered from its results and compared.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def published_ids(folder: Path) -> set[str] | None:
    """The item ids in `folder/strictness.json`, or None when nothing is published there."""
    path = folder / "strictness.json"
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return {r["id"] for r in data.get("results", [])}


def stale_pages(results: Sequence[Mapping[str, Any]], folder: Path, root: Path = Path(".")
                ) -> list[str] | None:
    """The published pages that differ from `results`; None when the run did not cover
    exactly the published items (a partial run proves nothing about the pages). Cassette
    paths in the results are relative to `root`."""
    from conformance.item import Result
    from conformance.publish.matrix import render_json, render_markdown, render_page, sort_results
    from conformance.publish.recorded import with_requests

    published = published_ids(folder)
    if published is None or {r["id"] for r in results} != published:
        return None
    ordered = sort_results(with_requests((Result.from_json(r) for r in results), root=root))
    fresh = {"strictness.md": render_markdown(ordered), "strictness.json": render_json(ordered),
             "strictness.html": render_page(ordered)}
    return [name for name, text in fresh.items()
            if (folder / name).read_text(encoding="utf-8") != text]

"""Whether the published matrix is what this run's scenario items say.

Replaying every cassette again just to compare the published pages cost the suite
minutes. The scenario items of a run already hold every verdict, so when a run covered
exactly the published items, the pages are rendered from its results and compared:
strictness.md and strictness.html as text, strictness.json as data (the file is parsed
anyway to read the published ids, and indenting 11 MB with the pure-Python encoder cost the
end of every run ~0.7 s; its text comes from the same document, `render_json`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


def published_ids(folder: Path) -> set[str] | None:
    """The item ids in `folder/strictness.json`, or None when nothing is published there."""
    data = _published(folder)
    return None if data is None else _ids(data)


def _published(folder: Path) -> Any:
    path = folder / "strictness.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def _ids(data: Any) -> set[str]:
    return {r["id"] for r in data.get("results", [])}


def stale_pages(results: Sequence[Mapping[str, Any]], folder: Path, root: Path = Path(".")
                ) -> list[str] | None:
    """The published pages that differ from `results`; None when the run did not cover
    exactly the published items (a partial run proves nothing about the pages). Cassette
    paths in the results are relative to `root`."""
    from conformance.item import Result
    from conformance.publish.matrix import json_document, render_markdown, render_page, sort_results
    from conformance.publish.recorded import with_requests

    published = _published(folder)
    if published is None or {r["id"] for r in results} != _ids(published):
        return None
    ordered = sort_results(with_requests((Result.from_json(r) for r in results), root=root))
    # Through JSON and back, so the comparison sees what a file would hold (lists, not tuples).
    stale = [] if json.loads(json.dumps(json_document(ordered))) == published \
        else ["strictness.json"]
    pages = {"strictness.md": render_markdown(ordered), "strictness.html": render_page(ordered)}
    return stale + [name for name, text in pages.items()
                    if (folder / name).read_text(encoding="utf-8") != text]

"""Whether the published matrix is what this run's scenario items say.

Replaying every cassette again just to compare the published pages cost the suite
minutes. The scenario items of a run already hold every verdict, so when a run covered
exactly the published items, the pages are rendered from its results and compared:
strictness.md and strictness.html as text, strictness.json as data (the file is parsed
anyway to read the published ids, and indenting 11 MB with the pure-Python encoder cost the
end of every run ~0.7 s; its text comes from the same document, `render_json`).

All of that runs after the last item, while every core but one idles. So what does not
depend on the results (the report modules, the evidence the rows are judged against, the
published file) is loaded by a `Warmup` thread from the first scenario result on.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

_MISSING = object()


class Warmup:
    """Loads, on a daemon thread, what `stale_pages` needs besides the results: the report
    modules, the evidence, the published strictness.json. `published()` waits for it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._data: Any = _MISSING
        self._thread = threading.Thread(target=self._load, name="conformance-warmup",
                                        daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            from conformance import item  # noqa: F401
            from conformance.publish import html, matrix, recorded  # noqa: F401
            from conformance.publish.backing import default_evidence

            default_evidence()
            self._data = _published(self.folder)
        except Exception:  # stale_pages reads the file again and fails there, located
            self._data = _MISSING

    def published(self) -> Any:
        """The parsed published file (None when there is none), read again if loading failed."""
        self._thread.join()
        return _published(self.folder) if self._data is _MISSING else self._data


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


def stale_pages(results: Sequence[Mapping[str, Any]], folder: Path, root: Path = Path("."),
                warmup: Warmup | None = None) -> list[str] | None:
    """The published pages that differ from `results`; None when the run did not cover
    exactly the published items (a partial run proves nothing about the pages). Cassette
    paths in the results are relative to `root`; `warmup` has loaded the rest already."""
    published = warmup.published() if warmup is not None else _published(folder)
    from conformance.item import Result
    from conformance.publish.matrix import json_document, render_markdown, render_page, sort_results
    from conformance.publish.recorded import with_requests

    if published is None or {r["id"] for r in results} != _ids(published):
        return None
    ordered = sort_results(with_requests((Result.from_json(r) for r in results), root=root))
    # Both as compact JSON text (the C encoder): equal exactly when the data are, tuples and
    # lists alike, as a file would hold them.
    stale = [] if _compact(json_document(ordered)) == _compact(published) \
        else ["strictness.json"]
    pages = {"strictness.md": render_markdown(ordered), "strictness.html": render_page(ordered)}
    return stale + [name for name, text in pages.items()
                    if (folder / name).read_text(encoding="utf-8") != text]


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

"""What a raw item is judged against when the scenarios say nothing about its provider.

The scenarios' `expect.raw` names the built-in providers. A provider added in a providers
file (a probed endpoint, a gateway, a local server) has no entry there, so its raw items are
compared with its own profile's prediction instead (`check()` with that profile: reject
when it finds a violation, else accept), and the run says so rather than failing every
item with "no expectation". A built-in provider without an entry still fails: that is a
scenario to complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from conformance.classify import Verdict
from conformance.providers import Provider
from normalizer.check import Violation

BASIS = "compared with the profile's prediction (no expectation in the scenarios)"


def compared_with_prediction(provider: Provider, expected: str | None, mode: str,
                             verdict: Verdict, predicted: Sequence[Violation]) -> str | None:
    """None when the usual judgement applies (an expectation exists, a normalized item, a
    built-in provider, or an inconclusive answer); otherwise the item's problem from
    comparing the verdict with the profile's prediction ("" when they agree)."""
    if expected is not None or mode != "raw" or provider.builtin \
            or verdict.kind == "inconclusive":
        return None
    wanted = "reject" if predicted else "accept"
    if verdict.kind == wanted:
        return ""
    why = f" ({predicted[0].rule})" if predicted else ""
    said = f" (HTTP {verdict.status}: {verdict.message})" if verdict.kind == "reject" else ""
    return f"{BASIS}: the profile predicts {wanted}{why}, got {verdict.kind}{said}"


def prediction_summary(results: Iterable[Any]) -> list[str]:
    """The run summary's line for items judged by prediction (none when there were none).
    `results` are item results or their JSON rows."""
    rows: list[Mapping[str, Any]] = [r.to_json() if hasattr(r, "to_json") else r
                                     for r in results]
    judged = [r for r in rows if r.get("mode") == "raw" and r.get("expected") is None
              and r.get("verdict") != "inconclusive"
              and not str(r.get("problem") or "").startswith("no expectation")]
    if not judged:
        return []
    differ = sum(1 for r in judged if r.get("problem"))
    providers = sorted({str(r.get("provider")) for r in judged})
    return [f"{len(judged)} raw items of {', '.join(providers)} {BASIS}; "
            f"{differ} differ from it"]

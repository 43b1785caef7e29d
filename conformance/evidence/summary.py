"""The evidence in numbers and words: observations by vendor and confidence, accept/reject,
and how far check() agrees with them (the text `conformance evidence` prints)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from conformance.evidence.agree import FAILING, Agreement
from conformance.evidence.format import CONFIDENCES
from conformance.evidence.load import EvidenceError
from normalizer.profiles import PROVIDERS


@dataclass(frozen=True, slots=True)
class Tally:
    """Counts over a set of agreements."""

    total: int
    modelled: int
    agrees: int
    gaps: int
    failing: int
    unmodelled: int
    texts_checked: int
    texts_match: int

    @property
    def percent(self) -> float:
        """The share of modelled observations check() agrees with (100 when none is modelled)."""
        return 100.0 * self.agrees / self.modelled if self.modelled else 100.0


def tally(results: Sequence[Agreement]) -> Tally:
    """Count the agreements by outcome, and the agreeing rejects whose text check() gives
    verbatim."""
    outcomes = Counter(a.outcome for a in results)
    texts = [a.text_matches for a in results if a.text_matches is not None]
    return Tally(total=len(results), modelled=len(results) - outcomes["unmodelled"],
                 agrees=outcomes["agrees"], gaps=outcomes["gap"],
                 failing=sum(outcomes[o] for o in FAILING), unmodelled=outcomes["unmodelled"],
                 texts_checked=len(texts), texts_match=sum(texts))


def vendor_order(vendors: set[str]) -> list[str]:
    """The vendors with the built-in providers first, in their order, then the others sorted."""
    return [p for p in PROVIDERS if p in vendors] + sorted(vendors - set(PROVIDERS))


def by_vendor_table(results: Sequence[Agreement]) -> list[str]:
    """One row per vendor: counts by confidence, accept/reject, and check()'s agreement."""
    head = ["vendor", *CONFIDENCES, "accept", "reject", "other", "agree", "gap", "FAIL",
            "unmodelled"]
    rows = [head]
    for vendor in vendor_order({a.observation.vendor for a in results}):
        mine = [a for a in results if a.observation.vendor == vendor]
        conf = Counter(a.observation.confidence for a in mine)
        verdict = Counter(a.observation.verdict for a in mine)
        t = tally(mine)
        rows.append([vendor, *(str(conf[c]) for c in CONFIDENCES), str(verdict["accept"]),
                     str(verdict["reject"]), str(verdict["inconclusive"]), str(t.agrees),
                     str(t.gaps), str(t.failing), str(t.unmodelled)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w)
                      in enumerate(zip(row, widths, strict=True))).rstrip() for row in rows]


def report_lines(results: Sequence[Agreement], errors: Sequence[EvidenceError],
                 *, details: bool = True) -> list[str]:
    """The text `conformance evidence` prints: the per-vendor table, the agreement counts, then
    the gaps (with `details`), the disagreements, stale gaps and unreadable files."""
    t = tally(results)
    lines = [f"{t.total} observations from {len({a.observation.vendor for a in results})} "
             f"vendors ({len(errors)} unreadable files)", "", *by_vendor_table(results), ""]
    lines.append(f"check() agrees with {t.agrees} of {t.modelled} modelled observations "
                 f"({t.percent:.0f}%); declared gaps: {t.gaps}; undeclared disagreements: "
                 f"{t.failing}; not modelled (no profile for the vendor or protocol): "
                 f"{t.unmodelled}")
    if t.texts_checked:
        lines.append(f"vendor text: check() gives the observed text verbatim for "
                     f"{t.texts_match} of {t.texts_checked} agreeing rejects")
    sections = (("declared gaps", "gap"), ("DISAGREES", "disagrees"),
                ("STALE GAP", "stale-gap"))
    for title, outcome in sections:
        found = [a for a in results if a.outcome == outcome]
        if found and (details or outcome in FAILING):
            lines += ["", f"{title} ({len(found)}):"]
            lines += [f"  {a.observation.path}: {a.why}" for a in found]
    if errors:
        lines += ["", f"unreadable ({len(errors)}):"]
        lines += [f"  {line}" for e in errors for line in e.lines()]
    return lines

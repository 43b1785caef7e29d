"""Evidence files -> Observation objects, with errors located at `path:line:col: key.path`.

Reuses the scenario loader's YAML machinery (safe parse, anchors/aliases/tags refused, pydantic
errors mapped back to lines). Every problem of a file is reported at once, and a bad file
never stops the others loading: `load_evidence` returns the good observations and the errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from conformance.classify import REJECT_STATUSES
from conformance.evidence.format import ObservationIn
from conformance.scenarios.history import Located
from conformance.scenarios.load import ScenarioError, _problem, _shown, _unique, read_mapping
from conformance.scenarios.safe_yaml import Problem

EVIDENCE_DIR = Path(__file__).resolve().parents[2] / "evidence"


class EvidenceError(ScenarioError):
    """All problems of one evidence file, each as `path:line:col: key.path: problem`."""


@dataclass(frozen=True, slots=True)
class Source:
    """Where an observation was found (see SourceIn)."""

    url: str
    repo: str | None = None
    path: str | None = None
    commit: str | None = None


@dataclass(frozen=True, slots=True)
class Observation:
    """One vendor answer to one request body (evidence/README.md)."""

    path: str  # as shown, relative to the project root where possible
    vendor: str
    protocol: str
    endpoint: str
    model: str
    date: str  # YYYY-MM-DD
    status: int
    error: str | None
    error_type: str | None
    request: Mapping[str, Any]
    reconstructed: tuple[str, ...]
    confidence: str
    source: Source
    rules: tuple[str, ...]
    notes: str
    gap: str | None = None

    @property
    def accepted(self) -> bool:
        """Whether the vendor accepted the request (a 2xx)."""
        return self.status < 300

    @property
    def verdict(self) -> str:
        """The matrix's word: 404/429/5xx say nothing about the history."""
        if self.accepted:
            return "accept"
        return "reject" if self.status in REJECT_STATUSES else "inconclusive"

    @property
    def known_model(self) -> str | None:
        """The model, or None when the file says "unknown"."""
        return None if self.model == "unknown" else self.model

    @property
    def exact(self) -> bool:
        """The request is as sent (nothing shortened or rebuilt)."""
        return not self.reconstructed


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a directory of evidence holds: the observations that loaded, and the errors."""

    observations: tuple[Observation, ...]
    errors: tuple[EvidenceError, ...]


def find_evidence(root: Path) -> list[Path]:
    """Every evidence file below `root` (`*.yaml`), sorted."""
    return sorted(p for p in root.rglob("*.yaml") if p.is_file())


def load_evidence(root: Path = EVIDENCE_DIR, *, shown_from: Path | None = None) -> Evidence:
    """Every observation below `root`; a bad file is reported and the rest still load."""
    good: list[Observation] = []
    bad: list[EvidenceError] = []
    for path in find_evidence(root):
        try:
            good.append(load_observation(path, root=shown_from or root.parent))
        except EvidenceError as exc:
            bad.append(exc)
    return Evidence(tuple(good), tuple(bad))


def load_observation(path: str | Path, *, root: Path | None = None) -> Observation:
    """Read and validate one evidence file; raises EvidenceError listing every problem."""
    path = Path(path)
    shown = _shown(path, root)
    data, located = read_mapping(path, shown, EvidenceError, "evidence")
    problems = _cross_checks(data, located, path)
    try:
        spec = ObservationIn.model_validate(data)
    except ValidationError as exc:
        problems += [_problem(err, located, ObservationIn) for err in exc.errors()]
        raise EvidenceError(shown, _unique(problems)) from None
    if problems:
        raise EvidenceError(shown, _unique(problems))
    return _observation(spec, shown)


def _cross_checks(data: Mapping[str, Any], located: Located, path: Path) -> list[Problem]:
    """Checks across fields, each located at the field to change."""
    found = []
    vendor, status = data.get("vendor"), data.get("status")
    if isinstance(vendor, str) and path.parent.name != vendor:
        found.append(Problem(*located.mark(("vendor",)), "vendor",
                             f"{vendor!r} differs from the directory {path.parent.name!r}: "
                             "an observation lives in evidence/<vendor>/"))
    if isinstance(status, int) and "error" in data and (data["error"] is None) != (status < 300):
        want = "null for a 2xx answer" if status < 300 else "the vendor's text verbatim"
        found.append(Problem(*located.mark(("error",)), "error",
                             f"status {status}: `error` must be {want}"))
    return found


def _observation(spec: ObservationIn, shown: str) -> Observation:
    src = spec.source
    return Observation(
        path=shown, vendor=spec.vendor, protocol=spec.protocol, endpoint=spec.endpoint,
        model=spec.model, date=spec.date.isoformat(), status=spec.status, error=spec.error,
        error_type=spec.error_type, request=spec.request,
        reconstructed=tuple(spec.reconstructed), confidence=spec.confidence,
        source=Source(src.url, src.repo, src.path, src.commit), rules=tuple(spec.rules),
        notes=spec.notes, gap=spec.gap)

"""Observed answers: a request body equal to an observation's request (evidence/) for the
served provider is answered with what the vendor answered, its status and verbatim text,
whatever check() predicts. Key order is ignored; the newest observation of a body wins.
Gemini names the model in the path, not the body, so there the model is part of the key.
Rebuilt bodies (placeholders) rarely match a real request, and that is fine: only bodies
as sent are meant to be replayed."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from conformance.emulator.errors import VendorError
from conformance.evidence.load import EVIDENCE_DIR, Observation, load_evidence
from normalizer.profiles import provider_for


def body_key(body: Any) -> str:
    """The canonical JSON of a request body (sorted keys, compact): the observation index's key."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# The emulator answers each connection on its own thread: the first requests of a fresh
# server come together, and each would read the whole evidence folder again (32 clients at
# once took 43 s before the lock, 0.4 s after).
_INDEX_LOCK = threading.Lock()


def _index(root: Path) -> Mapping[tuple[str, str, str], Observation]:
    """The index of `root`, read once per process, by one thread."""
    with _INDEX_LOCK:
        return _read_index(root)


@cache
def _read_index(root: Path) -> Mapping[tuple[str, str, str], Observation]:
    """(vendor, path model, canonical body) -> the newest observation of it. Unreadable files
    are left out here (`conformance evidence` reports them)."""
    found: dict[tuple[str, str, str], Observation] = {}
    for obs in sorted(load_evidence(root).observations, key=lambda o: o.date):
        in_path = obs.model.removeprefix("models/") if obs.protocol == "gemini" else ""
        found[(_served_by(obs), in_path, body_key(obs.request))] = obs
    return found


def _served_by(obs: Observation) -> str:
    """The provider that serves the observation: its vendor, or the vendor's other wire
    (DeepSeek's and xAI's Responses endpoints), as `conformance evidence` pairs them."""
    return provider_for(obs.vendor, obs.protocol) or obs.vendor


def lookup(provider: str, body: Any, path_model: str = "",
           root: Path = EVIDENCE_DIR) -> Observation | None:
    """The observation whose request equals `body` for `provider` (and, for Gemini, the
    model named in the path), if any."""
    if not root.is_dir():
        return None
    return _index(root).get((provider, path_model.removeprefix("models/"), body_key(body)))


def observed_error(obs: Observation) -> VendorError:
    """The vendor's rejection as the emulator sends it: observed status, text, type."""
    return VendorError(status=obs.status, message=obs.error or "", type=obs.error_type)

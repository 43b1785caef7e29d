"""Every answer a probe got, as evidence files in the observed-strictness format (one YAML
file per request: evidence/<vendor>/<slug>.yaml, see docs/probe.md).

Each file holds the request body as handed to the protocol's official SDK (the model in
the body for OpenAI-style and Anthropic requests, in the URL for Gemini), the status and the
vendor's verbatim error text, `confidence: recorded` and the endpoint probed as source. A
request that got no HTTP answer (connection error, timeout, the SDK refused it) is no
observation and is not written. The key is never in a body, so never in a file.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from conformance.classify import Outcome, classify
from conformance.probe.observe import Observation
from conformance.probe.profile import Probed
from conformance.sized_yaml import dump

# The path each official SDK appends to its base URL.
_PATHS = {"openai_chat": "/chat/completions", "openai_responses": "/responses",
          "anthropic": "/v1/messages", "gemini": "/v1beta/models/{model}:generateContent"}


def loopback(base_url: str) -> bool:
    """Whether the URL's host is this machine (no vendor, nothing billed)."""
    host = urlsplit(base_url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def endpoint_url(protocol: str, base_url: str, model: str) -> str:
    """The URL the SDK calls, without query string (Gemini: the model is in the path)."""
    path = _PATHS[protocol].format(model=model.removeprefix("models/"))
    return base_url.rstrip("/") + path


def evidence_files(found: Sequence[Observation], control: tuple[dict[str, Any], Outcome],
                   protocol: str, probed: Probed) -> dict[str, dict[str, Any]]:
    """A slug -> evidence mapping, for the control request and every rule request."""
    url = endpoint_url(protocol, probed.base_url, probed.model)
    local = (" Answered by a server on this machine, not by the vendor's own endpoint: "
             "evidence about that server only.") if loopback(url) else ""
    files = {"probe-control": _file(control[0], control[1], protocol, url, probed, [],
                                    "The probe's valid control request." + local)}
    for o in found:
        for n, (body, outcome) in enumerate(o.exchanges, start=1):
            role = "breaking request" if n == 1 else "later request"
            note = (f"`conformance probe` {role} for {o.rule} (request {n} of "
                    f"{len(o.exchanges)}); the rule came out {o.finding}.{local}")
            files[f"probe-{o.rule}-{n}"] = _file(body, outcome, protocol, url, probed,
                                                 [o.rule], note)
    return {slug: data for slug, data in files.items() if data}


def _file(body: dict[str, Any], outcome: Outcome, protocol: str, url: str, probed: Probed,
          rules: list[str], notes: str) -> dict[str, Any]:
    if outcome.status is None:
        return {}
    verdict = classify(outcome)
    request = dict(body) if protocol == "gemini" else {"model": probed.model, **body}
    parts = urlsplit(url)
    data: dict[str, Any] = {
        "vendor": probed.name, "protocol": protocol,
        "endpoint": f"{parts.netloc}{parts.path}", "model": probed.model,
        "date": probed.date, "status": outcome.status,
        "error": None if verdict.kind == "accept" else (verdict.message or None)}
    if verdict.error_type:
        data["error_type"] = verdict.error_type
    return {**data, "request": request, "reconstructed": [], "confidence": "recorded",
            "source": {"url": url}, "rules": rules, "notes": notes}


def write_evidence(folder: Path, files: dict[str, dict[str, Any]], vendor: str) -> list[Path]:
    """Write the files under folder/<vendor>/; returns the paths written."""
    target = folder / vendor
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for slug, data in files.items():
        path = target / f"{slug}.yaml"
        path.write_text(dump(data, sort_keys=False, allow_unicode=True, width=100),
                        encoding="utf-8")
        written.append(path)
    return written

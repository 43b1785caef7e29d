"""Cassettes: one recorded interaction per scenario × provider × mode, driven with vcrpy.

`cassettes/<provider>/<topic>/<fault>.<mode>.yaml`. Requests match on method, path and
the canonical JSON body (key order ignored). Secrets never reach a file: key headers and
the `key` query parameter are filtered, every other header or body value holding the key
is scrubbed, credentials inside a URL (user:password@, `?key=`) are replaced by
`redacted`, and `lint` finds anything key-like left. Provenance (backend, model, date,
SDK versions, base URL) is stored in the cassette's metadata and shown with every verdict.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata as pkg_metadata
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

import vcr
import yaml
from vcr.errors import CannotOverwriteExistingCassetteException, MissingMetadataError

from conformance.cassette_replay import replaying
from conformance.options import RECORD_MODES

SECRET_HEADERS = ("authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie",
                  "set-cookie", "openai-organization", "openai-project",
                  "anthropic-organization-id", "x-goog-user-project", "proxy-authorization")
KEY_LIKE = re.compile(r"(sk-(proj-|ant-)?[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{30,}|"
                      r"gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|Bearer [A-Za-z0-9._-]{20,})")
SDKS = ("openai", "anthropic", "google-genai")
# Query parameters that carry credentials in the URLs people configure (Gemini's `key`,
# Azure's SAS `sig`, generic tokens): their values never reach a file.
SECRET_PARAMS = ("key", "api_key", "apikey", "api-key", "token", "access_token", "sig",
                 "signature", "password", "secret", "auth")
REDACTED = "redacted"  # in URLs: brackets would be percent-encoded or refused as userinfo
URL_PASSWORD = re.compile(r"://[^/\s@:'\"]+:[^/\s@'\"]+@")
URL_SECRET_PARAM = re.compile(
    r"[?&](?:" + "|".join(re.escape(p) for p in SECRET_PARAMS) + r")=(?!redacted\b|\[redacted\])"
    r"[^&\s'\"]+", re.IGNORECASE)
_FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_cassette(path: Path) -> dict[str, Any]:
    """A cassette file as data (an empty mapping when it holds no mapping), read with libyaml
    where it is there (~10x the pure-Python loader)."""
    loader = _FAST_LOADER(path.read_text(encoding="utf-8"))
    try:
        data = loader.get_single_data()
    finally:
        loader.dispose()
    return data if isinstance(data, dict) else {}


def cassette_path(root: Path, provider: str, topic: str, fault: str, mode: str) -> Path:
    """The cassette of one item: `<root>/<provider>/<topic>/<fault>.<mode>.yaml`."""
    return root / provider / topic / f"{fault}.{mode}.yaml"


def canonical(body: Any) -> Any:
    """A request body as compared: parsed JSON (dict order ignored), or the raw text."""
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if isinstance(body, str):
        try:
            return json.loads(body)
        except json.JSONDecodeError:
            return body
    return body


def _canonical_body(r1: vcr.request.Request, r2: vcr.request.Request) -> None:
    if canonical(r1.body) != canonical(r2.body):
        raise AssertionError(first_difference(canonical(r1.body), canonical(r2.body)))


def first_difference(a: Any, b: Any, where: str = "body") -> str:
    """The first JSON path where two values differ, with both values, for mismatch reports."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                side = "request" if key in a else "recording"
                return f"{where}.{key}: only in the {side}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
        if len(a) != len(b):
            return f"{where}: {len(a)} items in the request, {len(b)} in the recording"
    return f"{where}: request has {_short(a)}, recording has {_short(b)}"


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def scrub_url(url: str) -> str:
    """`url` without credentials: userinfo (user:password@) and the values of SECRET_PARAMS
    become `redacted`; everything else is kept as written."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{netloc.rpartition('@')[2]}"
    query = "&".join(
        f"{name}={REDACTED}" if name.lower() in SECRET_PARAMS and sep else chunk
        for chunk in parts.query.split("&") if chunk
        for name, sep, _ in [chunk.partition("=")])
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def url_secrets(url: str) -> list[str]:
    """The credentials written inside `url` (password, user, secret query values)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return []
    # The user name is a credential only when it stands alone (https://KEY@host).
    found = [parts.password] if parts.password else [parts.username or ""]
    found += [v for k, v in parse_qsl(parts.query) if k.lower() in SECRET_PARAMS and v]
    found += [unquote(v) for v in found]
    return sorted({v for v in found if len(v) >= 4}, key=len, reverse=True)


def scrub_url_secrets(value: Any, url: str) -> Any:
    """`value` (text or JSON-able) with every credential of `url` replaced by [redacted]."""
    secrets = url_secrets(url)
    if not secrets:
        return value
    text = value if isinstance(value, str) else json.dumps(value)
    if not any(s in text for s in secrets):
        return value
    for secret in secrets:
        text = text.replace(secret, "[redacted]")
    return text if isinstance(value, str) else json.loads(text)


def _scrubber(secret: str) -> Any:
    def scrub(value: Any) -> Any:
        if not secret or len(secret) < 4:
            return value
        if isinstance(value, bytes):
            return value.replace(secret.encode(), b"[redacted]")
        if isinstance(value, str):
            return value.replace(secret, "[redacted]")
        return value
    return scrub


def make_vcr(record_mode: str, secret: str = "") -> vcr.VCR:
    """A vcrpy config that matches on method, path and canonical body and writes no secret."""
    scrub = _scrubber(secret)

    def before_request(request: vcr.request.Request) -> vcr.request.Request:
        request.body = scrub(request.body)
        request.uri = scrub_url(scrub(request.uri))
        for name in list(request.headers):
            request.headers[name] = scrub(request.headers[name])
        return request

    def before_response(response: dict[str, Any]) -> dict[str, Any]:
        headers = response.get("headers", {})
        for name in list(headers):
            if name.lower() in SECRET_HEADERS:
                del headers[name]
            else:
                headers[name] = [scrub(v) for v in headers[name]]
        body = response.get("body", {})
        if "string" in body:
            body["string"] = scrub(body["string"])
        return response

    recorder = vcr.VCR(record_mode=record_mode, match_on=("method", "path", "canonical_body"),
                       filter_headers=list(SECRET_HEADERS),
                       filter_query_parameters=list(SECRET_PARAMS),
                       decode_compressed_response=True, before_record_request=before_request,
                       before_record_response=before_response)
    recorder.register_matcher("canonical_body", _canonical_body)
    return recorder


def sdk_versions() -> dict[str, str]:
    found = {}
    for name in SDKS:
        try:
            found[name] = pkg_metadata.version(name)
        except pkg_metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def provenance(backend: str, model: str, base_url: str, today: dt.date | None = None
               ) -> dict[str, Any]:
    """The provenance stamped on a recorded cassette: backend, model, base URL (secrets
    scrubbed), date and the installed SDK versions."""
    return {"backend": backend, "model": model, "base_url": scrub_url(base_url),
            "recorded": (today or dt.date.today()).isoformat(), "sdk": sdk_versions()}


def read_provenance(path: Path) -> dict[str, Any]:
    """The provenance stored in a cassette (empty when it has none)."""
    return dict((read_cassette(path).get("metadata") or {}).get("provenance") or {})


def provenance_of(recording: vcr.cassette.Cassette) -> dict[str, Any]:
    """What `read_provenance` gives, from a cassette vcrpy has loaded (a replay then parses
    the file once, not twice)."""
    try:
        return dict(recording.get_metadata("provenance", {}) or {})
    except MissingMetadataError:  # a read-only cassette without provenance
        return {}


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A request that does not match its cassette's recording, and how they differ."""

    path: Path
    difference: str

    def explain(self, rerecord: str) -> str:
        """The one-line explanation, ending with the command that re-records the cassette."""
        return (f"{self.path}: the request does not match the recording: {self.difference}. "
                f"Re-record with: {rerecord}")


@contextmanager
def use(path: Path, record_mode: str, secret: str = "",
        stamp: Mapping[str, Any] | None = None) -> Iterator[vcr.cassette.Cassette]:
    """Replay (record_mode none) or record one cassette around a block of SDK calls.

    When the block records an interaction, the file is rewritten to hold that interaction
    alone with `stamp` as its provenance: a re-recorded cassette must never keep the date,
    base URL or backend of the answer it replaced."""
    if record_mode == "none":  # nothing is recorded, scrubbed or stamped: cassette_replay.py
        with replaying(path, _canonical_body) as cassette:
            yield cassette
        return
    recorder = make_vcr(record_mode, secret)
    before = path.read_bytes() if path.is_file() else None
    with recorder.use_cassette(str(path), allow_playback_repeats=True) as cassette:
        yield cassette
    if stamp is None:
        return
    # vcrpy writes the file only when it recorded something new; a block that sent nothing
    # (the SDK refused the body before sending) still leaves a stamped cassette with no
    # interactions, so a replay reaches the same refusal instead of "no cassette".
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(yaml.safe_dump({"interactions": [], "version": 1}), encoding="utf-8")
        _restamp(path, stamp)
    elif path.read_bytes() != before:
        _restamp(path, stamp)


def _restamp(path: Path, stamp: Mapping[str, Any]) -> None:
    """Keep only the newest interaction of a freshly recorded cassette, stamped anew."""
    data = read_cassette(path)
    interactions = data.get("interactions") or []
    data["interactions"] = interactions[-1:]
    data["metadata"] = {**(data.get("metadata") or {}), "provenance": dict(stamp)}
    path.write_text(yaml.safe_dump(data, sort_keys=True, allow_unicode=True), encoding="utf-8")


def closest_difference(path: Path, body: Any) -> str:
    """How `body` differs from the request recorded in the cassette at `path`."""
    recorded = [i["request"] for i in read_cassette(path).get("interactions", [])]
    if not recorded:
        return "the cassette holds no interaction"
    return first_difference(canonical(body), canonical(recorded[0].get("body")))


def lint(path: Path) -> list[str]:
    """Key-like strings and secret headers left in a cassette, as `path:line: what`."""
    text, problems = path.read_text(encoding="utf-8"), []
    lowered = text.lower()  # a clean file (the usual one) is told by one search of each kind:
    if not (KEY_LIKE.search(text) or URL_PASSWORD.search(text) or URL_SECRET_PARAM.search(text)
            or any(f"{h}:" in lowered for h in SECRET_HEADERS)):  # no line matches without it
        return problems
    for number, line in enumerate(text.splitlines(), start=1):
        if KEY_LIKE.search(line):
            problems.append(f"{path}:{number}: key-like string")
        if URL_PASSWORD.search(line):
            problems.append(f"{path}:{number}: password in a URL")
        if URL_SECRET_PARAM.search(line):
            problems.append(f"{path}:{number}: credential in a URL query")
        stripped = line.strip().lower()
        if any(stripped.startswith(f"{h}:") for h in SECRET_HEADERS):
            problems.append(f"{path}:{number}: secret header {stripped.split(':')[0]!r}")
    return problems


__all__ = ["RECORD_MODES", "CannotOverwriteExistingCassetteException", "Mismatch",
           "cassette_path", "closest_difference", "lint", "make_vcr", "provenance",
           "provenance_of", "read_provenance", "scrub_url", "scrub_url_secrets", "use"]

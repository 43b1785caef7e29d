"""Replaying one cassette (record mode `none`): the request still goes through the official
SDK and its HTTP client; vcrpy's patched transport answers with the recorded response.

A replay is the suite's most repeated step (one per scenario item), so it enters vcrpy
with only what a replay needs:

- no scrubbing hooks. A replay writes nothing, what it loads was scrubbed when it was
  recorded, and the hooks change neither method, path nor body, which is all it matches
  on. (vcrpy's config layer would also deep-copy every request it compares.)
- only the patchers of the HTTP libraries the SDKs send through (httpx2 here, httpx in
  other installs). vcrpy's other patchers (http.client, urllib3, requests, tornado, ...)
  cost more to enter and leave than the replayed request itself, and those of absent
  libraries retry a failing import every time. A request sent any other way reaches no
  recording: the network guard refuses it, or nothing listens, and the item fails.

A request that does not match the recording raises vcrpy's
CannotOverwriteExistingCassetteException, exactly as a replay through `cassettes.make_vcr`.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import vcr.patch
from vcr import matchers
from vcr.cassette import Cassette
from vcr.persisters.filesystem import FilesystemPersister
from vcr.record_mode import RecordMode
from vcr.serializers import yamlserializer

# The HTTP libraries the official SDKs send through.
SDK_TRANSPORTS = ("httpx", "httpx2")


@functools.cache
def skipped_patchers() -> tuple[str, ...]:
    """The patcher groups (vcrpy's names) a replay does not enter: all but those of the SDKs'
    transports that are installed."""
    kept = {n for n in SDK_TRANSPORTS if importlib.util.find_spec(n) is not None}
    return tuple(n for n in vcr.patch.PATCHER_NAMES if n not in kept)


@contextmanager
def replaying(path: Path, body_matcher: Callable[[Any, Any], None]) -> Iterator[Cassette]:
    """Replay the cassette at `path` around a block of SDK calls; requests match on method,
    path and `body_matcher` (which raises AssertionError on a difference)."""
    context = Cassette.use(
        path=str(path), serializer=yamlserializer, persister=FilesystemPersister,
        record_mode=RecordMode.NONE, match_on=(matchers.method, matchers.path, body_matcher),
        allow_playback_repeats=True, skip_patchers=skipped_patchers())
    with context as cassette:
        yield cassette


def json_body(body: Any) -> Any:
    """A recorded request body as JSON data, or None when it is not JSON."""
    if isinstance(body, bytes):
        body = body.decode("utf-8", "replace")
    if isinstance(body, dict):
        return body
    try:
        return json.loads(body) if isinstance(body, str) else None
    except json.JSONDecodeError:
        return None


def recorded_body(cassette: Cassette) -> Any:
    """The JSON body of the first request a loaded cassette holds (None when it holds none,
    or not JSON): what `publish.recorded.recorded_request` reads from the file, without
    parsing the file again."""
    requests = cassette.requests
    return json_body(requests[0].body) if requests else None

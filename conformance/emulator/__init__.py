"""Reference emulators: a loopback HTTP server that answers like the vendors do.

    from conformance.emulator import serve

    with serve(["openai", "anthropic"]) as emu:
        client = openai.OpenAI(api_key="any", base_url=emu.sdk_base_url("openai"))

One server, one port; provider P lives under `http://127.0.0.1:PORT/P`. A request is
decided by `normalizer.check(body, P)`: the first violation answers with the vendor's
status and error JSON, no violation with a small valid 200 (SSE when `stream` is set).
See docs/emulator.md.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import normalizer
from conformance.emulator.decide import Checker, Endpoint
from conformance.emulator.replay import PREFIX as REPLAY_PREFIX
from conformance.emulator.replay import Replay
from conformance.emulator.server import MAX_BODY_BYTES, EmulatorServer, Log
from normalizer.check import detectors
from normalizer.profiles import PROVIDERS, Profile, load_profile

__all__ = ["Emulator", "EmulatorServer", "Endpoint", "Replay", "endpoints_for", "serve"]

ProviderSpec = str | Path | Profile
_PREFIX = re.compile(r"^[A-Za-z0-9_.-]+$")


class Emulator(Mapping[str, str]):
    """A running emulator: provider -> base URL, plus what the SDKs want and the counts."""

    def __init__(self, server: EmulatorServer, skipped: Mapping[str, str]) -> None:
        self.server = server
        host, port = server.server_address[:2]
        self.root = f"http://{host}:{port}"
        self.skipped = dict(skipped)  # provider -> why it is not served

    def __getitem__(self, provider: str) -> str:
        if provider not in self.server.endpoints:
            reason = self.skipped.get(provider, "not requested")
            raise KeyError(f"{provider!r} is not served here ({reason})")
        return f"{self.root}/{provider}"

    def __iter__(self) -> Iterator[str]:
        return iter(self.server.endpoints)

    def __len__(self) -> int:
        return len(self.server.endpoints)

    def protocol(self, provider: str) -> str:
        """The protocol `provider` is served with (from its profile)."""
        return self.server.endpoints[provider].protocol

    def sdk_base_url(self, provider: str) -> str:
        """The `base_url` for the provider's official SDK: openai-style SDKs put `/v1` in
        the base URL; anthropic and google-genai add their version to the path themselves."""
        url = self[provider]
        return f"{url}/v1" if self.protocol(provider).startswith("openai") else url

    def replay_url(self, name: str, protocol: str) -> str:
        """The SDK `base_url` of a replay (same `/v1` rule as sdk_base_url)."""
        if name not in self.server.replays:
            raise KeyError(f"no replay {name!r} here")
        url = f"{self.root}/{REPLAY_PREFIX}/{name}"
        return f"{url}/v1" if protocol.startswith("openai") else url

    @property
    def stats(self) -> dict[tuple[str, int], int]:
        """(provider, status) -> number of requests answered so far."""
        return dict(self.server.stats)


def endpoints_for(
    providers: ProviderSpec | Iterable[ProviderSpec] | None, *, check_detectors: bool = True
) -> tuple[dict[str, Endpoint], dict[str, str]]:
    """The providers to serve and, when `providers` is None (every built-in one), those
    skipped with the reason (no profile yet, no detectors yet). A provider asked for by name
    that cannot be served raises."""
    if isinstance(providers, (str, Path, Profile)):
        providers = [providers]  # one provider, not the letters of its name
    wanted: Iterable[ProviderSpec] = PROVIDERS if providers is None else providers
    served: dict[str, Endpoint] = {}
    skipped: dict[str, str] = {}
    for spec in wanted:
        try:
            endpoint = _endpoint(spec, check_detectors)
        except (normalizer.NormalizerError, LookupError, ImportError, OSError) as exc:
            if providers is not None:
                raise
            skipped[str(spec)] = f"{type(exc).__name__}: {exc}"
            continue
        served[endpoint.provider] = endpoint
    return served, skipped


def _endpoint(spec: ProviderSpec, check_detectors: bool) -> Endpoint:
    profile = load_profile(spec)
    if not _PREFIX.match(profile.provider):
        raise ValueError(f"provider name {profile.provider!r} cannot be a URL path prefix")
    if check_detectors:
        table = detectors(profile.protocol)
        missing = [r.id for r in profile.rules if r.enforced and r.id not in table]
        if missing:
            raise LookupError(f"no detector in normalizer/checks/{profile.protocol}.py for "
                              f"{missing}")
    return Endpoint.of(profile)


@contextmanager
def serve(
    providers: ProviderSpec | Iterable[ProviderSpec] | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    checker: Checker | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    log: Log | None = None,
    replays: Mapping[str, Replay] | None = None,
) -> Iterator[Emulator]:
    """Start the emulator in this process (port 0: any free port) and yield it; it is
    stopped, with every connection closed and thread joined, when the block ends.
    `checker` replaces normalizer.check (tests of the emulator itself). `replays` (name ->
    Replay) are recorded streams served under `/_replay/<name>` (`Emulator.replay_url`)."""
    served, skipped = endpoints_for(providers, check_detectors=checker is None)
    server = EmulatorServer((host, port), served, checker or normalizer.check,
                            max_body_bytes=max_body_bytes, log=log, replays=replays)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              name="emulator", daemon=True)
    thread.start()
    try:
        yield Emulator(server, skipped)
    finally:
        server.close()
        thread.join()

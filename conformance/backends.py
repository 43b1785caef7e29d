"""Backends: where a request goes — `live` (the vendor), `cassette` (vcrpy replay) or
`emulator` (our loopback server) — and `auto`, which picks per item: live where the key is
set and live runs were asked for, else the cassette where one exists, else the emulator.
A keyless provider (ollama, vllm, a user entry without `api_key_env`) runs live when asked
for explicitly (`--backend live`), never by `auto`: nothing says its server is up.

Each backend sends through `clients.send` and returns the Outcome with its `source`:
the backend that answered, and the cassette's provenance where there is one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from conformance import cassettes
from conformance.cassette_replay import recorded_body
from conformance.cassettes import scrub_url_secrets
from conformance.classify import Outcome
from conformance.clients import close_clients, send
from conformance.providers import Provider

PLACEHOLDER_KEY = "conformance-offline-placeholder"
LIVE_ATTEMPTS = 4
RETRY_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504, 529})


def retryable(outcome: Outcome) -> bool:
    """Answers that say nothing about the history, worth another try in live mode."""
    if outcome.failure in {"timeout", "connection"}:
        return True
    return outcome.status in RETRY_STATUSES


def backoff_seconds(tries: int, retry_after: float | None) -> float:
    """1, 2, 4 s, or the vendor's Retry-After (capped at 60 s) when it gave one."""
    if retry_after is not None:
        return min(60.0, retry_after)
    return float(2 ** (tries - 1))


@dataclass(frozen=True, slots=True)
class Sent:
    """What a backend gave back: the Outcome, and its source (the backend that answered, the
    cassette and its provenance where there is one, the live attempts)."""

    outcome: Outcome
    source: dict[str, Any]
    recorded: Any = None  # a replay's recorded request body (JSON), for reports that show it


@dataclass
class Backends:
    """Resolves and runs the backend of each item. The emulator starts on first use."""

    choice: str = "auto"
    cassette_root: Path = Path("cassettes")
    record_mode: str = "none"
    live: bool = False
    providers: list[Provider] = field(default_factory=list)
    sleep: Callable[[float], None] = time.sleep
    _stack: ExitStack = field(default_factory=ExitStack)
    _emulator: Any = None

    def resolve(self, provider: Provider, cassette: Path) -> str:
        """The backend an item of `provider` goes to: the chosen one; for `auto`, live when live
        runs were asked for and the provider has its own key, else the cassette when `cassette`
        exists, else the emulator."""
        if self.choice != "auto":
            return self.choice
        if self.live and provider.has_own_key():
            return "live"
        if cassette.is_file():
            return "cassette"
        return "emulator"

    def send(self, provider: Provider, cassette: Path, body: dict[str, Any], model: str) -> Sent:
        """Send `body` for `model` to the item's backend; the outcome (credentials of the
        provider's base URL scrubbed from it) and its source."""
        sent = self._send(provider, cassette, body, model)
        # Credentials inside the base URL (user:password@, ?key=) never reach a result.
        outcome = sent.outcome
        return Sent(replace(outcome, body=scrub_url_secrets(outcome.body, provider.base_url),
                            detail=scrub_url_secrets(outcome.detail, provider.base_url)),
                    sent.source, sent.recorded)

    def _send(self, provider: Provider, cassette: Path, body: dict[str, Any], model: str) -> Sent:
        backend = self.resolve(provider, cassette)
        if backend == "emulator":
            return self._emulated(provider, body, model, cassette)
        if backend == "cassette":
            return self._replayed(provider, cassette, body, model)
        return self._live(provider, cassette, body, model)

    def _emulated(self, provider: Provider, body: dict[str, Any], model: str,
                  cassette: Path) -> Sent:
        base_url = self.emulator_base_url(provider)
        if self.record_mode == "none":
            outcome = send(provider.protocol, base_url=base_url, api_key=PLACEHOLDER_KEY,
                           model=model, body=body)
            return Sent(outcome, {"backend": "emulator"})
        stamp = cassettes.provenance("emulator", model, base_url)
        with cassettes.use(cassette, self.record_mode, PLACEHOLDER_KEY, stamp):
            outcome = send(provider.protocol, base_url=base_url, api_key=PLACEHOLDER_KEY,
                           model=model, body=body)
        return Sent(outcome, {"backend": "emulator", "recorded": str(cassette),
                              "provenance": stamp})

    def _replayed(self, provider: Provider, cassette: Path, body: dict[str, Any],
                  model: str) -> Sent:
        if not cassette.is_file():
            return Sent(Outcome(None, failure="no-cassette", detail=f"{cassette} does not exist; "
                                f"record it with: conformance record --provider {provider.name}"),
                        {"backend": "cassette", "cassette": str(cassette)})
        with cassettes.use(cassette, "none") as recording:
            stamp = cassettes.provenance_of(recording)
            recorded = recorded_body(recording)
            outcome = send(provider.protocol, base_url=stamp.get("base_url") or provider.base_url,
                           api_key=PLACEHOLDER_KEY, model=model, body=body)
        if outcome.failure == "cassette-mismatch":  # vcrpy's exception, mapped by type
            difference = cassettes.closest_difference(cassette, body)
            outcome = Outcome(None, failure="cassette-mismatch", detail=cassettes.Mismatch(
                cassette, difference).explain(f"conformance record --provider {provider.name}"))
        return Sent(outcome, {"backend": "cassette", "cassette": str(cassette),
                              "provenance": stamp}, recorded)

    def _live(self, provider: Provider, cassette: Path, body: dict[str, Any], model: str) -> Sent:
        key = provider.api_key()
        if key is None:
            return Sent(Outcome(None, failure="no-key",
                                detail=f"{provider.api_key_env or 'no key variable'} is not set"),
                        {"backend": "live"})
        stamp = cassettes.provenance("live", model, provider.base_url)
        tries = 0
        while True:
            tries += 1
            outcome = self._live_once(provider, key, model, body, cassette, stamp)
            if tries >= LIVE_ATTEMPTS or not retryable(outcome):
                break
            self.sleep(backoff_seconds(tries, outcome.retry_after))
        source = {"backend": "live", "provenance": stamp, "attempts": tries}
        if self.record_mode != "none":
            source["recorded"] = str(cassette)
        return Sent(outcome, source)

    def _live_once(self, provider: Provider, key: str, model: str, body: dict[str, Any],
                   cassette: Path, stamp: dict[str, Any]) -> Outcome:
        """One live request; when recording, the cassette keeps only this attempt (a
        cassette holds one interaction, so an earlier 429 must not be replayed)."""
        if self.record_mode == "none":
            return send(provider.protocol, base_url=provider.base_url, api_key=key,
                        model=model, body=body)
        if self.record_mode == "all":
            cassette.unlink(missing_ok=True)
        with cassettes.use(cassette, self.record_mode, key, stamp):
            return send(provider.protocol, base_url=provider.base_url, api_key=key,
                        model=model, body=body)

    def emulator_base_url(self, provider: Provider) -> str:
        """Start the emulator once, serving every provider of the run by its profile."""
        from conformance.emulator import serve

        if self._emulator is None:
            profiles = {p.load_profile().provider: p.load_profile()
                        for p in [*self.providers, provider]}
            self._emulator = self._stack.enter_context(serve(list(profiles.values())))
        return self._emulator.sdk_base_url(provider.load_profile().provider)

    def close(self) -> None:
        """Close the SDK clients and stop the emulator if it was started."""
        close_clients()
        self._stack.close()
        self._stack = ExitStack()
        self._emulator = None

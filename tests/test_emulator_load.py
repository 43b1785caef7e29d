"""Bounded loopback load: 2,000 requests from 32 concurrent clients across every served
provider; every answer is the status check() predicts (200 or the intended 4xx), nothing
fails, and no thread or socket outlives the server."""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path

import pytest

from conformance.emulator import serve
from conformance.probe.cases import RULES_DIR

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import emulator_load as load  # benchmark support, not part of the package

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)
REQUESTS = 2_000
CLIENTS = 32


def test_load_2000_requests_32_clients_no_leaks() -> None:
    gc.collect()
    # Compared as sets: threads or fds of other tests' servers that end meanwhile (idle
    # keep-alive timeouts) must not count, only ones this run left behind.
    threads_before, fds_before = set(threading.enumerate()), load.open_fd_set()
    with serve() as emu:
        jobs = load.jobs_for(emu, CASES)
        if not jobs:
            pytest.skip("no served provider has rule cases yet")
        result = load.run(emu, jobs, requests=REQUESTS, clients=CLIENTS)
    stats = emu.stats  # read once every handler thread has been joined
    gc.collect()
    assert result.failures == []
    assert result.mismatches == []
    assert sum(result.statuses.values()) == REQUESTS
    assert set(result.statuses) <= {200, 400, 404, 422}
    assert 200 in result.statuses and len(result.statuses) > 1  # accepts and rejects both ran
    assert sum(stats.values()) == REQUESTS
    # bounded: one handler per client connection, plus the serve loop and the sampler
    assert result.peak_threads <= len(threads_before) + 2 * CLIENTS + 2
    assert set(threading.enumerate()) - threads_before == set()
    assert load.open_fd_set() - fds_before == set()

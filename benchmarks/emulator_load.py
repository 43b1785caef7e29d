"""Loopback load on the emulator: `python benchmarks/emulator_load.py [REQUESTS] [CLIENTS]`.

Serves every built-in provider that has a profile, replays the accept and reject bodies of
the rule cases (conformance/probe/cases/rules/) from concurrent keep-alive clients, and
prints the figures: throughput, statuses, answers check() did not predict, connection
failures, and the thread and file-descriptor counts before, at the peak and after (equal
before and after: nothing leaked).

Also the library tests/test_emulator_load.py uses: a bounded run of N requests from C
concurrent keep-alive clients, each answer compared with the status check() predicts, plus
the thread and file-descriptor counts that show nothing leaks. (It moved here from
conformance/emulator/: it is benchmark and test support, not part of the emulator.)
"""

from __future__ import annotations

import gc
import http.client
import json
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import normalizer
from conformance.emulator import Emulator, serve
from conformance.probe.cases import RULES_DIR
from conformance.sized_yaml import safe_load  # the rule cases write long base64 short

GEMINI_MODEL = "gemini-2.5-flash"
_PATHS = {"openai_chat": "/v1/chat/completions", "openai_responses": "/v1/responses",
          "anthropic": "/v1/messages"}
_HEADERS = {"content-type": "application/json", "anthropic-version": "2023-06-01",
            "authorization": "Bearer load-test-key"}


@dataclass(frozen=True, slots=True)
class Job:
    provider: str
    path: str
    body: bytes
    expected: int  # the status check() predicts


@dataclass(slots=True)
class LoadResult:
    requests: int = 0
    seconds: float = 0.0
    statuses: Counter[int] = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)  # answers check() did not predict
    failures: list[str] = field(default_factory=list)  # connection errors, bad JSON
    peak_threads: int = 0  # this process, clients and server together
    peak_fds: int = 0

    @property
    def per_second(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def open_fd_set() -> frozenset[int]:
    """The open file descriptors of this process (Linux /proc; empty where unavailable)."""
    try:
        return frozenset(int(fd) for fd in os.listdir("/proc/self/fd"))
    except OSError:
        return frozenset()


def open_fds() -> int:
    return len(open_fd_set())



# The load is many requests at once, not large ones: a body past this (Anthropic's
# image-too-large case, 10 MB of base64) is left out; the rule tests send it.
MAX_JOB_BYTES = 1024 * 1024


def jobs_for(emu: Emulator, cases_dir: Path) -> list[Job]:
    """Accept and reject bodies for every served provider from the rule cases in
    `cases_dir` (`<provider>.yaml`), with streaming variants of the accepted ones; bodies
    over MAX_JOB_BYTES are left out."""
    jobs: list[Job] = []
    for provider in emu:
        path = cases_dir / f"{provider}.yaml"
        cases = safe_load(path.read_text(encoding="utf-8")) if path.is_file() else []
        for case in cases or ():
            for key in ("reject", "accept"):
                jobs.extend(_jobs(emu, provider, case[key], case.get("model"), key == "accept"))
    return jobs


def _jobs(emu: Emulator, provider: str, body: Mapping[str, Any], model: str | None,
          stream_too: bool) -> list[Job]:
    protocol = emu.protocol(provider)
    model = model or (GEMINI_MODEL if protocol == "gemini" else None)
    found = normalizer.check(body, provider, model=model)
    expected = found[0].status if found else 200
    prefix = f"/{provider}"
    if protocol == "gemini":
        base = f"{prefix}/v1beta/models/{model}:"
        variants = [(base + "generateContent", body)]
        if stream_too:
            variants.append((base + "streamGenerateContent?alt=sse", body))
    else:
        variants = [(prefix + _PATHS[protocol], body)]
        if stream_too:
            variants.append((prefix + _PATHS[protocol], {**body, "stream": True}))
    encoded = [(path, json.dumps(b).encode()) for path, b in variants]
    return [Job(provider, path, data, expected) for path, data in encoded
            if len(data) <= MAX_JOB_BYTES]


def run(emu: Emulator, jobs: Sequence[Job], *, requests: int, clients: int) -> LoadResult:
    """Send `requests` requests (cycling through `jobs`) from `clients` threads, each over
    its own keep-alive connection."""
    result = LoadResult(requests=requests)
    lock = threading.Lock()
    shares = [range(c, requests, clients) for c in range(clients)]
    host = emu.root.removeprefix("http://")
    threads = [threading.Thread(target=_client, args=(host, jobs, share, result, lock))
               for share in shares]
    done = threading.Event()
    sampler = threading.Thread(target=_sample, args=(result, done))
    start = time.perf_counter()
    sampler.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return result


def _sample(result: LoadResult, done: threading.Event) -> None:
    """Peak threads and fds while the clients run (every 10 ms)."""
    while not done.wait(0.01):
        result.peak_threads = max(result.peak_threads, threading.active_count())
        result.peak_fds = max(result.peak_fds, open_fds())


def _client(host: str, jobs: Sequence[Job], share: range, result: LoadResult,
            lock: threading.Lock) -> None:
    conn = http.client.HTTPConnection(host, timeout=60)
    served = 0  # answers received on the current connection
    try:
        for n in share:
            job = jobs[n % len(jobs)]
            outcome = _one(conn, job)
            if isinstance(outcome, str) and served:
                # The server may close a kept-alive connection between two requests (its
                # idle timeout, under CPU load); like the SDKs' HTTP clients, send again
                # once on a new connection. A failure there is counted.
                served = 0
                outcome = _one(conn, job)
            served = 0 if isinstance(outcome, str) else served + 1
            with lock:
                if isinstance(outcome, str):
                    result.failures.append(outcome)
                    continue
                result.statuses[outcome] += 1
                if outcome != job.expected:
                    result.mismatches.append(f"{job.provider} {job.path}: {outcome} "
                                             f"(check() predicts {job.expected})")
    finally:
        conn.close()


def _one(conn: http.client.HTTPConnection, job: Job) -> int | str:
    try:
        conn.request("POST", job.path, body=job.body, headers=_HEADERS)
        answer = conn.getresponse()
        data = answer.read()
    except (OSError, http.client.HTTPException) as exc:
        conn.close()  # reconnects on the next request
        return f"{job.provider} {job.path}: {type(exc).__name__}: {exc}"
    if answer.getheader("content-type", "").startswith("application/json"):
        try:
            json.loads(data)
        except ValueError:
            return f"{job.provider} {job.path}: answer is not JSON"
    return answer.status


CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)


def main(argv: list[str]) -> int:
    requests = int(argv[0]) if argv else 2_000
    clients = int(argv[1]) if len(argv) > 1 else 32
    gc.collect()
    before = (threading.active_count(), open_fds())
    with serve() as emu:
        jobs = jobs_for(emu, CASES)
        if not jobs:
            print("no served provider has rule cases", file=sys.stderr)
            return 1
        result = run(emu, jobs, requests=requests, clients=clients)
    gc.collect()
    after = (threading.active_count(), open_fds())
    print(f"providers: {len(emu)} ({', '.join(emu)}); distinct bodies: {len(jobs)}")
    print(f"requests: {result.requests} from {clients} clients in {result.seconds:.2f} s "
          f"({result.per_second:.0f}/s)")
    print(f"statuses: {dict(sorted(result.statuses.items()))}")
    print(f"unpredicted answers: {len(result.mismatches)}; failures: {len(result.failures)}")
    print(f"threads before/peak/after: {before[0]}/{result.peak_threads}/{after[0]}; "
          f"fds before/peak/after: {before[1]}/{result.peak_fds}/{after[1]}")
    for line in (result.mismatches + result.failures)[:10]:
        print("  " + line)
    clean = not result.mismatches and not result.failures and before == after
    return 0 if clean else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

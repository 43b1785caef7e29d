"""Loopback load on the emulator: `python benchmarks/emulator_load.py [REQUESTS] [CLIENTS]`.

Serves every built-in provider that has a profile, replays the accept and reject bodies of
the rule cases (conformance/probe/cases/rules/) from concurrent keep-alive clients, and
prints the figures: throughput, statuses, answers check() did not predict, connection
failures, and the thread and file-descriptor counts before, at the peak and after (equal
before and after: nothing leaked).
"""

from __future__ import annotations

import gc
import sys
import threading

from conformance.emulator import load, serve
from conformance.probe.cases import RULES_DIR

CASES = RULES_DIR  # the rule cases: conformance/probe/cases/rules (the one copy)


def main(argv: list[str]) -> int:
    requests = int(argv[0]) if argv else 2_000
    clients = int(argv[1]) if len(argv) > 1 else 32
    gc.collect()
    before = (threading.active_count(), load.open_fds())
    with serve() as emu:
        jobs = load.jobs_for(emu, CASES)
        if not jobs:
            print("no served provider has rule cases", file=sys.stderr)
            return 1
        result = load.run(emu, jobs, requests=requests, clients=clients)
    gc.collect()
    after = (threading.active_count(), load.open_fds())
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

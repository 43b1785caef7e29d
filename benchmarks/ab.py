"""Before and after: one commit's normalizer against the working tree's, on the same inputs.

    python benchmarks/ab.py REV [--providers openai,mistral] [--sizes 1000,10000]
                                [--step normalize|check|parse] [--rounds 3] [--repeat 7]

For speed work, where the change is smaller than the host's own drift: this machine's
speed moved by half within an hour in the sixth session, so two timings taken minutes apart
cannot tell a 5 % change. Here REV's `normalizer` (exported with `git archive` into a
temporary folder) and the working tree's run in alternating child processes, `--rounds`
times each, every child timing `--repeat` runs of the step on a fresh copy of the same
deterministic history (benchmarks/histories.py) and reporting its median CPU time; a cell
is the median of those medians, and the best columns the fastest child of each side. On
this host a fresh process runs the same code either at full speed or about twice as slow
(the twenty-fifth session measured 9.7 and 18 ms for one normalize), at random, so with few
rounds the medians can land in different modes and swing 0.6-1.9 for unchanged code; the
fastest child of each side is the truer comparison once each side has had enough children
to reach the fast mode (`--rounds 8`: 0.998 and 1.000 for unchanged output,
benchmarks/README.md). Each child also digests its output (the
body, the changes and the maps; the violations; the parsed history rendered back), so the
table says whether the change moved any output. Timings are CPU time of the step alone, as
normalize_bench's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What a child runs: the tree it is given goes first on sys.path, so `normalizer` (and the
# benchmark's history generator) come from there; prints {"ms": median, "digest": ...}.
CHILD = r'''
import dataclasses, gc, hashlib, json, statistics, sys, time
tree, step, provider = sys.argv[1:4]
size, repeat = int(sys.argv[4]), int(sys.argv[5])
sys.path[:0] = [tree, tree + "/benchmarks"]
from histories import SEED, TOOLS, generate
from normalizer import History, Message, check, parse, render
from normalizer.normalize import normalize
from normalizer.profiles import load_profile
from normalizer.model import thaw
protocol = load_profile(provider).protocol
history, _ = generate(size, SEED)
def fresh():
    return History(tuple(Message(m.role, m.parts, m.origin, m.extras) for m in history.messages),
                   history.extras)
def digest(value):
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
if step == "normalize":
    def run(h):
        out = normalize(h, provider, tools=TOOLS)
        return out, out.render()
    def seal(result):
        out, body = result
        # Not the model: bodies name the provider's model since the twenty-eighth session,
        # the protocol's before; the comparison is of what the passes made.
        body = {k: v for k, v in body.items() if k != "model"}
        return [body, [dataclasses.astuple(c) for c in out.changes], thaw(out.id_map),
                thaw(out.name_map)]
elif step == "check":
    body = render(history, protocol, tools=TOOLS)
    def run(h):
        return check(body, provider)
    def seal(found):
        return [[getattr(v, f.name) for f in dataclasses.fields(v)] for v in found]
else:
    body = render(history, protocol, tools=TOOLS)
    def run(h):
        return parse(body, protocol)
    def seal(parsed):
        return render(parsed, protocol, tools=TOOLS)
result = run(fresh())
times = []
for _ in range(repeat):
    copy = fresh()
    gc.collect()
    start = time.process_time()
    run(copy)
    times.append(time.process_time() - start)
print(json.dumps({"ms": 1e3 * statistics.median(times), "digest": digest(seal(result))}))
'''


def export(rev: str, into: Path) -> Path:
    """REV's tracked files under `into` (git archive: nothing in the repository changes)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def child(tree: Path, step: str, provider: str, size: int, repeat: int) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tree), step, provider, str(size),
                           str(repeat)], capture_output=True, text=True, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"{tree.name}: {step} {provider} {size} failed: {tail[0]}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", help="the commit to compare the working tree with")
    parser.add_argument("--providers", default="openai,mistral")
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--step", choices=("normalize", "check", "parse"), default="normalize")
    parser.add_argument("--rounds", type=int, default=3, help="child processes per side")
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per child")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        before = export(args.rev, Path(tmp) / "before")
        print(f"{args.step}: {args.rev} against the working tree; median of {args.rounds} "
              f"alternating child processes, each the median of {args.repeat} runs (CPU)\n")
        print("| provider | messages | before ms | after ms | after / before "
              "| best before | best after | best after / before | output |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for provider in args.providers.split(","):
            for size in map(int, args.sizes.split(",")):
                runs: dict[str, list[dict[str, object]]] = {"before": [], "after": []}
                for _ in range(args.rounds):
                    runs["before"].append(child(before, args.step, provider, size, args.repeat))
                    runs["after"].append(child(ROOT, args.step, provider, size, args.repeat))
                times = {side: [float(r["ms"]) for r in rs]  # type: ignore[arg-type]
                         for side, rs in runs.items()}
                ms = {side: statistics.median(ts) for side, ts in times.items()}
                best = {side: min(ts) for side, ts in times.items()}
                same = {r["digest"] for rs in runs.values() for r in rs}
                print(f"| {provider} | {size:,} | {ms['before']:.1f} | {ms['after']:.1f} | "
                      f"{ms['after'] / ms['before']:.3f} | {best['before']:.1f} | "
                      f"{best['after']:.1f} | {best['after'] / best['before']:.3f} | "
                      f"{'identical' if len(same) == 1 else 'DIFFERS'} |", flush=True)


if __name__ == "__main__":
    main()

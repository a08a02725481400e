#!/usr/bin/env python3
"""The model's fork-to-fork noise from raw/*.json (JMH's own output), as README.md shows it.

A: every fork calibrates its own CPU work (what the lab does); B: the run's one ns per token given
to every fork (-Dlab.work.nsPerToken, raw/ns-per-token.txt). A fork's figure is the mean of its
measured iterations (ns per op per thread). Three invocations of four forks per configuration,
interleaved A B A B A B, about a minute each."""
import glob, json, os, statistics
from collections import defaultdict
here = os.path.dirname(os.path.abspath(__file__))
forks = defaultdict(dict)  # (bench, variant, cfg) -> rep -> fork means
for f in sorted(glob.glob(os.path.join(here, "raw", "*-[AB]-[0-9].json"))):
    bench, cfg, rep = os.path.basename(f)[:-5].split("-")
    for r in json.load(open(f)):
        forks[(bench, r["params"]["variant"], cfg)][int(rep)] = [statistics.mean(k) for k in r["primaryMetric"]["rawData"]]
cv = lambda x: 100 * statistics.stdev(x) / statistics.mean(x)
print("Each invocation's fork means (ns per op per thread):\n")
print("| benchmark | variant | config | invocation 1 | invocation 2 | invocation 3 |\n|---|---|---|---|---|---|")
for k in sorted(forks):
    print(f"| {k[0]} | `{k[1]}` | {k[2]} | " + " | ".join(" ".join(f"{m:.0f}" for m in forks[k][r]) for r in sorted(forks[k])) + " |")
print("\nFork-to-fork CV within each invocation (the forks of one invocation run back to back), and over all 12 forks:\n")
print("| benchmark | variant | config | within: invocation 1, 2, 3 | within: mean | all 12 forks | invocations' means, ns |")
print("|---|---|---|---|---:|---:|---|")
for k in sorted(forks):
    w = [cv(forks[k][r]) for r in sorted(forks[k])]
    allf = [m for r in sorted(forks[k]) for m in forks[k][r]]
    print(f"| {k[0]} | `{k[1]}` | {k[2]} | " + ", ".join(f"{x:.2f}%" for x in w) + f" | {statistics.mean(w):.2f}% | {cv(allf):.2f}% | "
          + ", ".join(f"{statistics.mean(forks[k][r]):.0f}" for r in sorted(forks[k])) + " |")

#!/usr/bin/env python3
"""The raw thin model's fork-to-fork CV before and after DirectMap, from raw/page-memory/*.json (JMH's
own output), as README.md shows it. A fork's figure is the mean of its measured iterations (ns per op,
one thread); within-fork CV is the mean over forks of the iterations' CV."""
import glob, json, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
cv = lambda x: 100 * statistics.stdev(x) / statistics.mean(x)
print("| page memory | invocation | target | variant | fork means, ns per op | fork CV | within-fork CV |")
print("|---|---|---|---|---|---:|---:|")
for tag in ("before", "after"):
    for f in sorted(glob.glob(os.path.join(here, "raw", "page-memory", tag + "-*.json"))):
        name = os.path.basename(f)[:-5].split("-", 1)[1]
        for r in json.load(open(f)):
            raw = r["primaryMetric"]["rawData"]
            forks = [statistics.mean(k) for k in raw]
            print(f"| {tag} | {name} | {r['params']['target']} | `{r['params']['variant']}` | " + " ".join(f"{m:.0f}" for m in forks)
                  + f" | {cv(forks):.1f}% | {statistics.mean(cv(k) for k in raw):.1f}% |")

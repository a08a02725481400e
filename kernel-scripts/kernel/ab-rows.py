#!/usr/bin/env python3
"""kernel/ab-rows.py ab|over OUTDIR: the rows of a lab-kernel run, from the trials the guest left.

ab   (kernel/ab-guest.sh's OUTDIR/ab/trials.tsv): OUTDIR/lab-ab.tsv and OUTDIR/lab-iter.tsv; a
     trial's boot (1 where trials.tsv has no boot column) is the last column of lab-ab.tsv.
     Where the guest traced trials under perf lock (ab/traced.tsv), also OUTDIR/lab-lock.tsv, one
     line a traced trial (its I/Os, the switch's operations, and its perf lock contention table,
     copied to OUTDIR/lock/, which the notebook parses); and where it traced under perf c2c, each
     report copied to OUTDIR/c2c/.
over (kernel/overhead.sh's OUTDIR/overhead/trials.tsv): OUTDIR/overhead.tsv.

Per trial: fio's JSON (I/Os of every job, reads and writes, and the runtime), perf stat's CSV
(task-clock, ns: the fio command's CPU), the switch's counter before and after (ab), and fio's
IOPS logs (every job's, per 250 ms window, summed over jobs and directions per window: the A/A's
iterations). Nothing here judges: the notebook does.
"""
import csv
import glob
import json
import os
import shutil
import sys


def fio_ios(path):
    with open(path) as f:
        j = json.load(f)
    ios = 0
    runtime_ms = 0
    for job in j["jobs"]:
        # per direction: a group's job_runtime sums its jobs' (2 jobs of 1 s: 2000), runtime does not
        for d in ("read", "write", "trim"):
            ios += job.get(d, {}).get("total_ios", 0)
            runtime_ms = max(runtime_ms, job.get(d, {}).get("runtime", 0))
    return ios, runtime_ms / 1000.0


def fio_jobs(path):
    """numjobs (group_reporting folds the jobs into one entry whose options keep the count)."""
    with open(path) as f:
        j = json.load(f)["jobs"]
    return int(j[0].get("job options", {}).get("numjobs", len(j)))


def task_clock_ns(path):
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) > 2 and parts[2].startswith("task-clock"):
                return float(parts[0]) * 1e6  # msec
    raise SystemExit(f"ab-rows: no task-clock in {path}")


def iterations(prefix):
    windows = {}
    for log in sorted(glob.glob(prefix + "_iops.*.log")):
        with open(log) as f:
            for line in f:
                parts = [p.strip() for p in line.split(",")]
                if len(parts) < 2 or not parts[0]:
                    continue
                w = int(round(int(parts[0]) / 250.0))
                windows[w] = windows.get(w, 0) + int(parts[1])
    # the first and last windows are partial (start-up, the runtime's cut): dropped
    keys = sorted(windows)[1:-1]
    return [windows[k] for k in keys]


def share(pre):
    """Two writers (a, b): a's write bandwidth over b's, and where the bottom device charged the
    bytes (PREFIX.cg: a's, b's, all it wrote; root_pct: the rest, as a percentage)."""
    bw, ios, runtime = {}, 0, 0.0
    for c in ("a", "b"):
        with open(f"{pre}.{c}.fio.json") as f:
            job = json.load(f)["jobs"][0]
        bw[c] = job["write"]["bw_bytes"]
        ios += job["write"]["total_ios"]
        runtime = max(runtime, job["write"].get("runtime", 0) / 1000.0)
    with open(pre + ".cg") as f:
        a, b, dev = f.read().split()
    root = "-" if "-" in (a, b) or int(dev) == 0 else f"{100.0 * (int(dev) - int(a) - int(b)) / int(dev):.1f}"
    extra = f"a_mibs={bw['a'] / 2**20:.2f};b_mibs={bw['b'] / 2**20:.2f};root_pct={root}"
    return 2, ios, runtime, (bw["a"] / bw["b"] if bw["b"] else 0.0), 0.0, extra


def ab(out):
    trials = os.path.join(out, "ab", "trials.tsv")
    rows, its = [], []
    with open(trials) as f:
        for t in csv.DictReader(f, delimiter="\t"):
            pre = os.path.join(out, t["prefix"])
            with open(pre + ".ops") as o:
                o0, o1 = (int(x) for x in o.read().split())
            if os.path.exists(pre + ".a.fio.json"):
                jobs, ios, runtime, metric, clock, extra = share(pre)
            else:
                ios, runtime = fio_ios(pre + ".json")
                clock = task_clock_ns(pre + ".perf.csv")
                jobs = fio_jobs(pre + ".json")
                metric, extra = (ios / runtime if runtime else 0.0), "-"
                for i, v in enumerate(iterations(pre)):
                    its.append([t["count"], t["round"], t["variant"], i + 1, v])
            rows.append([t["count"], t["round"], t["slot"], t["variant"], t["value"], jobs, ios,
                         f"{runtime:.3f}", f"{metric:.4f}" if extra != "-" else f"{metric:.1f}", f"{clock:.0f}",
                         f"{clock / ios:.1f}" if ios and clock else "0", o1 - o0, extra, t.get("boot") or "1"])
    with open(os.path.join(out, "lab-ab.tsv"), "w") as f:
        f.write("count\tround\tslot\tvariant\tvalue\tjobs\tios\truntime_s\tmetric\ttask_clock_ns\tns_per_io\tops_delta\textra\tboot\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    with open(os.path.join(out, "lab-iter.tsv"), "w") as f:
        f.write("count\tround\tvariant\ti\tmetric\n")
        for r in its:
            f.write("\t".join(str(x) for x in r) + "\n")
    traced(out)
    c2c(out)


def traced(out):
    """lab-lock.tsv and lock/: each traced trial's I/Os, operations and perf lock table."""
    trials = os.path.join(out, "ab", "traced.tsv")
    if not os.path.exists(trials):
        return
    os.makedirs(os.path.join(out, "lock"), exist_ok=True)
    rows = []
    with open(trials) as f:
        for t in csv.DictReader(f, delimiter="\t"):
            pre = os.path.join(out, t["prefix"])
            with open(pre + ".ops") as o:
                o0, o1 = (int(x) for x in o.read().split())
            ios, runtime = fio_ios(pre + ".json")
            name = os.path.basename(pre)
            for ext in (".lock.txt", ".lock.err"):
                shutil.copyfile(pre + ext, os.path.join(out, "lock", name + ext))
            rows.append([t["count"], t["round"], t["variant"], t["value"], t.get("boot") or "1", ios,
                         f"{runtime:.3f}", o1 - o0, f"lock/{name}.lock.txt"])
    with open(os.path.join(out, "lab-lock.tsv"), "w") as f:
        f.write("count\tround\tvariant\tvalue\tboot\tios\truntime_s\tops_delta\ttable\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


def c2c(out):
    """c2c/: each perf c2c report the guest left (ab/N<n>-c2c-<variant>.c2c.txt), for the notebook."""
    found = sorted(glob.glob(os.path.join(out, "ab", "*.c2c.txt")))
    if found:
        os.makedirs(os.path.join(out, "c2c"), exist_ok=True)
    for f in found:
        shutil.copyfile(f, os.path.join(out, "c2c", os.path.basename(f)))


def over(out):
    trials = os.path.join(out, "overhead", "trials.tsv")
    rows = []
    with open(trials) as f:
        for t in csv.DictReader(f, delimiter="\t"):
            pre = os.path.join(out, t["prefix"])
            ios, runtime = fio_ios(pre + ".json")
            clock = task_clock_ns(pre + ".perf.csv")
            rows.append([t["round"], t["slot"], t["kernel"], t["rep"], ios, f"{runtime:.3f}",
                         f"{ios / runtime:.1f}" if runtime else "0", f"{clock:.0f}", f"{clock / ios:.1f}" if ios else "0"])
    with open(os.path.join(out, "overhead.tsv"), "w") as f:
        f.write("round\tslot\tkernel\trep\tios\truntime_s\tiops\ttask_clock_ns\tns_per_io\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("ab", "over"):
        raise SystemExit("usage: ab-rows.py ab|over OUTDIR")
    (ab if sys.argv[1] == "ab" else over)(sys.argv[2])

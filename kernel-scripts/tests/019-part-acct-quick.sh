#!/usr/bin/env bash
# 019: the part-acct scenario (quick, 300 ms runs, both tools, natively: LAB_PART_ACCT_GUEST=0; the guest
# is covered by 016 and 017) writes every file of its LAB_OUT contract, every run has no error
# and non-zero IOPS, queue/iostats really was 0 in the off runs and 1 in the on runs (on loop the
# target's /sys stat stands still with 0, for the disk and for the partition alike, and moves
# with 1; on every device what env.txt's stat_moved says matches the stat files), and nothing
# of the lab is left afterwards.
set -euo pipefail
KS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/../common/rc.sh
. "$KS_DIR/common/rc.sh"
LK=$KS_DIR/lab-kernel.sh
_have_root
_have_driver zram loop
_have_cmd fio perf sfdisk python3
_test_begin
out=$LAB_STATE/out
zrams() { compgen -G '/sys/block/zram*' | sort; }
zrams_before=$(zrams)

LAB_OUT=$out LAB_RUNTIME=300ms LAB_PART_ACCT_GUEST=0 LAB_PART_ACCT_TOOLS="fio bridge-uring" "$LK" run part-acct --quick 2>"$LAB_STATE/part-acct.err" ||
	{ tail -n 20 "$LAB_STATE/part-acct.err" >&2; exit 1; }

python3 - "$out" "$(nproc)" <<'EOF'
import json, os, re, sys
out, cores = sys.argv[1], int(sys.argv[2])
env = dict(l.split(": ", 1) for l in open(os.path.join(out, "env.txt")).read().splitlines())
for k in ("environment", "kernel", "cores", "perf_repeats", "rounds", "runtime_s", "devices", "span",
          "targets", "numjobs", "tools", "iostats_default", "stat_moved", "guest"):
    if k not in env:
        print("env.txt lacks", k)
print("env.txt:", ", ".join("%s: %s" % (k, env.get(k)) for k in ("perf_repeats", "rounds", "runtime_s", "targets", "guest")))
print("numjobs is 1 and the cores:", env.get("numjobs", "").split() == [str(j) for j in sorted({1, cores})])
print("kernel matches:", env.get("kernel") == os.uname().release)
jobs = sorted({1, cores})
targets = ("zram-disk", "loop-disk", "loop-part")
missing, bad, stat = [], [], {}
for t in targets:
    for j in jobs:
        for f in ("job-%s-j%d.fio" % (t, j), "job-%s-j%d.uring.fio" % (t, j)):
            if not os.path.isfile(os.path.join(out, f)):
                missing.append(f)
        for v in (0, 1):
            for r in (1, 2):
                for tool in ("fio", "bridge-uring"):
                    name = "%s-iostats%d-j%d-r%d.%s" % (t, v, j, r, tool)
                    for ext in (".json", ".perf.csv", ".before.stat", ".after.stat"):
                        if not os.path.isfile(os.path.join(out, name + ext)):
                            missing.append(name + ext)
                    try:
                        job = json.load(open(os.path.join(out, name + ".json")))["jobs"][0]
                        if job.get("error", 0) != 0 or not job["read"]["iops"] > 0:
                            bad.append("%s: error %s, iops %s" % (name, job.get("error"), job["read"]["iops"]))
                        before = open(os.path.join(out, name + ".before.stat")).read().split()
                        after = open(os.path.join(out, name + ".after.stat")).read().split()
                        stat.setdefault((t, v), []).append(int(after[0]) - int(before[0]))
                    except (OSError, ValueError, KeyError) as e:
                        bad.append("%s: %s" % (name, e))
print("missing files:", missing or "none")
print("runs with an error or zero IOPS:", bad or "none")
for t in ("loop-disk", "loop-part"):
    print("%s: read I/Os counted with iostats 0: %s, with iostats 1: %s" % (
        t, "none" if all(d == 0 for d in stat.get((t, 0), [1])) else stat.get((t, 0)),
        "every run" if all(d > 0 for d in stat.get((t, 1), [0])) else stat.get((t, 1))))
print("zram-disk: read I/Os counted with iostats 1:", "every run" if all(d > 0 for d in stat.get(("zram-disk", 1), [0])) else stat.get(("zram-disk", 1)))
moved = dict(re.findall(r"(\S+ iostats[01]) (\d+/\d+)", env.get("stat_moved", "")))
agree = all(moved.get("%s iostats%d" % k) == "%d/%d" % (sum(d != 0 for d in ds), len(ds)) for k, ds in stat.items())
print("env.txt stat_moved agrees with the stat files:", agree and len(moved) == 6)
print("perf-missing.txt:", os.path.isfile(os.path.join(out, "perf-missing.txt")))
EOF
echo "registry lines: $(wc -l <"$LAB_REGISTRY")"
[ -z "$(_loop_orphans)" ] && echo "no lab loop devices"
[ "$(zrams)" = "$zrams_before" ] && echo "no zram device left"

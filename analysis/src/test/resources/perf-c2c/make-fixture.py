#!/usr/bin/env python3
"""Writes c2c-report.txt: 'perf c2c report --stdio' as perf 6.1 lays it out, for made-up counts.

Built from tools/perf/builtin-c2c.c (Debian linux-source-6.1): print_c2c__display_stats(),
print_shared_cacheline_info(), print_c2c_info(), perf_c2c__hists_fprintf(), print_pareto(),
print_cacheline(), the c2c_dimension headers and widths, fill_line(), and the default display
('tot', not arm64), coalesce ('iaddr') and node flavour (0); and from tools/perf/ui/stdio/hist.c:
'# ' before header lines, '  ' between fields and before each row, the dots line, spans.
Widths of the sort-entry columns (Symbol, Shared Object, Source:Line) follow the longest entry.
Not a capture: perf was not run.  Run from this folder:  python3 make-fixture.py
"""

def fill_line(orig, length):                       # builtin-c2c.c fill_line()
    j = length // 2 - len(orig) // 2
    s = "-" * (j - 1) + " " + orig + " "
    return s + "-" * (length - len(s))

def header(cols):
    """cols: (width, line0 text or None, span, line1 text, left-aligned?)."""
    out = []
    for line in (0, 1):
        parts, span = [], 0
        for w, t0, sp, t1, _ in cols:
            if line == 0:
                if span:
                    span -= 1
                    continue
                span = sp
                parts.append("%*s" % (w, t0 or ""))
            else:
                parts.append("%*s" % (w, t1))
        out.append("# " + "  ".join(parts))
    out.append("# " + "  ".join("." * c[0] for c in cols))
    out.append("#")
    return out

def row(cols, values):
    return "".join("  " + (("%-*s" if c[4] else "%*s") % (c[0], v)) for c, v in zip(cols, values))

SEP = "=================================================\n"
stats = [("Total records", 58211), ("Locked Load/Store Operations", 2104), ("Load Operations", 26872),
         ("Loads - uncacheable", 0), ("Loads - IO", 0), ("Loads - Miss", 12), ("Loads - no mapping", 3),
         ("Load Fill Buffer Hit", 4410), ("Load L1D hit", 17820), ("Load L2D hit", 912),
         ("Load LLC hit", 3390), ("Load Local HITM", 140), ("Load Remote HITM", 110),
         ("Load Remote HIT", 85), ("Load Local DRAM", 120), ("Load Remote DRAM", 23),
         ("Load MESI State Exclusive", 0), ("Load MESI State Shared", 0), ("Load LLC Misses", 338),
         ("Load access blocked by data", 0), ("Load access blocked by address", 0),
         ("Load HIT Local Peer", 0), ("Load HIT Remote Peer", 0)]
pct = [("LLC Misses to Local DRAM", 35.5), ("LLC Misses to Remote DRAM", 6.8),
       ("LLC Misses to Remote cache (HIT)", 25.1), ("LLC Misses to Remote cache (HITM)", 32.5)]
stores = [("Store Operations", 31339), ("Store - uncacheable", 0), ("Store - no mapping", 0),
          ("Store L1D Hit", 30921), ("Store L1D Miss", 418), ("Store No available memory level", 0),
          ("No Page Map Rejects", 1520), ("Unable to parse data source", 0)]
shared = [("Total Shared Cache Lines", 3), ("Load HITs on shared lines", 1204), ("Fill Buffer Hits on shared lines", 301),
          ("L1D hits on shared lines", 433), ("L2D hits on shared lines", 41), ("LLC hits on shared lines", 290),
          ("Load hits on peer cache or nodes", 0), ("Locked Access on shared lines", 212),
          ("Blocked Access on shared lines", 0), ("Store HITs on shared lines", 655),
          ("Store L1D hits on shared lines", 640), ("Store No available memory level", 0),
          ("Total Merged records", 905)]

text = SEP + "            Trace Event Information              \n" + SEP
text += "".join("  %-34s: %10d\n" % kv for kv in stats)
text += "".join("  %-34s: %10.1f%%\n" % kv for kv in pct)
text += "".join("  %-34s: %10d\n" % kv for kv in stores)
text += "\n" + SEP + "    Global Shared Cache Line Event Information   \n" + SEP
text += "".join("  %-34s: %10d\n" % kv for kv in shared)
text += "\n" + SEP + "                 c2c details                     \n" + SEP
text += "%-36s: %s\n" % ("  Events", "cpu/mem-loads,ldlat=30/P")
text += "%-36s: %s\n" % ("", "cpu/mem-stores/P")
text += "  Cachelines sort on                : Total HITMs\n"
text += "  Cacheline data grouping           : offset,iaddr\n"

# The cache lines: (address, node, PA cnt, lcl hitm, rmt hitm, records, loads, stores, l1hit, l1miss,
#                   fb, l1, l2, llchit, rmthit, dram lcl, dram rmt, offsets)
# offsets: (offset, node, pa, iaddr, rmt%, lcl%, st l1hit%, l1miss%, na%, cyc rmt, cyc lcl, cyc load, recs, cpus,
#           symbol, dso, srcline, nodes)
LINES = [
    ("0xffff9a4bc2d81c40", "0", 1, 10, 90, 402, 260, 142, 140, 2, 61, 70, 9, 20, 5, 3, 2, [
        ("0x0", "0", 1, "0xffffffff81a0c2f0", 77.78, 60.00, 49.30, 0.0, 0.0, 1021, 310, 190, 212, 2,
         "[k] mutex_lock", "[kernel.kallsyms]", "mutex.c:283", " 0  1"),
        ("0x8", "0", 1, "0xffffffffc0412a3b", 22.22, 40.00, 0.0, 0.0, 0.0, 990, 288, 170, 120, 2,
         "[k] dm_bufio_lock", "[dm_bufio]", "dm-bufio.c:190", " 0  1"),
        ("0x8", "0", 1, "0xffffffff81a0c3b5", 0.0, 0.0, 49.30, 1.41, 0.0, 0, 0, 95, 70, 2,
         "[k] mutex_unlock", "[kernel.kallsyms]", "mutex.c:543", " 0  1"),
    ]),
    ("0xffff9a4bc0f2e000", "0", 1, 60, 20, 300, 180, 120, 120, 0, 40, 50, 5, 15, 4, 3, 1, [
        ("0x10", "0", 1, "0xffffffff814a2c11", 0.0, 25.00, 60.00, 0.0, 0.0, 0, 301, 160, 190, 2,
         "[k] update_io_ticks", "[kernel.kallsyms]", "blk-core.c:947", " 0  1"),
        ("0x18", "0", 1, "0xffffffff814a7e02", 100.00, 75.00, 40.00, 0.0, 0.0, 910, 296, 150, 110, 1,
         "[k] blk_account_io_done", "[kernel.kallsyms]", "blk-mq.c:997", " 0"),
    ]),
    ("0xffff9a4bc3a10080", "1", 1, 30, 0, 151, 120, 31, 31, 0, 20, 40, 3, 25, 0, 2, 0, [
        ("0x20", "1", 1, "0xffffffffc03a1187", 0.0, 100.00, 100.00, 0.0, 0.0, 0, 250, 140, 100, 2,
         "[k] zram_slot_lock", "[zram]", "zram_drv.c:59", "  1"),
        ("0x28", "1", 1, "0x55d4c3a0e4f2", 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0, 60, 51, 1,
         "[.] td_io_queue", "fio", "ioengines.c:330", "  1"),
    ]),
]
grand_hitm = sum(l[3] + l[4] for l in LINES)

table_cols = [(5, None, 0, "Index", False), (18, fill_line("Cacheline", 32), 2, "Address", False),
              (4, None, 0, "Node", False), (6, None, 0, "PA cnt", False), (7, "Tot", 0, "Hitm", False),
              (7, "------- Load Hitm -------", 2, "Total", False), (7, None, 0, "LclHitm", False),
              (7, None, 0, "RmtHitm", False), (7, "Total", 0, "records", False),
              (7, "Total", 0, "Loads", False), (7, "Total", 0, "Stores", False),
              (7, "--------- Stores --------", 2, "L1Hit", False), (7, None, 0, "L1Miss", False),
              (7, None, 0, "N/A", False), (7, "----- Core Load Hit -----", 2, "FB", False),
              (7, None, 0, "L1", False), (7, None, 0, "L2", False),
              (8, "- LLC Load Hit --", 1, "LclHit", False), (7, None, 0, "LclHitm", False),
              (8, "- RMT Load Hit --", 1, "RmtHit", False), (7, None, 0, "RmtHitm", False),
              (8, "--- Load Dram ----", 1, "Lcl", False), (8, None, 0, "Rmt", False)]
text += "\n" + SEP + "           Shared Data Cache Line Table          \n" + SEP + "#\n"
text += "\n".join(header(table_cols)) + "\n"
for i, l in enumerate(LINES):
    (addr, node, pa, lcl, rmt, recs, loads, st, l1hit, l1miss, fb, l1, l2, llc, rmthit, dl, dr, _) = l
    costly = "%.2f%%" % (100.0 * (lcl + rmt) / grand_hitm)
    text += row(table_cols, [i, addr, node, pa, costly, lcl + rmt, lcl, rmt, recs, loads, st, l1hit, l1miss,
                             st - l1hit - l1miss, fb, l1, l2, llc, lcl, rmthit, rmt, dl, dr]) + "\n"

offs = [o for l in LINES for o in l[17]]
symw = max(len("Symbol"), *(len(o[14]) for o in offs))
dsow = max(len("Object"), *(len(o[15]) for o in offs))
srcw = max(len("Source:Line"), *(len(o[16]) for o in offs))
pareto_cols = [(5, None, 0, "Num", False), (7, "----- HITM -----", 1, "RmtHitm", False), (7, None, 0, "LclHitm", False),
               (7, "------- Store Refs ------", 2, "L1 Hit", False), (7, None, 0, "L1 Miss", False),
               (7, None, 0, "N/A", False), (18, fill_line("Data address", 32), 2, "Offset", False),
               (4, None, 0, "Node", False), (6, None, 0, "PA cnt", False), (18, None, 0, "Code address", False),
               (8, "---------- cycles ----------", 2, "rmt hitm", False), (8, None, 0, "lcl hitm", False),
               (8, None, 0, "load", False), (7, "Total", 0, "records", False), (8, "cpu", 0, "cnt", False),
               (symw, None, 0, "Symbol", True), (dsow, "Shared", 0, "Object", True),
               (srcw, None, 0, "Source:Line", True), (4, None, 0, "Node", False)]
cl_cols = [(5,), (7,), (7,), (7,), (7,), (7,), (18,)]
text += "\n" + SEP + "      Shared Cache Line Distribution Pareto      \n" + SEP + "#\n"
for i, l in enumerate(LINES):
    if i == 0:
        # print_cacheline() prints the headers once, with hists__fprintf_headers()
        hdr = header(pareto_cols)
        # the symbol/dso/srcline headers are right-aligned by c2c_header() ("%*s")
        text += "\n".join(hdr) + "\n"
    else:
        text += "\n"
    text += "  " + "-" * 70 + "\n"
    st_na = l[7] - l[8] - l[9]
    text += "".join("  %*s" % (w[0], v) for w, v in zip(cl_cols, [i, l[4], l[3], l[8], l[9], st_na, l[0]])) + "\n"
    text += "  " + "-" * 70 + "\n"
    for o in l[17]:
        (off, node, pa, iaddr, prmt, plcl, ph, pm, pn, cr, cl, cload, recs, cpus, sym, dso, src, nodes) = o
        vals = ["", "%.2f%%" % prmt, "%.2f%%" % plcl, "%.2f%%" % ph, "%.2f%%" % pm, "%.2f%%" % pn, off, node, pa,
                iaddr, "%6.0f" % cr, "%6.0f" % cl, "%6.0f" % cload, recs, cpus, sym, dso, src, nodes]
        text += row(pareto_cols, vals) + "\n"

with open("c2c-report.txt", "w") as f:
    f.write(text)

#!/usr/bin/env python3
"""experiments/001/table2.py -- the timing id 001-table2 of experiments/run.

    table2.py 001-table2 --mode quick|full --ids DIR --runs DIR --hetlaunch PATH

Paper 001 s6.1, Table 2: five column partitions of the Fig 11 platform, of
costs 5.08 (the optimum, printed 5.1), 5.3, 5.4, 5.6 and 6.4, each run by
hl-mmm (`layout: columns`, `partition:` given as a list of columns) on the
emulated platform of experiments/configs/001-table2-emulated.yaml (its
comments justify the speeds and the 10 Mb/s shared Ethernet).  quick: n =
640; full: n = 640 and 1280 (nb = 32).  The paper's claim is that time
grows with the cost; the notes (s3) show it holds only roughly in Table 2
itself.  Reports the measured times, their rank correlation with the cost,
and the paper's.  Timings are reported, not asserted.

Same interface and pieces as experiments/timing.py, whose helpers it uses.
"""

import os
import re
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import timing  # noqa: E402  (experiments/timing.py)

ID = "001-table2"
CONFIG = "experiments/configs/001-table2-emulated.yaml"
# cost, the columns (areas 0.02 sun1-2, 0.1 sun3-4, 0.18 sun5-6, 0.4 sun7),
# the paper's times at n = 640 and 1280 (r = 32).  The four non-optimal
# partitions of Fig 12 are lost (notes s3); these have exactly its costs.
PARTITIONS = [
    (5.08, "[[sun1, sun2, sun3, sun4], [sun5, sun6], [sun7]]", 33, 269),
    (5.3, "[[sun1, sun2, sun3, sun4], [sun5], [sun6, sun7]]", 34, 287),
    (5.4, "[[sun3, sun4], [sun1, sun2, sun5, sun6], [sun7]]", 48, 289),
    (5.6, "[[sun3, sun4], [sun2, sun5], [sun1, sun6, sun7]]", 34, 290),
    (6.4, "[[sun3], [sun4], [sun1, sun2], [sun7], [sun5, sun6]]", 72, 367),
]
SIZES = {"quick": [640], "full": [640, 1280]}


def config(dst_dir, n, columns):
    os.makedirs(dst_dir, exist_ok=True)
    with open(CONFIG) as f:
        text = f.read()
    text = re.sub(r"(?m)^n: .*$", f"n: {n}", text)
    text = re.sub(r"(?m)^partition: .*$", f"partition: {columns}", text)
    dst = os.path.join(dst_dir, "table2.yaml")
    timing.write_atomic(dst, text)
    return dst


def point(ctx, cost, columns, n):
    outdir = os.path.join(ctx.runs, ID, f"n{n}-c{cost}")
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    cfg = config(outdir, n, columns)
    t0 = time.monotonic()
    doc, err = timing.hetlaunch(ctx, ["run", cfg], outdir + "/run")
    took = time.monotonic() - t0
    if doc is None or err or not timing.report_ok(doc):
        why = err or "the run did not pass"
        ctx.failures.append(f"n = {n}, C^ = {cost}: hetlaunch run {why} (see {outdir})")
        timing.progress(f"n = {n}, C^ = {cost}: FAILED ({why}) [{took:.0f} s]")
        return None
    timing.note_flagged(ctx, f"n = {n}, C^ = {cost}", doc)
    timing.progress(f"n = {n}, C^ = {cost}: {doc['time']:.2f} s [{took:.0f} s]")
    return doc


def main(argv):
    args = timing.parse([a if a != ID else "002-fig6-lu-lhpc" for a in argv])
    args["id"] = ID
    ctx = timing.Ctx(args)
    os.makedirs(ctx.runs, exist_ok=True)
    paper, ours, rows = {}, {}, []
    match = True
    table = ["| C^ | columns | n | paper (s) | measured (s) | predicted (s) |",
             "|--:|---|--:|--:|--:|--:|"]
    for n in SIZES[ctx.mode]:
        costs, times = [], []
        for cost, columns, t640, t1280 in PARTITIONS:
            want = t640 if n == 640 else t1280
            paper[f"n={n} C^={cost}"] = want
            doc = point(ctx, cost, columns, n)
            if doc is None:
                continue
            costs.append(cost)
            times.append(doc["time"])
            ours[f"n={n} C^={cost}"] = timing.rnd(doc["time"], 2)
            pred = doc.get("predicted", {}).get("time")
            table.append(f"| {cost} | {columns} | {n} | {want} | {doc['time']:.2f} | "
                         f"{pred:.2f} |" if pred else f"| {cost} | {columns} | {n} | {want} | "
                         f"{doc['time']:.2f} | - |")
        if len(times) >= 2:
            rho = timing.spearman(costs, times)
            paper_rho = timing.spearman([p[0] for p in PARTITIONS],
                                        [p[2] if n == 640 else p[3] for p in PARTITIONS])
            fastest = costs[0] == 5.08 and times[0] == min(times)
            match = match and fastest and rho > 0
            rows.append((f"n = {n}: rank correlation of time with C^ (paper's Table 2)",
                         timing.fmt(paper_rho, 2), timing.fmt(rho, 2), rho > 0))
            rows.append((f"n = {n}: the optimal partition (5.08) fastest", "true",
                         "true" if fastest else "false", fastest))
    note = ("Criterion (the paper's claim, which its own Table 2 meets only roughly, notes s3):"
            " the optimal partition is the fastest and time correlates positively with C^. "
            "Five column partitions of exactly the costs of Table 2 (Fig 12's drawings are lost;"
            " notes s3), each run once by hl-mmm, one rank per emulated workstation, on a 10 Mb/s"
            " shared bus; speeds fitted to Table 2's 33 s (experiments/configs/"
            "001-table2-emulated.yaml). The emulator charges every CPU second of a rank (the"
            " packing of the pieces too) at the machine's emulated speed, and the product does not"
            " overlap communication with computation (001 s2.1). This 2-core machine is shared"
            " with other builds, which only adds time."
            + ("" if ctx.mode == "full" else " Quick mode: n = 640 only (n = 1280 takes about"
               " 8 times longer per run)."))
    timing.emit(ctx, "001 Table 2: five column partitions of the Fig 11 platform, emulated", paper,
                ours, match, note, rows, "\n".join(table), False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

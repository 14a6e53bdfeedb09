#!/usr/bin/env python3
"""soak.py -- a seeded, reproducible randomized soak of the emulator.

Each case is a random platform and plan run under `emulate: {clock:
virtual, compute: skip}` with hl-driver: 3 to --max-ranks ranks (128 by
default), 1 to 3 ranks per machine, cycle times 1 to 8 (speed ratios up to
8), layout 1d or 2d, B (1d) or the panel's larger side (2d) from M/8 to M
column blocks, nb 16 to 128, kernel lu, qr, chol or mm, MPICH or Open MPI.
Every case must finish (the stall watchdog is set short: a stalled case
ends as one), pass, keep virtual-time order (`emulation.out_of_order` 0)
and give the same virtual time on a second run; each case's emulated /
predicted seconds are printed in the table, and their range per kernel and
layout after it.  A failed case prints its YAML and the command that
replays it alone.

Case K of seed S is drawn from its own generator (seeded "S:K"), so it is
the same whatever --cases says and replays with --case K.

    tests/soak/soak.py [--seed S] [--cases N] [--max-ranks R] [--max-n N]
                       [--case K] [--print] [--hetlaunch BIN]

Exit status: 0 every case passed, 1 one failed, 2 bad arguments.
Run from the repository root (make soak).
"""
import argparse
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

KERNELS = ("lu", "qr", "chol", "mm")
MPIS = ("mpich", "openmpi")
STALL_S = 30          # the watchdog's wall seconds (emulate: stall_timeout_s)
TIMEOUT_S = 900       # a run that neither ends nor stalls (timeout:)


def log_uniform(rng, lo, hi):
    """An integer in [lo, hi], small ones as likely as large ones by ratio."""
    return min(hi, max(lo, int(math.exp(rng.uniform(math.log(lo), math.log(hi + 1))))))


def column_blocks(rng, b, nb, max_n):
    """M for a B (or a panel side) of b: M/8 <= b <= M, n = M nb within
    max_n when it can be (b nb above max_n gives M = b)."""
    hi = max(b, min(8 * b, max_n // nb))
    return rng.randint(b, hi)


def plan_1d(rng, max_ranks):
    ranks = log_uniform(rng, 3, max_ranks)
    machines = max(1, math.ceil(ranks / rng.randint(1, 3)))
    return {"ranks": ranks, "machines": machines, "B": ranks, "side": ranks}


def plan_2d(rng, max_ranks):
    """A p x q grid of machines and a Bp x Bq panel, Bp >= p, Bq >= q, of
    1 to 3 processes a machine and 3 to max_ranks in all."""
    while True:
        per = rng.randint(1, 3)
        total = log_uniform(rng, 3, max_ranks)
        machines = max(1, total // per)
        p = rng.randint(1, max(1, math.isqrt(machines)))
        q = max(1, machines // p)
        bp = rng.randint(p, max(p, min(per * p, max_ranks // q)))
        bq = rng.randint(q, max(q, min(per * q, max_ranks // bp)))
        if 3 <= bp * bq <= max_ranks:
            return {"ranks": bp * bq, "machines": p * q, "grid": [p, q], "panel": [bp, bq],
                    "side": max(bp, bq)}


def make_case(seed, k, max_ranks, max_n):
    """Case k of the seed: its YAML text and its row's description."""
    rng = random.Random("%d:%d" % (seed, k))
    kernel, mpi = rng.choice(KERNELS), rng.choice(MPIS)
    layout = rng.choice(("1d", "2d"))
    nb = rng.randint(16, 128)
    plan = plan_1d(rng, max_ranks) if layout == "1d" else plan_2d(rng, max_ranks)
    m = column_blocks(rng, plan["side"], nb, max_n)
    n = m * nb - rng.randint(0, nb - 1)   # a last block cut short, at times
    cycles = [round(rng.uniform(1, 8), 2) for _ in range(plan["machines"])]
    cycles[rng.randrange(len(cycles))] = 1   # the ratio is to the fastest
    emulate = "{clock: virtual, compute: skip, mflops: %d, cycle_time: 1, latency_us: %d, " \
              "bandwidth_mbps: %d, stall_timeout_s: %d}" % (
                  rng.choice((2000, 5000, 10000, 20000)), rng.randint(1, 100),
                  rng.choice((1000, 2000, 10000, 20000)), STALL_S)
    lines = ["name: soak-%d-%d" % (seed, k), "machines:"]
    lines += ["  - {name: m%d, host: localhost, cycle_time: %s}" % (i, c)
              for i, c in enumerate(cycles)]
    lines += ["layout: %s" % layout]
    if layout == "1d":
        lines += ["B: %d" % plan["B"]]
        shape = "B %d" % plan["B"]
    else:
        lines += ["grid: [%d, %d]" % tuple(plan["grid"]), "panel: [%d, %d]" % tuple(plan["panel"])]
        shape = "%dx%d/%dx%d" % tuple(plan["grid"] + plan["panel"])
    lines += ["kernel: %s" % kernel, "n: %d" % n, "nb: %d" % nb, "mpi: %s" % mpi,
              "emulate: %s" % emulate, "timeout: %d" % TIMEOUT_S]
    row = {"case": k, "mpi": mpi, "kernel": kernel, "layout": layout, "machines": plan["machines"],
           "ranks": plan["ranks"], "shape": shape, "n": n, "nb": nb, "M": m}
    return "\n".join(lines) + "\n", row


def run_once(hetlaunch, path, out):
    """One run: (exit status, report or None, wall seconds, stderr)."""
    t0 = time.monotonic()
    p = subprocess.run([hetlaunch, "run", path, "--quiet", "--out", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    try:
        with open(os.path.join(out, "report.json")) as f:
            return p.returncode, json.load(f), wall, p.stderr
    except (OSError, ValueError):
        return p.returncode, None, wall, p.stderr


def judge(rc, rep):
    """Why a run failed, or None."""
    if rep is None:
        return "exit %d, no report.json" % rc
    if rep["job"].get("stalled"):
        return "stalled (the watchdog ended it)"
    if rc != 0 or not rep.get("passed"):
        return "exit %d, passed %s" % (rc, rep.get("passed"))
    ooo = rep["emulation"].get("out_of_order")
    if ooo != 0:
        return "out_of_order %s" % ooo
    return None


def run_case(hetlaunch, tmp, text, row):
    """Runs a case twice: its row filled in, and why it failed or None."""
    path = os.path.join(tmp, "case-%d.yaml" % row["case"])
    with open(path, "w") as f:
        f.write(text)
    times, why, wall = [], None, 0.0
    for run in (1, 2):
        out = os.path.join(tmp, "run-%d-%d" % (row["case"], run))
        rc, rep, w, err = run_once(hetlaunch, path, out)
        wall += w
        if rep is not None and rep.get("results"):   # a failed run's figures too
            times.append(rep["results"][0]["time"])
            row["mop"] = (rep.get("predicted") or {}).get("measured_over_predicted")
        why = judge(rc, rep)
        if why:
            why = "run %d: %s\n%s" % (run, why, "\n".join(err.strip().split("\n")[-15:]))
            break
        shutil.rmtree(out, ignore_errors=True)
    if not why and len(times) != 2:
        why = "a run without a result"
    elif not why and times[0] != times[1]:
        why = "virtual times differ: %s s, then %s s" % (times[0], times[1])
    row["time"] = times[0] if times else None
    row["wall"] = wall
    return why


def fmt(row):
    mop = "%.2f" % row["mop"] if row.get("mop") is not None else "-"
    t = "%.6f" % row["time"] if row.get("time") is not None else "-"
    return "| %d | %s | %s | %s | %d | %d | %s | %d | %d | %d | %s | %s | %.1f |" % (
        row["case"], row["mpi"], row["kernel"], row["layout"], row["machines"], row["ranks"],
        row["shape"], row["n"], row["nb"], row["M"], t, mop, row["wall"])


def summary(rows):
    """emulated / predicted by kernel and layout: how far the model is."""
    groups = {}
    for r in rows:
        if r.get("mop") is not None:
            groups.setdefault((r["kernel"], r["layout"]), []).append(r["mop"])
    for (kernel, layout), v in sorted(groups.items()):
        v.sort()
        print("soak: %s %s: emulated / predicted %.2f to %.2f, median %.2f (%d cases)" % (
            kernel, layout, v[0], v[-1], v[len(v) // 2], len(v)))


def args_parse():
    ap = argparse.ArgumentParser(description="randomized soak of the emulator")
    ap.add_argument("--seed", type=int, default=int(os.environ.get("SOAK_SEED", "1")))
    ap.add_argument("--cases", type=int, default=int(os.environ.get("SOAK_CASES", "10")))
    ap.add_argument("--max-ranks", type=int, default=128)
    ap.add_argument("--max-n", type=int, default=16384,
                    help="largest n drawn (a case's B nb may exceed it)")
    ap.add_argument("--case", type=int, help="run (or --print) this case only")
    ap.add_argument("--print", action="store_true", help="print the cases' YAML, run nothing")
    ap.add_argument("--report", action="store_true",
                    help="exit 0 whatever failed (make bench: a measurement, the failures listed)")
    ap.add_argument("--hetlaunch", default=os.environ.get("HETLAUNCH", "bin/hetlaunch"))
    a = ap.parse_args()
    if a.cases < 1 or not 3 <= a.max_ranks <= 1024 or a.max_n < 16:
        ap.error("--cases >= 1, --max-ranks 3..1024, --max-n >= 16")
    return a


def main():
    a = args_parse()
    ks = [a.case] if a.case is not None else range(a.cases)
    if a.print:
        for k in ks:
            print("# case %d of seed %d\n%s" % (k, a.seed, make_case(a.seed, k, a.max_ranks, a.max_n)[0]))
        return 0
    tmp = tempfile.mkdtemp(prefix="hetlaunch-soak.")
    failed, rows, t0 = [], [], time.monotonic()
    print("soak: seed %d, %d case(s), up to %d ranks, n up to %d (load %s)" % (
        a.seed, len(ks), a.max_ranks, a.max_n, open("/proc/loadavg").read().split()[:3]))
    print("| case | mpi | kernel | layout | machines | ranks | B or grid/panel | n | nb | M "
          "| emulated s | emulated / predicted | wall s (2 runs) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        for k in ks:
            text, row = make_case(a.seed, k, a.max_ranks, a.max_n)
            why = run_case(a.hetlaunch, tmp, text, row)
            rows.append(row)
            print(fmt(row), flush=True)
            if why:
                failed.append(k)
                print("FAIL: case %d of seed %d: %s\n--- its YAML (replay: tests/soak/soak.py "
                      "--seed %d --max-ranks %d --max-n %d --case %d)\n%s---" % (
                          k, a.seed, why, a.seed, a.max_ranks, a.max_n, k, text), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    summary(rows)
    print("soak: %d passed, %d failed%s in %.0f s of wall (load %s)" % (
        len(ks) - len(failed), len(failed),
        " (cases %s)" % ", ".join(map(str, failed)) if failed else "", time.monotonic() - t0,
        open("/proc/loadavg").read().split()[:3]))
    return 1 if failed and not a.report else 0


if __name__ == "__main__":
    sys.exit(main())

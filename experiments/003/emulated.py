#!/usr/bin/env python3
"""experiments/003/emulated.py -- the timing id 003-emulated of experiments/run.

    emulated.py 003-emulated --mode quick|full --ids DIR --runs DIR --hetlaunch PATH

Paper 003's product run for real: the checked notes' scaled emulated
configurations (notes s5: q = 64, a master and 8 workers at 100 Mflop/s,
m = 45 block buffers, the master's link a bus, so one port), E1 (50 Mb/s,
A 10 x 20 blocks, B 20 x 30) and E2 (100 Mb/s, s = 50), one `hetlaunch run`
of `hl-mw` per scheduler.  Reports, per run, the measured time against the
simulated makespan of the block model (the report's predicted.time), the
workers used, the buffers' high-water mark and the check of C.

The criteria (notes s7.6): measured / simulated within [0.95, 1.10] for
HoLM, ORROML, ODDOML and DDOML; C checked; at most m buffers; HoLM on its
P workers (3 on E1, 5 on E2); on E1, HoLM within 6% of ORROML.  Quick mode
(run by CI, so kept near a minute) runs E1 with HoLM and ORROML; full mode E1
and E2 with all seven (BMM, OBMM and OMMOML reported, not judged).  Timings are reported, not asserted.

Same interface and pieces as experiments/timing.py, whose helpers it uses.
"""

import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import timing  # noqa: E402  (experiments/timing.py)

ID = "003-emulated"
SRC = "configs/mw-e1-emulated.yaml"
M = 45
# The notes' simulated makespans, s (s5), and HoLM's workers.
NOTES = {
    "E1": {"holm": 15.7496, "orroml": 15.7286, "ommoml": 16.5780, "oddoml": 15.7286,
           "ddoml": 15.7286, "bmm": 26.2144, "obmm": 26.2144},
    "E2": {"holm": 13.1701, "orroml": 16.2844, "ommoml": 15.4875, "oddoml": 13.5948,
           "ddoml": 13.9041, "bmm": 22.1381, "obmm": 22.1014},
}
HOLM_P = {"E1": 3, "E2": 5}
JUDGED = ("holm", "orroml", "oddoml", "ddoml")
QUICK = ("holm", "orroml")
ALL = ("holm", "orroml", "ommoml", "oddoml", "ddoml", "bmm", "obmm")
LO, HI = 0.95, 1.10


def config_text(cfg, sched):
    """E1 from configs/mw-e1-emulated.yaml; E2 is it with s = 50, a 100 Mb/s
    bus and c = w / 2 (notes s5)."""
    with open(SRC) as f:
        text = f.read()
    values = {"scheduler": sched, "name": f"mw-{cfg.lower()}-{sched}", "timeout": 600}
    if cfg == "E2":
        values.update({"blocks": "[10, 20, 50]", "block_time": 0.5,
                       "emulate": "{mflops: 100, cycle_time: 1, bandwidth_mbps: 100, network: bus}"})
    return timing.with_values(text, **values)


def hlmw_line(rundir):
    """The key=value pairs of hl-mw's HLMW line in RUNDIR/log.txt, or {}."""
    try:
        with open(os.path.join(rundir, "log.txt")) as f:
            for line in f:
                if line.startswith("HLMW kernel="):
                    return dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
    except OSError:
        pass
    return {}


def point(ctx, cfg, sched):
    """The fastest of the point's runs: (report, HLMW fields), or None."""
    best = None
    for sub, label in timing.rep_labels(ctx, f"{cfg} {sched}"):
        outdir = os.path.join(ctx.runs, ID, cfg.lower(), sched, sub)
        if os.path.isdir(outdir):
            shutil.rmtree(outdir)
        os.makedirs(outdir)
        path = os.path.join(outdir, "config.yaml")
        timing.write_atomic(path, config_text(cfg, sched))
        t0 = time.monotonic()
        rundir = os.path.join(outdir, "run")
        rep, err = timing.hetlaunch(ctx, ["run", path], rundir)
        took = time.monotonic() - t0
        if rep is None or err or not timing.report_ok(rep):
            why = err or "the check of C did not pass"
            ctx.failures.append(f"{label}: hetlaunch run {why} (see {outdir})")
            timing.progress(f"{label}: FAILED ({why}) [{took:.0f} s]")
            continue
        timing.note_flagged(ctx, label, rep)
        hl = hlmw_line(rundir)
        timing.progress(f"{label}: {rep['time']:.3f} s against {rep['predicted']['time']:.3f} s"
                        f" simulated ({rep['predicted']['measured_over_predicted']:.3f}),"
                        f" {hl.get('workers_used', '?')} workers, max_buffers"
                        f" {hl.get('max_buffers', '?')} [{took:.0f} s]")
        if best is None or rep["time"] < best[0]["time"]:
            best = (rep, hl)
    return best


def main(argv):
    args = timing.parse([a if a != ID else "002-fig6-lu-lhpc" for a in argv])
    args["id"] = ID
    ctx = timing.Ctx(args)
    os.makedirs(ctx.runs, exist_ok=True)
    plan = [("E1", QUICK)] if ctx.mode == "quick" else [("E1", ALL), ("E2", ALL)]
    paper, ours, rows = {}, {}, []
    table = ["| config | scheduler | simulated (s) | measured (s) | measured / simulated |"
             " workers | max buffers |", "|---|---|--:|--:|--:|--:|--:|"]
    match = True
    for cfg, scheds in plan:
        paper[cfg], ours[cfg], meas = {}, {}, {}
        for sched in scheds:
            paper[cfg][sched] = NOTES[cfg][sched]
            got = point(ctx, cfg, sched)
            if got is None:
                match = False
                continue
            rep, hl = got
            sim = rep["predicted"]["time"]
            ratio = rep["time"] / sim
            meas[sched] = rep["time"]
            workers = int(hl["workers_used"]) if "workers_used" in hl else None
            bufs = int(hl["max_buffers"]) if "max_buffers" in hl else None
            ours[cfg][sched] = {"simulated": timing.rnd(sim), "measured": timing.rnd(rep["time"], 3),
                                "ratio": timing.rnd(ratio, 3), "workers_used": workers,
                                "max_buffers": bufs}
            table.append(f"| {cfg} | {sched} | {sim:.3f} | {rep['time']:.3f} | {ratio:.3f} |"
                         f" {workers if workers is not None else '-'} |"
                         f" {bufs if bufs is not None else '-'} |")
            sim_ok = abs(sim / NOTES[cfg][sched] - 1) <= 1e-3
            rows.append((f"{cfg} {sched}: simulated makespan (notes s5, 0.1%)",
                         f"{NOTES[cfg][sched]}", timing.fmt(sim, 4), sim_ok))
            mem_ok = bufs is not None and bufs <= M
            rows.append((f"{cfg} {sched}: C checked, at most m = {M} buffers", "true",
                         f"passed, {bufs}", mem_ok))
            match = match and sim_ok and mem_ok
            if sched in JUDGED:
                ok = LO <= ratio <= HI
                rows.append((f"{cfg} {sched}: measured / simulated in [{LO}, {HI}]", "1",
                             timing.fmt(ratio), ok))
                match = match and ok
            if sched == "holm":
                ok = workers == HOLM_P[cfg]
                rows.append((f"{cfg} holm: workers used (P)", f"{HOLM_P[cfg]}", f"{workers}", ok))
                match = match and ok
        if cfg == "E1" and "holm" in meas and "orroml" in meas:
            d = abs(meas["holm"] / meas["orroml"] - 1)
            ok = d <= 0.06
            rows.append(("E1: HoLM against ORROML, measured, relative difference", "<= 0.06",
                         timing.fmt(d), ok))
            match = match and ok
    note = ("The notes' scaled configurations (s5; the paper's own runs are lost): q = 64,"
            " 8 workers at 100 Mflop/s, m = 45, a bus (one port at the master), E1 at 50 Mb/s"
            " (c = w), E2 at 100 Mb/s with s = 50; `hetlaunch run` of hl-mw per scheduler,"
            " simulated = the block model's makespan in seconds (the report's predicted.time). "
            + timing.reps_text(ctx) + (" Quick mode: E1 with HoLM and ORROML only."
                                       if ctx.mode == "quick" else "") +
            " This 2-core machine is shared with other builds, which only adds time; the"
            " coordinator re-measures on a quiet machine.")
    timing.emit(ctx, "003: E1 and E2 emulated, hl-mw against the block model", paper, ours,
                match, note, rows, "\n".join(table), False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""experiments/003/emulated.py -- the timing id 003-emulated of experiments/run.

    emulated.py 003-emulated --mode quick|full --ids DIR --runs DIR --hetlaunch PATH

Paper 003's product run for real: the checked notes' scaled emulated
configurations (notes s5: q = 64, a master and 8 workers at 100 Mflop/s,
m = 45 block buffers, the master's link a bus, so one port), E1 (50 Mb/s,
A 10 x 20 blocks, B 20 x 30) and E2 (100 Mb/s, s = 50), one `hetlaunch run`
of `hl-mw` per scheduler, under the virtual clock with the flop models only
(`clock: virtual, cpu_time: false`: the emulated times do not
depend on this computer's load), and in full mode E1's HoLM and ORROML
under the real clock too, as a cross-check.
Reports, per run, the measured time against the simulated makespan of the
block model (the report's predicted.time), the workers used, the buffers'
high-water mark and the check of C.

The criteria (notes s7.6): measured / simulated within [0.95, 1.10] for
HoLM, ORROML, ODDOML and DDOML; C checked; at most m buffers; HoLM on its
P workers (3 on E1, 5 on E2); on E1, HoLM within 6% of ORROML -- the times
judged on the virtual clock; the real clock's rows are reported.  Quick mode
(run by CI, so kept near a minute) runs E1 with HoLM and ORROML; full mode E1
and E2 with all seven (BMM, OBMM and OMMOML reported, not judged).  Timings are reported, not asserted.

One run per point unless EXP_REPS says otherwise (the full run in
under 30 minutes): under the virtual clock, with the master's receives in
virtual-time order, the two runs of each point came out identical in two
full runs of this id but one (OBMM on E2, 22.037 and 22.040 s; README), so a
second run measured nothing.  The real clock's rows are a cross-check that
the emulation also holds when the waits are real (this shared machine's load
only adds time to them), not judged: full mode keeps E1's HoLM and ORROML,
the pair of the one comparison criterion (HoLM within 6% of ORROML), once
each.  Until the virtual clock existed, full mode ran all fourteen points under the real clock
too, the fastest of two runs each (17-34 s of wall time a run): 791 s of the
full run's 1780 s.

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
# (clock, [(config, schedulers)]) per mode: the docstring says why the real
# clock runs only E1's HoLM and ORROML
PLAN = {"quick": [("virtual", [("E1", QUICK)])],
        "full": [("virtual", [("E1", ALL), ("E2", ALL)]), ("real", [("E1", QUICK)])]}
CLOCK_KEYS = {"virtual": ", clock: virtual, cpu_time: false}", "real": "}"}


def config_text(cfg, sched, clock):
    """E1 from configs/mw-e1-emulated.yaml; E2 is it with s = 50, a 100 Mb/s
    bus and c = w / 2 (notes s5); CLOCK the emulation's clock."""
    with open(SRC) as f:
        text = f.read()
    mbps = 100 if cfg == "E2" else 50
    values = {"scheduler": sched, "name": f"mw-{cfg.lower()}-{sched}", "timeout": 600,
              "emulate": f"{{mflops: 100, cycle_time: 1, bandwidth_mbps: {mbps}, network: bus"
                         + CLOCK_KEYS[clock]}
    if cfg == "E2":
        values.update({"blocks": "[10, 20, 50]", "block_time": 0.5})
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


def point(ctx, cfg, sched, clock):
    """The fastest of the point's runs: (report, HLMW fields), or None."""
    best = None
    for sub, label in timing.rep_labels(ctx, f"{cfg} {sched} ({clock} clock)"):
        outdir = os.path.join(ctx.runs, ID, f"{cfg.lower()}-{clock}", sched, sub)
        if os.path.isdir(outdir):
            shutil.rmtree(outdir)
        os.makedirs(outdir)
        path = os.path.join(outdir, "config.yaml")
        timing.write_atomic(path, config_text(cfg, sched, clock))
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


def judge(ctx, cfg, sched, clock, rows, table, meas):
    """Run one point; its rows and table line.  (result for ours, ok): ok is
    True when the point meets the notes' criteria (the ratio judged on the
    virtual clock only), None for a failed run."""
    got = point(ctx, cfg, sched, clock)
    if got is None:
        return None, clock != "virtual"
    rep, hl = got
    judged = clock == "virtual"
    tag = f"{cfg} {sched}" + ("" if judged else " (real clock)")
    sim = rep["predicted"]["time"]
    ratio = rep["time"] / sim
    meas[sched] = rep["time"]
    workers = int(hl["workers_used"]) if "workers_used" in hl else None
    bufs = int(hl["max_buffers"]) if "max_buffers" in hl else None
    table.append(f"| {cfg} | {clock} | {sched} | {sim:.3f} | {rep['time']:.3f} | {ratio:.3f} |"
                 f" {workers if workers is not None else '-'} |"
                 f" {bufs if bufs is not None else '-'} |")
    sim_ok = abs(sim / NOTES[cfg][sched] - 1) <= 1e-3
    rows.append((f"{tag}: simulated makespan (notes s5, 0.1%)",
                 f"{NOTES[cfg][sched]}", timing.fmt(sim, 4), sim_ok))
    mem_ok = bufs is not None and bufs <= M
    rows.append((f"{tag}: C checked, at most m = {M} buffers", "true", f"passed, {bufs}", mem_ok))
    ok = sim_ok and mem_ok
    if sched in JUDGED:
        in_range = LO <= ratio <= HI
        rows.append((f"{tag}: measured / simulated in [{LO}, {HI}]", "1", timing.fmt(ratio),
                     in_range if judged else None))
        ok = ok and (in_range or not judged)
    if sched == "holm":
        p_ok = workers == HOLM_P[cfg]
        rows.append((f"{tag}: workers used (P)", f"{HOLM_P[cfg]}", f"{workers}", p_ok))
        ok = ok and p_ok
    return {"simulated": timing.rnd(sim), "measured": timing.rnd(rep["time"], 3),
            "ratio": timing.rnd(ratio, 3), "workers_used": workers, "max_buffers": bufs}, ok


def main(argv):
    args = timing.parse([a if a != ID else "002-fig6-lu-lhpc" for a in argv])
    args["id"] = ID
    ctx = timing.Ctx(args)
    os.makedirs(ctx.runs, exist_ok=True)
    if not os.environ.get("EXP_REPS"):
        ctx.reps = 1   # the docstring says why
    if os.path.isdir(os.path.join(ctx.runs, ID)):
        shutil.rmtree(os.path.join(ctx.runs, ID))   # no stale points of the other mode
    paper, ours, rows = {}, {}, []
    table = ["| config | clock | scheduler | simulated (s) | measured (s) | measured / simulated |"
             " workers | max buffers |", "|---|---|---|--:|--:|--:|--:|--:|"]
    match = True
    for clock, plan in PLAN[ctx.mode]:
        for cfg, scheds in plan:
            key = cfg if clock == "virtual" else f"{cfg} (real clock)"
            paper.setdefault(cfg, {})   # the real clock's E1 keeps the virtual pass's seven
            ours[key], meas = {}, {}
            for sched in scheds:
                paper[cfg][sched] = NOTES[cfg][sched]
                res, ok = judge(ctx, cfg, sched, clock, rows, table, meas)
                match = match and ok
                if res is not None:
                    ours[key][sched] = res
            if cfg == "E1" and "holm" in meas and "orroml" in meas:
                d = abs(meas["holm"] / meas["orroml"] - 1)
                ok = d <= 0.06
                rows.append((f"E1 ({clock} clock): HoLM against ORROML, measured, relative"
                             " difference", "<= 0.06", timing.fmt(d),
                             ok if clock == "virtual" else None))
                match = match and (ok or clock != "virtual")
    note = ("The notes' scaled configurations (s5; the paper's own runs are lost): q = 64,"
            " 8 workers at 100 Mflop/s, m = 45, a bus (one port at the master), E1 at 50 Mb/s"
            " (c = w), E2 at 100 Mb/s with s = 50; `hetlaunch run` of hl-mw per scheduler,"
            " simulated = the block model's makespan in seconds (the report's predicted.time),"
            " judged under the virtual clock charging the flop models only (full mode adds"
            " E1's HoLM and ORROML under the real clock, a cross-check, reported; there this"
            " shared 2-core machine's load only adds time). " +
            (timing.reps_text(ctx) if ctx.reps > 1 else
             "One run per point: under the virtual clock the two runs of a point came out"
             " identical (README), and the real clock's rows are not judged.") +
            (" Quick mode: E1 with HoLM and ORROML only." if ctx.mode == "quick" else "") +
            " Under the virtual clock the demand-driven schedulers (ODDOML, DDOML) serve"
            " credits taken with MPI_ANY_SOURCE, which match in real order, not virtual"
            " (README, the virtual clock).")
    timing.emit(ctx, "003: E1 and E2 emulated, hl-mw against the block model", paper, ours,
                match, note, rows, "\n".join(table), False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

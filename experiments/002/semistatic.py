#!/usr/bin/env python3
"""experiments/002/semistatic.py -- the timing id 002-semistatic of experiments/run.

    semistatic.py 002-semistatic --mode quick|full --ids DIR --runs DIR --hetlaunch PATH

Paper 002 s4.5's semi-static strategy, emulated: three machines
that really run at 240, 120 and 60 Mflop/s (emulate_mflops) but whose YAML
says they are equal (tests/e2e/adapt/wrong-speeds.yaml).  `hetlaunch run
--adapt K` plans phase 1 on the YAML and every later phase on the speeds
the phase before measured; the reference is one run planned on the true
speeds (tests/e2e/adapt/true-speeds.yaml).  The criterion: phase 2
faster than phase 1 and within 10% of the reference.  The paper has no
numbers for it: timings are reported, not asserted.

The runs are under the virtual clock with the flop models only
(`emulate: {clock: virtual, cpu_time: false}` added to copies of the two
configs in the run directories): nothing sleeps, the times do not depend on
this computer's load, so one run of each.  EXP_CLOCK=real runs the configs
as they are, under the real clock, where all runs share one figure for
this computer's speed (HETLAUNCH_HOST_MFLOPS, default 2500) and the
true-speed run is the fastest of the mode's repetitions.  Same interface and
pieces as experiments/timing.py, whose helpers it uses.
"""

import os
import shutil
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import timing  # noqa: E402  (experiments/timing.py)

ID = "002-semistatic"
WRONG = "tests/e2e/adapt/wrong-speeds.yaml"
TRUE = "tests/e2e/adapt/true-speeds.yaml"
PHASES = {"quick": 2, "full": 3}
TOL = 0.10
N = 1024   # the configs' n


def run(ctx, argv, outdir, label):
    if os.path.isdir(outdir):
        shutil.rmtree(outdir)
    t0 = time.monotonic()
    doc, err = timing.hetlaunch(ctx, ["run"] + argv, outdir)
    took = time.monotonic() - t0
    if doc is None or err:
        ctx.failures.append(f"{label}: hetlaunch {' '.join(argv)}: {err} (see {outdir})")
        timing.progress(f"{label}: FAILED ({err}) [{took:.0f} s]")
        return None
    timing.progress(f"{label}: done [{took:.0f} s]")
    return doc


def configs(ctx, base):
    """The two configs the runs use: as they are under the real clock, else
    copies with the virtual clock's keys (timing.sized_config; n unchanged)."""
    if ctx.emulate002 is None:
        return WRONG, TRUE
    got = []
    for src, sub in ((WRONG, "config-wrong"), (TRUE, "config-true")):
        got.append(timing.sized_config(src, os.path.join(base, sub), N, None, ctx.emulate002,
                                       False))
    return tuple(got)


def main(argv):
    args = timing.parse([a if a != ID else "002-fig6-lu-lhpc" for a in argv])
    args["id"] = ID
    ctx = timing.Ctx(args)
    os.environ.setdefault("HETLAUNCH_HOST_MFLOPS", "2500")
    base = os.path.join(ctx.runs, ID)
    K = PHASES[ctx.mode]
    if os.path.isdir(base):
        shutil.rmtree(base)
    wrong, true = configs(ctx, base)
    reps = timing.REPS[ctx.mode] if "EXP_REPS" not in os.environ else int(os.environ["EXP_REPS"])
    if ctx.emulate002 is not None and "EXP_REPS" not in os.environ:
        reps = 1   # the virtual clock: the same times whatever the load
    refs, true_plan = [], {}
    for r in range(reps):
        doc = run(ctx, [true], os.path.join(base, f"true{r + 1}"), f"true speeds, run {r + 1}")
        if doc is not None and timing.report_ok(doc):
            refs.append(doc["results"][0]["time"])
            true_plan = {}
            for x in doc["ranks"]:
                true_plan[x["machine"]] = true_plan.get(x["machine"], 0) + 1
    ad = run(ctx, [wrong, "--adapt", str(K)], os.path.join(base, "adapt"), f"--adapt {K}")
    paper = {"phase 2 < phase 1": True, "phase 2 / true-speed run": f"<= {1 + TOL}"}
    ours, rows, match = {}, [], False
    table = ["| phase | plan (processes per machine) | cycle times planned on (relative) | time (s) |",
             "|---|---|---|--:|"]
    if ad is not None and refs:
        ph = ad["phases"]
        ref = min(refs)
        t1, t2 = ph[0]["time"], ph[1]["time"]
        match = t2 < t1 and t2 <= (1 + TOL) * ref
        ours = {"phases": [p["time"] for p in ph], "true_speed_run": ref,
                "phase2_over_true": timing.rnd(t2 / ref, 3), "plans": [p["plan"] for p in ph]}
        rows.append(("phase 2 faster than phase 1", "true", timing.fmt(t2 / t1, 3) + " (ratio)",
                     t2 < t1))
        rows.append(("phase 2 within 10% of the true-speed run", f"<= {1 + TOL}",
                     timing.fmt(t2 / ref, 3), t2 <= (1 + TOL) * ref))
        for k, p in enumerate(ph):
            tmin = min(p["cycle_times"].values())
            rel = ", ".join(f"{m} {t / tmin:.2f}" for m, t in p["cycle_times"].items())
            plan = ", ".join(f"{m} {c}" for m, c in p["plan"].items())
            table.append(f"| {k + 1} | {plan} | {rel} | {p['time']:.3f} |")
        plan = ", ".join(f"{m} {c}" for m, c in true_plan.items())
        table.append(f"| true speeds | {plan} | fast 1.00, mid 2.00, slow 4.00 | {ref:.3f} |")
    note = (f"LU (hl-driver), n = 1024, nb = 32, B = 7, emulated machines of 240, 120 and 60 Mflop/s"
            f" that the YAML says are equal; {K} phases; the true-speed run is the fastest of"
            f" {reps}. Phase 1 is planned on the wrong speeds (3, 2, 2 processes), phase 2 on the"
            " speeds phase 1 measured (an emulated run's report books each machine's compute"
            " exactly; calibrate --from reads the same). " +
            ("Virtual clock, flop models only (`clock: virtual, cpu_time: false`): the"
             " times do not depend on this computer's load." if ctx.emulate002 is not None else
             "Real clock (EXP_CLOCK=real): this 2-core machine is shared, which only adds time."))
    timing.emit(ctx, "002 s4.5: the semi-static strategy, wrong speeds re-measured between phases",
                paper, ours, match, note, rows, "\n".join(table), False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

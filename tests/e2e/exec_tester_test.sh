#!/usr/bin/env bash
# exec_tester_test.sh -- a stock ScaLAPACK tester run as the user's own
# program (kernel: exec), as doc/guide.md's walkthrough does it
# (configs/own-program-xdqr.yaml: Debian's xdqr, its QR.dat from the
# template own-program-QR.dat by inputs:):
#   * run: the deck has the plan's grid; the result is xdqr's own "Fact
#     Time" and PASSED read from its lines, not the job's wall time;
#   * result: patterns read the same lines; a FAILED line (threshold 0 in
#     the deck) fails the run, exit 1;
#   * compare: the speedup is the ratio of the two runs' program times;
#     under the virtual clock too (the program's clock reads are virtual),
#     (measured here 1.06-1.10 against a predicted 1.19; cpu_time stays on
#     for exec, so the load of the machine shows: not asserted).
# Run from the repository root; HETLAUNCH names the binary.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-exec-tester-test.XXXXXX
XDQR=/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests/xdqr
if [ ! -x "$XDQR" ]; then
	bad "no $XDQR (scalapack-mpi-test: scripts/install-deps)"; echo "$pass passed, $fail failed"; exit 1
fi
cp configs/own-program-xdqr.yaml configs/own-program-QR.dat "$tmp/"

# The Fact Time and CHECK of xdqr's result line in a log.
fact() { awk '$1 == "WALL" && NF >= 10 { print $8, $10; exit }' "$1"; }

# --- run: xdqr's own time and verdict ----------------------------------------------
timeout 300 "$HETLAUNCH" run "$tmp/own-program-xdqr.yaml" --quiet --out "$tmp/run" >/dev/null 2>"$tmp/err"
rc=$?
got=$(json "$tmp/run/report.json" 'd["passed"], d["results"][0]["time"], d["results"][0]["check"], d["results"][0].get("time_source", "program")' 2>&1)
want="True $(fact "$tmp/run/log.txt" | awk '{ printf "%g %s", $1, $2 }') program"
if [ $rc -eq 0 ] && [ "$(awk '{ printf "%s %g %s %s", $1, $2, $3, $4 }' <<<"$got")" = "$want" ] &&
	grep -q "^1 *values of P" "$tmp/run/QR.dat" && grep -q "^4 *values of Q" "$tmp/run/QR.dat"; then
	ok "run: xdqr's own Fact Time and PASSED ($got), its deck on the plan's 1 x 4"
else bad "run xdqr as exec: exit $rc, got '$got', want '$want': $(tail -3 "$tmp/err")"; fi

# --- result: patterns, and a FAILED line ----------------------------------------------
cat >>"$tmp/own-program-xdqr.yaml" <<'YAML'
result:
  time: '^WALL +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +([0-9.]+) '
  passed: ' PASSED '
  failed: ' FAILED '
YAML
timeout 300 "$HETLAUNCH" run "$tmp/own-program-xdqr.yaml" --quiet --out "$tmp/pat" >/dev/null 2>"$tmp/err"
rc=$?
got=$(json "$tmp/pat/report.json" 'd["passed"], d["results"][0]["time"]' 2>&1)
want="True $(fact "$tmp/pat/log.txt" | awk '{ printf "%g", $1 }')"
if [ $rc -eq 0 ] && [ "$(awk '{ printf "%s %g", $1, $2 }' <<<"$got")" = "$want" ]; then
	ok "result: patterns read xdqr's time and PASSED ($got)"
else bad "result: patterns: exit $rc, got '$got', want '$want': $(tail -3 "$tmp/err")"; fi
sed -i 's/^16.0 /0.0  /' "$tmp/own-program-QR.dat"
timeout 300 "$HETLAUNCH" run "$tmp/own-program-xdqr.yaml" --quiet --out "$tmp/failed" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -eq 1 ] && grep -q " FAILED " "$tmp/failed/log.txt" &&
	[ "$(json "$tmp/failed/report.json" 'd["passed"]')" = False ]; then
	ok "result: a FAILED line fails the run (exit 1)"
else bad "result: FAILED: exit $rc: $(tail -3 "$tmp/err")"; fi

# --- compare: the speedup of the program's own times ----------------------------------------
cp configs/own-program-QR.dat "$tmp/"
timeout 600 "$HETLAUNCH" compare configs/own-program-xdqr.yaml --quiet --out "$tmp/cmp" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -le 1 ] && python3 - "$tmp/cmp" <<'PY'; then
import json, sys
d = sys.argv[1]
c, h = (json.load(open(f"{d}/{m}/report.json")) for m in ("cyclic", "hetero"))
s = json.load(open(f"{d}/compare.json"))["speedup"]
facts = []
for m in ("cyclic", "hetero"):
    line = next(l for l in open(f"{d}/{m}/log.txt") if l.split()[:1] == ["WALL"])
    facts.append(float(line.split()[7]))
assert [c["results"][0]["time"], h["results"][0]["time"]] == facts, facts
assert "time_source" not in c["results"][0], c["results"][0]
assert abs(s - c["time"] / h["time"]) < 1e-9 * s, (s, c["time"], h["time"])
PY
	ok "compare: the speedup is the program's own times' ($(json "$tmp/cmp/compare.json" 'round(d["speedup"], 2)'))"
else bad "compare xdqr as exec: exit $rc: $(tail -3 "$tmp/err")"; fi

# --- the same under the virtual clock: one mechanism for both clocks ----------------------
sed 's/^emulate: {mflops: 100}/emulate: {mflops: 100, clock: virtual}/' configs/own-program-xdqr.yaml \
	>"$tmp/own-program-xdqr.yaml"
timeout 600 "$HETLAUNCH" compare "$tmp/own-program-xdqr.yaml" --quiet --out "$tmp/vcmp" >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc -le 1 ] && python3 - "$tmp/vcmp" <<'PY'; then
import json, sys
d = sys.argv[1]
c, h = (json.load(open(f"{d}/{m}/report.json")) for m in ("cyclic", "hetero"))
s = json.load(open(f"{d}/compare.json"))["speedup"]
assert c["time_clock"] == h["time_clock"] == "virtual", (c["time_clock"], h["time_clock"])
assert "time_source" not in c["results"][0] and "time_source" not in h["results"][0]
assert abs(s - c["time"] / h["time"]) < 1e-9 * s, (s, c["time"], h["time"])
PY
	ok "compare under the virtual clock: the program's own virtual times, speedup $(json "$tmp/vcmp/compare.json" 'round(d["speedup"], 2)')"
else bad "compare xdqr, virtual clock: exit $rc: $(tail -3 "$tmp/err")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

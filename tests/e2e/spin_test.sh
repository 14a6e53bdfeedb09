#!/usr/bin/env bash
# spin_test.sh -- programs that poll their clock under emulate: {clock:
# virtual}: tests/e2e/mpi/spin reads each clock (MPI_Wtime, clock_gettime
# CLOCK_MONOTONIC and CLOCK_REALTIME, gettimeofday) until it changes, waits
# 10 ms by polling, and checks 1000 reads in a row strictly increase.  Under
# cpu_time: false nothing else moves the clock, so before the runtime's poll
# tick every such run waited for its timeout.  Both MPIs (MPICH; Open MPI
# with its own runtime build), both settings of cpu_time.
# Run from the repository root; HETLAUNCH names the binary, OBJ the build.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
OBJ=${OBJ:-build/release}
. "$(dirname "$0")/../lib.sh"
make_tmp /tmp/hetlaunch-spin-test.XXXXXX

spin_yaml() {  # spin_yaml NAME MPI PROGRAM CLOCK CPU_TIME
	cat >"$tmp/$1.yaml" <<YAML
name: $1
machines:
  - {name: fast, cycle_time: 1}
  - {name: slow, cycle_time: 2}
B: 3
n: 64
nb: 16
kernel: exec
mpi: $2
program: $(realpath "$3")
args: [$4]
emulate: {clock: virtual, mflops: 1000, cycle_time: 1, latency_us: 10, bandwidth_mbps: 1000, cpu_time: $5}
timeout: 40
YAML
}

# each rank's line: changed > 0, 10 ms <= waited < 15 ms (the ticks double up
# to 1 ms, so the wait overshoots by at most one tick; on the slow machine
# the two ranks share the processor, which stretches each tick up to 2 ms),
# monotonic
spin_ok() {
	python3 - "$1" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("spin ")]
ok = len(lines) == 3
for l in lines:
    f = dict(kv.split("=") for kv in l.split()[1:])
    ok &= float(f["changed"]) > 0 and 0.01 <= float(f["waited"]) < 0.015 and f["monotonic"] == "1"
sys.exit(0 if ok else 1)
PY
}

for mpi in mpich openmpi; do
	prog=$OBJ/tests/e2e/mpi/spin
	[ $mpi = openmpi ] && prog=$OBJ/tests/e2e/mpi-openmpi/spin
	for clock in wtime monotonic realtime tod; do
		for cpu in false true; do
			name=spin-$mpi-$clock-$cpu
			spin_yaml "$name" $mpi "$prog" $clock $cpu
			timeout 90 "$HETLAUNCH" run "$tmp/$name.yaml" --quiet --out "$tmp/$name" \
				>"$tmp/out" 2>"$tmp/err"
			rc=$?
			if [ $rc -eq 0 ] && spin_ok "$tmp/$name/log.txt"; then
				ok "$mpi, $clock, cpu_time: $cpu: the polls see the clock move ($(grep -m1 '^spin ' "$tmp/$name/log.txt" | cut -d' ' -f4-5))"
			else
				bad "$mpi, $clock, cpu_time: $cpu: exit $rc: $(grep '^spin ' "$tmp/$name/log.txt" 2>/dev/null | head -3; tail -2 "$tmp/err")"
			fi
		done
	done
done

# The same virtual time on a second run: the ticks are deterministic.
spin_yaml again mpich "$OBJ/tests/e2e/mpi/spin" wtime false
"$HETLAUNCH" run "$tmp/again.yaml" --quiet --out "$tmp/again" >/dev/null 2>&1
a=$(grep '^spin ' "$tmp/spin-mpich-wtime-false/log.txt" | sort)
b=$(grep '^spin ' "$tmp/again/log.txt" | sort)
if [ -n "$a" ] && [ "$a" = "$b" ]; then ok "cpu_time: false: the same times on a second run"
else bad "cpu_time: false: two runs differ: $a / $b"; fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

#!/usr/bin/env bash
# rt_san_test.sh -- the preloaded runtime under AddressSanitizer and UBSan
# (make VARIANT=san rt-san, part of make VARIANT=san check).
#
# The runtime is loaded into programs that were not built with sanitizers,
# so its ordinary build has none; PRELOAD_SAN is a sanitized copy.  ASan's
# library must come first in a process's list of libraries (its malloc must
# win over the C library's), so the copy runs two ways:
#   * preloaded after libasan, LD_PRELOAD="libasan.so PRELOAD_SAN", into
#     the unsanitized patterns program under mpiexec.hydra (the bindings,
#     the waits and the communicator state, without a segment);
#   * through `hetlaunch run` (HETLAUNCH_PRELOAD=PRELOAD_SAN) into the
#     sanitized patterns program PATTERNS_SAN, emulated in real time and
#     under the virtual clock (the core: emulation, clocks, ordering).
#     There libasan comes with the program, after the preload: hence
#     verify_asan_link_order=0 (the runtime defines no malloc, so ASan's
#     still wins).
# ASAN_OPTIONS: detect_leaks=0, because MPICH keeps allocations to the end
# of the process by design (LeakSanitizer would report them in every rank).
# Any sanitizer report ends the rank (-fno-sanitize-recover=all, ASan's
# halt_on_error) and is looked for in the output besides.
#
# Run from the repository root with HETLAUNCH, OBJ, PRELOAD_SAN and
# PATTERNS_SAN set (the Makefile's rt-san target).
set -u
. "$(dirname "$0")/../lib.sh"

HETLAUNCH=${HETLAUNCH:-build/san/bin/hetlaunch}
OBJ=${OBJ:-build/san}
PRELOAD_SAN=${PRELOAD_SAN:-}
PATTERNS_SAN=${PATTERNS_SAN:-}
PATTERNS=$OBJ/tests/e2e/mpi/patterns
if [ ! -f "$PRELOAD_SAN" ] || [ ! -x "$PATTERNS_SAN" ]; then
	echo "rt_san_test.sh: PRELOAD_SAN and PATTERNS_SAN must name the sanitized builds" \
	     "(make VARIANT=san rt-san)" >&2
	exit 2
fi
PRELOAD_SAN=$(realpath "$PRELOAD_SAN")
ASAN=$(${CC:-cc} -print-file-name=libasan.so)
export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0
export UBSAN_OPTIONS=print_stacktrace=1
make_tmp

sanitizer_quiet() {  # FILE...: no sanitizer report in them
	! grep -hE 'Sanitizer|runtime error:' "$@" 2>/dev/null
}

check "the sanitized runtime links libasan" \
	sh -c "ldd '$PRELOAD_SAN' | grep -q libasan"

# --- 1. preloaded after libasan into an unsanitized program ----------------
mkdir -p "$tmp/plain" "$tmp/pre"
timeout 120 mpiexec.hydra -n 4 "$PATTERNS" "$tmp/plain" >/dev/null 2>&1
LD_PRELOAD="$ASAN $PRELOAD_SAN" HETLAUNCH_PLACEMENT=1 timeout 120 \
	mpiexec.hydra -n 4 "$PATTERNS" "$tmp/pre" >"$tmp/pre.out" 2>&1
rc=$?
n=$(cat "$tmp/pre"/rank-*.txt 2>/dev/null | wc -l)
loaded=$(grep -c '^hetlaunch-placement:' "$tmp/pre.out")
if [ $rc -eq 0 ] && [ "$n" -gt 0 ] && [ "$loaded" -eq 4 ] &&
   diff -r "$tmp/plain" "$tmp/pre" >/dev/null && sanitizer_quiet "$tmp/pre.out"; then
	ok "patterns, 4 ranks, LD_PRELOAD=\"libasan.so sanitized runtime\": clean, $n lines bit-identical"
else
	bad "patterns under the sanitized preload: exit $rc, $loaded ranks loaded it, $n lines"
	head -40 "$tmp/pre.out"
fi

# --- 2. through hetlaunch run, emulated -------------------------------------
emulated() {  # WHAT EMULATE
	local what=$1 dir=$tmp/$1
	mkdir -p "$dir"
	patterns_yaml "$(realpath "$PATTERNS_SAN")" "$dir" "$2"
	HETLAUNCH_PRELOAD=$PRELOAD_SAN timeout 300 "$HETLAUNCH" run "$tmp/patterns.yaml" --quiet \
		--out "$tmp/run-$what" >"$tmp/$what.out" 2>&1
	rc=$?
	loaded=$(grep -c '^hetlaunch-placement:' "$tmp/run-$what/log.txt" 2>/dev/null)
	if [ $rc -eq 0 ] && [ "$loaded" -eq 4 ] && diff -r "$tmp/plain" "$dir" >/dev/null &&
	   sanitizer_quiet "$tmp/$what.out" "$tmp/run-$what/log.txt"; then
		ok "hetlaunch run, $what, sanitized runtime and program: clean, bit-identical"
	else
		bad "hetlaunch run, $what: exit $rc, $loaded ranks loaded the runtime"
		cat "$tmp/$what.out"; grep -hE -A30 'Sanitizer|runtime error:' "$tmp/run-$what/log.txt" | head -60
	fi
}
emulated real-time "{latency_us: 50, bandwidth_mbps: 1000}"
emulated virtual-clock "{mflops: 1000, cycle_time: 1, latency_us: 50, bandwidth_mbps: 1000, clock: virtual}"

echo "rt_san_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

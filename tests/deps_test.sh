#!/usr/bin/env bash
# deps_test.sh -- scripts/check-deps: passes on scripts/packages.txt, and
# fails, naming the package and where it is called, on a list that lacks a
# package the code calls (hpcc, which kernel: hpl runs as /usr/bin/hpcc; time,
# which safety_test.sh runs as /usr/bin/time; gnuplot-nox, which compare
# starts as "gnuplot").  Run from the repository root.
set -u
. "$(dirname "$0")/lib.sh"
make_tmp /tmp/hetlaunch-deps-test.XXXXXX

out=$(scripts/check-deps 2>&1); rc=$?
if [ $rc -eq 0 ]; then ok "check-deps: every program and library from a listed package"
else bad "check-deps on scripts/packages.txt: exit $rc: $out"; fi

without() {  # without PACKAGE PATTERN: the list less PACKAGE must fail with PATTERN
	grep -v "^$1 " scripts/packages.txt >"$tmp/list-$1"
	out=$(scripts/check-deps --packages "$tmp/list-$1" 2>&1); rc=$?
	if [ $rc -eq 1 ] && grep -q "$2.*comes from package $1, which $tmp/list-$1 does not list" <<<"$out"
	then ok "check-deps without $1: exit 1, names it ($(grep -c "package $1," <<<"$out") calls)"
	else bad "check-deps without $1: exit $rc: $out"; fi
}
without hpcc "/usr/bin/hpcc"
without time "/usr/bin/time"
without gnuplot-nox "gnuplot"

scripts/check-deps --packages "$tmp/none" >/dev/null 2>&1; rc=$?
if [ $rc -eq 2 ]; then ok "check-deps --packages MISSING: exit 2"; else bad "check-deps --packages MISSING: exit $rc"; fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

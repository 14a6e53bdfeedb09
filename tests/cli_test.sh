#!/usr/bin/env bash
# cli_test.sh -- end-to-end tests of the hetlaunch command:
#   * every tests/bad/*.yaml is refused with exit 2, nothing on stdout, and
#     the message its first line announces ("# expect: LINE:COL: text"),
#     at FILE:LINE:COL (0:0 means the message names the file only);
#   * golden output: `hetlaunch plan` (text and --json) on configs/*.yaml
#     and tests/good/*.yaml equals tests/golden/ (UPDATE_GOLDEN=1 rewrites);
#   * usage errors and --help/--version.
# Run from the repository root; HETLAUNCH names the binary under test.
set -u
HETLAUNCH=${HETLAUNCH:-bin/hetlaunch}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# --- malformed input ---------------------------------------------------------
for f in tests/bad/*.yaml; do
	expect=$(sed -n '1s/^# expect: //p' "$f")
	loc=${expect%%: *}
	text=${expect#*: }
	"$HETLAUNCH" plan "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$loc" = "0:0" ]; then prefix="$f: "; else prefix="$f:$loc: "; fi
	if [ $rc -ne 2 ]; then
		bad "$f: exit $rc, want 2"; cat "$tmp/err"
	elif [ -s "$tmp/out" ]; then
		bad "$f: wrote to stdout"
	elif ! grep -qF -- "$prefix$text" "$tmp/err"; then
		bad "$f: want '$prefix$text', got:"; cat "$tmp/err"
	else
		ok
	fi
done

# A file that does not exist names itself.
"$HETLAUNCH" plan tests/bad/no-such-file.yaml >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && grep -qF "tests/bad/no-such-file.yaml: cannot open: No such file" "$tmp/err"; then ok
else bad "missing file: exit $rc: $(cat "$tmp/err")"; fi

# --- golden output -----------------------------------------------------------
for f in configs/*.yaml tests/good/*.yaml; do
	base=$(basename "$f" .yaml)
	for mode in text json; do
		if [ $mode = json ]; then args=(plan "$f" --json); ext=json; else args=(plan "$f"); ext=txt; fi
		golden="tests/golden/$base.plan.$ext"
		"$HETLAUNCH" "${args[@]}" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		if [ $rc -ne 0 ]; then bad "$f ($mode): exit $rc: $(cat "$tmp/err")"; continue; fi
		if [ -s "$tmp/err" ]; then bad "$f ($mode): wrote to stderr: $(cat "$tmp/err")"; continue; fi
		if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/out" "$golden"; fi
		if [ ! -f "$golden" ]; then bad "$golden is missing (UPDATE_GOLDEN=1 makes it)"; continue; fi
		if diff -u "$golden" "$tmp/out" >"$tmp/diff"; then ok; else bad "$f ($mode) differs from $golden"; head -40 "$tmp/diff"; fi
	done
	# --json prints one JSON object and nothing else
	"$HETLAUNCH" plan "$f" --json >"$tmp/out" 2>/dev/null
	if [ "$(head -c1 "$tmp/out")" = "{" ] && [ "$(tail -n1 "$tmp/out")" = "}" ]; then ok
	else bad "$f: --json output is not a single object"; fi
done

# --- usage ---------------------------------------------------------------------
expect_rc() {  # expect_rc WANT DESCRIPTION ARGS...
	local want=$1 what=$2; shift 2
	"$HETLAUNCH" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq "$want" ]; then ok; else bad "$what: exit $rc, want $want"; fi
}
expect_rc 0 "--help" --help
grep -q "^usage: hetlaunch" "$tmp/out" && ok || bad "--help prints no usage"
expect_rc 0 "--version" --version
grep -q "^hetlaunch [0-9]" "$tmp/out" && ok || bad "--version prints no version"
expect_rc 2 "no arguments"
expect_rc 2 "unknown option" --frobnicate
expect_rc 2 "plan without FILE" plan
expect_rc 2 "plan unknown option" plan configs/lhpc-lu.yaml --jsn
expect_rc 2 "plan two files" plan configs/lhpc-lu.yaml configs/lip-lu.yaml
expect_rc 0 "plan -- FILE" plan --json -- configs/lhpc-lu.yaml

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]

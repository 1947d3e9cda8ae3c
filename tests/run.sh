#!/bin/sh
# Runs every test program of build dir $1, the layer check and the
# end-to-end scripts with program $2, TEST_JOBS at a time (default: the
# number of processors, at most 4).  Each test's output goes to a log that
# is printed only when it fails; one line per test says ok/FAIL and its
# wall seconds, then the slowest five, then one closing line
# "check: N passed, N failed".
B=${1:-build}
PROG=${2:-./gpuplan}
JOBS=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$JOBS" -gt 4 ] 2>/dev/null && JOBS=4
# The dashboard keeps settings under $XDG_CONFIG_HOME: each test gets its
# own, so neither the user's nor one test's choices leak into another.

# POSIX sh cannot hand a function to xargs: each job runs this script
# again with RUN_ONE set to its test, under the parent's $WORK.
if [ "${RUN_ONE:-}" ]; then
    RUN_ONE_MODE=1
else
    WORK=$(mktemp -d /tmp/gpuplan-check-XXXXXX)
    trap 'rm -rf "$WORK"' EXIT
    export WORK
fi

# The slow end-to-end scripts start first so the tail of the run is short.
[ "${RUN_ONE_MODE:-}" ] || {
    for t in tests/e2e_*.sh; do [ -f "$t" ] && echo "$t"; done
    for t in "$B"/tests/test_*; do [ -x "$t" ] && echo "$t"; done
    echo tests/layers.sh
} > "$WORK/list"

run_one() {
    t=$1
    id=$(echo "$t" | tr '/' '_')
    start=$(date +%s%N)
    case $t in
        tests/layers.sh) sh "$t" ;;
        *.sh) GPUPLAN="$PROG" sh "$t" ;;
        *) "$t" ;;
    esac > "$WORK/$id.log" 2>&1 </dev/null
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    # One write per test, so lines of jobs running at once do not mix.
    if [ "$rc" -eq 0 ]; then
        printf 'ok   %6d.%ds %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$t"
    else
        printf 'FAIL %6d.%ds %s (exit %d)\n' $((ms / 1000)) $((ms % 1000 / 100)) "$t" "$rc"
        sed 's/^/    | /' "$WORK/$id.log"
    fi > "$WORK/$id.line"
    cat "$WORK/$id.line"
    echo "$ms $rc $t" >> "$WORK/results"
}

if [ "${RUN_ONE_MODE:-}" ]; then
    XDG_CONFIG_HOME="$WORK/config/$(echo "$RUN_ONE" | tr '/' '_')" run_one "$RUN_ONE"
    exit 0
fi

mkdir -p "$WORK/config"
: > "$WORK/results"
xargs -P "$JOBS" -I{} env RUN_ONE={} sh "$0" "$B" "$PROG" < "$WORK/list"

pass=$(awk '$2 == 0' "$WORK/results" | wc -l)
fail=$(awk '$2 != 0' "$WORK/results" | wc -l)
total=$(wc -l < "$WORK/list")
missing=$((total - pass - fail))
echo "slowest:"
sort -rn "$WORK/results" | head -5 | awk '{ printf "  %6.1fs %s\n", $1 / 1000, $3 }'
failed=$(awk '$2 != 0 { printf " %s", $3 }' "$WORK/results")
if [ "$missing" -gt 0 ]; then
    fail=$((fail + missing)); failed="$failed (and $missing that never reported)"
fi
[ -n "$failed" ] && echo "failed:$failed"
echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

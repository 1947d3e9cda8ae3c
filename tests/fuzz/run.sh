#!/bin/sh
# tests/fuzz/run.sh — runs every libFuzzer harness built in $1/fuzz for $2
# seconds each, $3 at a time (`make fuzz` calls it after building them).
#
# For each harness: writes its seed inputs from tests/fixtures/ into
# $1/seeds/NAME (the harness does it when GPUPLAN_FUZZ_SEEDS is set), then
# fuzzes with $1/corpus/NAME (kept between runs), the seeds and the inputs
# of fixed findings in tests/fuzz/regressions/NAME as corpus;
# a crash, leak, sanitizer report, timeout or out-of-memory is written to
# $1/crashes/NAME-* and the log to $1/logs/NAME.log.  Prints one line per
# harness (executions, result) and exits non-zero when any found something.
#
# Replay a finding:  $1/fuzz/NAME $1/crashes/NAME-crash-...
set -u
B=${1:-build-fuzz}
SECS=${2:-60}
JOBS=${3:-2}

if [ "$B" = "--one" ]; then
    # --one B SECS HARNESS: one harness, status in $B/logs/NAME.rc
    B=$2; SECS=$3; bin=$4
    name=$(basename "$bin")
    rm -rf "$B/seeds/$name"
    if ! GPUPLAN_FUZZ_SEEDS="$B/seeds/$name" "$bin" >"$B/logs/$name.log" 2>&1; then
        echo 1 >"$B/logs/$name.rc"
        exit 0
    fi
    mkdir -p "$B/corpus/$name" "$B/tmp/$name"
    # Inputs of fixed findings are read (so run) first, with the seeds.
    regressions=""
    [ -d "tests/fuzz/regressions/$name" ] && regressions="tests/fuzz/regressions/$name"
    TMPDIR="$B/tmp/$name" "$bin" -max_total_time="$SECS" -timeout=25 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/crashes/$name-" \
        "$B/corpus/$name" "$B/seeds/$name" $regressions >"$B/logs/$name.log" 2>&1
    echo $? >"$B/logs/$name.rc"
    rm -rf "$B/tmp/$name"
    exit 0
fi

mkdir -p "$B/crashes" "$B/corpus" "$B/seeds" "$B/logs" "$B/tmp"
rm -f "$B"/logs/*.rc
bins=$(ls "$B"/fuzz/fuzz_* 2>/dev/null | grep -v '\.d$')
[ -n "$bins" ] || { echo "fuzz: no harness in $B/fuzz"; exit 1; }
echo "fuzz: $(echo "$bins" | wc -l) harnesses, ${SECS}s each, $JOBS at a time"
echo "$bins" | xargs -n 1 -P "$JOBS" sh "$0" --one "$B" "$SECS"

failed=0
for bin in $bins; do
    name=$(basename "$bin")
    rc=$(cat "$B/logs/$name.rc" 2>/dev/null || echo 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/logs/$name.log" | tail -n 1)
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="FOUND (exit $rc): $(ls "$B/crashes/$name"-* 2>/dev/null | tr '\n' ' ')"
        failed=$((failed + 1))
    fi
    printf '%-22s %10s execs  %s\n' "$name" "${execs:-?}" "$result"
    [ "$rc" -eq 0 ] || grep -E 'ERROR|SUMMARY|failed without|abort' "$B/logs/$name.log" | head -n 5
done
echo "fuzz: $failed of $(echo "$bins" | wc -l) harnesses found a problem (logs in $B/logs)"
[ "$failed" -eq 0 ]

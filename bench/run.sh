#!/bin/sh
# Runs every benchmark program of build dir $1 (bench/bench_*.c, built by
# `make bench`) from the project root and prints their reports.  Benchmarks
# report ratios against a reference measured in the same run, because the
# machines are shared and noisy.
B=${1:-build}
status=0
for b in "$B"/bench/bench_*; do
    [ -x "$b" ] || continue
    echo "== $(basename "$b")"
    "$b" || status=1
done
exit $status

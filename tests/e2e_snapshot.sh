#!/bin/sh
# End-to-end test of `gpuplan snapshot`: a saved run's state at one instant
# becomes a snapshot that lists, shows, exports and re-imports.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_snapshot.sh  (run from the project root)
set -u
NAME=e2e_snapshot
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set cats-testbed "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"
expect_rc 0 "run" "$G" --format csv run --trace cats-testbed --cluster cats-testbed \
    --policy corrgpu
id=$(sed -n 2p "$T/out" | awk -F, '{print $NF}')
[ -n "$id" ] && [ "$id" -gt 0 ] && ok "run saved as $id" || bad "no run id in output"

# At t=30 s the eight stage-1 tasks (arrivals 0..23 s, durations >= 300 s) run.
expect_rc 0 "snapshot" "$G" snapshot --run "$id" --at 30 --name stage1
contains "$T/out" "snapshot 'stage1': 8 running task(s) on cluster 'cats-testbed'" \
    "the stage-1 tasks are running"
expect_rc 0 "list" "$G" list snapshots
contains "$T/out" "stage1" "snapshot listed"
expect_rc 0 "show" "$G" --format csv show snapshot stage1
rows=$(($(wc -l < "$T/out") - 1))
[ "$rows" -eq 8 ] && ok "one placement per running single-GPU task" || bad "$rows placements"
expect_rc 1 "again refused" "$G" snapshot --run "$id" --at 30 --name stage1
expect_rc 0 "again with --replace" "$G" snapshot --run "$id" --at 495 --name stage1 --replace
contains "$T/out" "0 running task(s)" "between the stages (all of stage 1 ends by 500 s) nothing runs"
expect_rc 0 "export" "$G" export snapshot stage1 --out "$T/snap"
[ -f "$T/snap/placements.csv" ] && ok "placements.csv written" || bad "no placements.csv"

expect_rc 2 "missing --at" "$G" snapshot --run "$id"
expect_rc 2 "bad --at" "$G" snapshot --run "$id" --at soon
expect_rc 1 "unknown run" "$G" snapshot --run 9999 --at 1
contains "$T/err" "no run with id 9999" "unknown run message"
e2e_finish

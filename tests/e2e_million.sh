#!/bin/sh
# End-to-end test of large traces through the command line: `generate
# trace --series` stored and written as a native CSV set, the same jobs
# either way; the set imported (streamed) back; bad --series refused; a run
# sampled finer than a saved run keeps saving at most 4,000 timeline
# points, with the same figures reopened.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_million.sh  (run from the project root)
set -u
NAME=e2e_million
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set gavel-like --set cats-testbed "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

GEN="generate trace --tput gavel-like --jobs 50 --series 10-20 --seed 7"
expect_rc 0 "generate with series, stored" "$G" $GEN --name stored
contains "$T/out" "series of 10 to 20 samples" "the summary names the series"
expect_rc 0 "generate with series, as files" "$G" $GEN --out "$T/set"
contains "$T/out" "written to $T/set" "the summary names the directory"
rows=$(($(wc -l < "$T/set/util.csv") - 1))
if [ "$rows" -ge 500 ] && [ "$rows" -le 1000 ]; then ok "util.csv holds 10 to 20 samples a job"
else bad "util.csv holds $rows samples for 50 jobs"; fi
expect_rc 0 "import the set" "$G" import --name imported "$T/set"
contains "$T/out" "50 tasks, $rows samples" "the import reads every task and sample"
expect_rc 0 "export the stored trace" "$G" export trace stored --out "$T/stored"
if cmp -s "$T/set/util.csv" "$T/stored/util.csv" && cmp -s "$T/set/tasks.csv" "$T/stored/tasks.csv"
then ok "stored and written traces are the same jobs"
else bad "stored and written traces differ"; fi
expect_rc 2 "--series MAX below MIN" "$G" generate trace --tput gavel-like --series 20-10
contains "$T/err" "expected MIN-MAX sample counts" "the message says what is expected"
expect_rc 2 "--series zero" "$G" generate trace --tput gavel-like --series 0-5
expect_rc 2 "--series with trailing text" "$G" generate trace --tput gavel-like --series 10-20x

# 0.05 s samples over the testbed's ~955 s: ~19,000 points live, at most
# 4,000 saved, and the figures reopened are the run's.
expect_rc 0 "run sampled finely" "$G" --format csv run --trace cats-testbed \
    --cluster cats-testbed --policy cats --sample 0.05 --optimal off --timeline "$T/full.csv"
power=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "avg_power_w") c = i }
                 NR == 2 { print $c }' "$T/out")
live=$(($(wc -l < "$T/full.csv") - 1))
if [ "$live" -gt 4000 ]; then ok "the live timeline has every sample ($live)"
else bad "the live timeline has only $live points"; fi
expect_rc 0 "export the saved run" "$G" export run 1 --out "$T/run"
saved=$(($(wc -l < "$T/run/timeline.csv") - 1))
if [ "$saved" -le 4000 ] && [ "$saved" -gt 100 ]; then ok "the saved timeline is bounded ($saved)"
else bad "the saved timeline has $saved points"; fi
expect_rc 0 "show the saved run" "$G" --format csv show run 1
shown=$(awk -F, '$1 == "avg_power_w" { printf "%.1f", $2 }' "$T/out")
if [ -n "$power" ] && [ "$power" = "$shown" ]; then ok "reopened figures are the run's ($power W)"
else bad "run printed '$power' W, show run '$shown' W"; fi

e2e_finish

#!/bin/sh
# End-to-end test of `gpuplan run`: the CorrGPU motivating example through
# the command line (CapEx 2.5 K vs 5 K USD), saved and reopened runs, the
# placement log, the timeline CSV, and the exit codes of bad input.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_run.sh  (run from the project root)
set -u
NAME=e2e_run
. tests/lib_e2e.sh

# A database seeded with two generated sample sets only.
expect_rc 0 "samples" "$G" samples --set corrgpu-example --set cats-testbed "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "run --help" "$G" run --help
contains "$T/out" "cats.lambda1=1" "help lists policy options with defaults"
contains "$T/out" "corrgpu.alpha=0" "help lists CorrGPU's alpha"
EX="--trace corrgpu-example --cluster corrgpu-example"
expect_rc 2 "run without --trace" "$G" run --cluster corrgpu-example
expect_rc 2 "unknown policy" "$G" run $EX --policy nope
expect_rc 2 "unknown option key" "$G" run $EX --set cats.nope=1
expect_rc 2 "bad --sleep" "$G" run $EX --sleep maybe
expect_rc 2 "bad --corr-grid" "$G" run $EX --corr-grid wall
contains "$T/err" "expected resampled or absolute, got 'wall'" "--corr-grid names its two readings"
expect_rc 1 "unknown trace" "$G" run --trace nope --cluster corrgpu-example

# Energy priced by the hour: a bad series or PUE is refused at file:line:col
# before anything runs, so no run is stored.
printf 'hour,usd_per_kwh\n0,0.1\n2,0.3\n' >"$T/gap.csv"
printf 'hour,usd_per_kwh\n0,0.1\n1,cheap\n' >"$T/word.csv"
expect_rc 2 "price series with a gap" "$G" run $EX --usd-per-kwh "$T/gap.csv"
contains "$T/err" "gap.csv:3:1: column 'hour': expected hour 1" "the gap at file:line:col"
expect_rc 2 "price series with a word" "$G" run $EX --usd-per-kwh "$T/word.csv"
contains "$T/err" "word.csv:3:2: column 'usd_per_kwh': expected a finite number" \
    "the word at file:line:col"
expect_rc 2 "PUE below 1" "$G" run $EX --pue 0.9
expect_rc 2 "negative PUE" "$G" run $EX --pue -1.2
contains "$T/err" "PUE -1.2 is out of range [1, 10]" "a negative PUE is refused"
expect_rc 0 "no run stored by the refusals" "$G" list runs
contains "$T/out" "(nothing stored)" "nothing stored"

# CorrGPU §III-B: one GPU (2,500 USD) for CorrGPU, two (5,000 USD) for First.
expect_rc 0 "corrgpu example" "$G" run $EX --policy corrgpu,first --unbounded --format csv \
    --timeline "$T/tl.csv"
contains "$T/out" "policy,avg_gpus,place_gpus,fluid_gpus,gpu_hours,peak_gpus,unique_gpus,capex_usd" "csv header"
contains "$T/out" "corrgpu,1.00,1.00,0.83,0.2,1,1,2500," "corrgpu: 1 GPU, 2500 USD"
contains "$T/out" "first,2.00,2.00,0.83,0.3,2,2,5000," "first: 2 GPUs, 5000 USD"
contains "$T/tl.csv" "policy,t_s,active_gpus" "timeline header"
contains "$T/tl.csv" "corrgpu,0," "timeline rows carry the policy"

# Saved and reopenable.
expect_rc 0 "list runs" "$G" list runs
contains "$T/out" "corrgpu" "the run is stored"
expect_rc 0 "show run 1" "$G" show run 1
contains "$T/out" "capex_usd" "reopened run has its metrics"
contains "$T/out" "2500" "reopened run keeps its CapEx"

# The placement log explains each decision.
expect_rc 0 "explain" "$G" run $EX --policy cats,first --explain --no-save
contains "$T/out" "rho -0.80" "CATS reports the correlation of t1 and t2"
contains "$T/out" "first-sample sum 105.0% > q" "First reports 80 + 25 > 100"

# Five policies side by side on the CATS testbed, JSON.
expect_rc 0 "five policies" "$G" run --trace cats-testbed --cluster cats-testbed --format json \
    --no-save
contains "$T/out" '"policy": "harmony"' "json lists every policy"

# A power cap on a GPU model without a PEACE set clamps its clock on the
# profile's curve (CATS eq. 1): 100 W on the V100 is 852 MHz.
expect_rc 0 "cap on a plain V100" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap 100 --no-save
contains "$T/out" "gpu cap: V100 100 W: clock clamp to 852 MHz" "the cap names its clamp"
expect_rc 0 "cap per model, json" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap V100=100 --no-save --format json
contains "$T/out" '"gpu_cap": "V100 100 W: clock clamp to 852 MHz"' "json says what applied"
expect_rc 0 "cap above the maximum" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap 200 --no-save
contains "$T/err" "has no effect on V100: it draws at most 144.8 W" "no-effect notice"
expect_rc 1 "cap below idle" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap 20 --no-save
contains "$T/err" "below V100's idle draw of 23.3 W" "below idle names it"
expect_rc 1 "cap of an unknown model" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap Nope=100 --no-save
contains "$T/err" "no GPU model 'Nope'" "an unknown model is named"
expect_rc 2 "malformed cap list" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy hotcloud --gpu-cap V100=100,A100 --no-save
contains "$T/err" "col 10: expected MODEL=W" "the bad part's column"
# solve takes the same cap: at 852 MHz no V100 reaches the testbed tasks'
# SLA clock of 1,105 MHz, which CATS eq. 14 asks for (docs/power-cap.md).
expect_rc 0 "solve takes a cap" "$G" solve cats --trace cats-testbed --cluster cats-testbed \
    --gpu-cap 100 --no-heuristics
contains "$T/out" "its SLA clock is above the capped clock of every GPU model it may use" \
    "solve says what the cap did"

# The correlation family's grid is part of a run's recorded options.
expect_rc 0 "run --corr-grid absolute" "$G" run $EX --policy cats --corr-grid absolute \
    --format csv
expect_rc 0 "the last run" "$G" list runs
RID=$(awk '$1 == "run" {id = $2} END {print id}' "$T/out")
expect_rc 0 "the grid run's options" "$G" show run "$RID"
contains "$T/out" "window=0 grid=1" "the grid is among the run's options"

e2e_finish

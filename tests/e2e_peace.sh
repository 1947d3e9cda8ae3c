#!/bin/sh
# End-to-end test of `gpuplan peace`: training PEACE's models on the
# modelled peace-v100 set and storing them, one choice under a cap with
# every policy next to the Oracle, the paper's experiment on a few policies,
# the simulator under a GPU power cap with PEACE's split (run --gpu-cap),
# the output formats, and the errors (a cap below idle power or outside the
# GPU's range, an unknown workload, models not trained yet).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_peace.sh  (run from the project root)
set -u
NAME=e2e_peace
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set peace-v100 --set peace-mix "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "peace --help" "$G" peace --help
contains "$T/out" "choose" "help lists the subcommands"
expect_rc 0 "peace eval --help" "$G" peace eval --help
contains "$T/out" "--setting" "eval's help lists --setting"

W=Gemm_cuda+ResNet50_inf
expect_rc 1 "choose before training" "$G" peace choose peace-v100 --workloads $W --cap 100
contains "$T/err" "train them with 'gpuplan peace train peace-v100'" "says how to train"

expect_rc 0 "train" "$G" --format csv peace train peace-v100 --trees 20
contains "$T/out" "peace-v100,default,3," "three clocks' models stored as 'default'"
expect_rc 0 "models listed" sqlite3 "$GPUPLAN_DB" "select name from peace_model"
contains "$T/out" "default" "the models are in the database"

expect_rc 0 "choose" "$G" --format csv peace choose peace-v100 --workloads $W --cap 100
contains "$T/out" "oracle," "the Oracle's row"
contains "$T/out" "peace," "PEACE's row"
contains "$T/out" "muxflow," "a pair gets MuxFlow too"
contains "$T/out" ",1.0000," "the Oracle is its own reference"
expect_rc 0 "choose three" "$G" peace choose peace-v100 \
    --workloads FWT_cuda+Gemm_cuda+ResNet50_inf --cap 200
if grep -q '^muxflow' "$T/out"; then bad "MuxFlow places two workloads only"
else ok "MuxFlow sits out a group of three"; fi

expect_rc 0 "eval" "$G" --format csv peace eval peace-v100 --policy peace,equal,nopart \
    --caps 100,200 --trees 20
contains "$T/out" "seen,peace,100," "PEACE at 100 W"
contains "$T/out" "seen,nopart,200," "No partition at 200 W"
# PEACE above No partition at 200 W, as in the paper's Figure 4.
awk -F, '$2 == "peace" && $3 == 200 { p = $4 } $2 == "nopart" && $3 == 200 { n = $4 }
         END { exit !(p > n) }' "$T/out" && ok "PEACE beats No partition" \
    || bad "PEACE beats No partition"
expect_rc 0 "eval json" "$G" --format json peace eval peace-v100 --policy peace --caps 200 \
    --trees 10
cp "$T/out" "$T/eval.json"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/eval.json'))"
contains "$T/out" "1" "json_valid"

# The simulator under a cap: each run names its partition; no Optimal row
# (CATS's optimum knows no cap); the saved run records the cap.
expect_rc 0 "run under a cap" "$G" --format csv run --trace peace-mix --cluster peace-mix \
    --policy first:250@peace,first:250@nopart --gpu-cap 200
contains "$T/out" "first:250@peace," "a run with PEACE's split"
contains "$T/out" "first:250@nopart," "a run without a partition"
if grep -q '^optimal' "$T/out"; then bad "no Optimal row under a cap"
else ok "no Optimal row under a cap"; fi
expect_rc 0 "run options saved" sqlite3 "$GPUPLAN_DB" "select options from run order by id desc limit 1"
contains "$T/out" "gpu_cap=200 partition=nopart" "the run records its cap and partition"
expect_rc 2 "partition without a cap" "$G" run --trace peace-mix --cluster peace-mix \
    --policy first@peace
contains "$T/err" "a partition needs --gpu-cap" "a partition alone is refused"
expect_rc 1 "cap on eopc" "$G" run --trace peace-mix --cluster peace-mix --policy fgd \
    --gpu-cap 200
contains "$T/err" "cats power model" "eopc cannot be capped"
expect_rc 1 "run cap out of range" "$G" run --trace peace-mix --cluster peace-mix \
    --policy first --gpu-cap 20
contains "$T/err" "accepts caps of 40 to 300 W" "run checks the cap"

expect_rc 1 "cap below the range" "$G" peace choose peace-v100 --workloads $W --cap 35
contains "$T/err" "accepts caps of 40 to 300 W" "the GPU's cap range is named"
expect_rc 1 "cap out of range" "$G" peace eval peace-v100 --caps 20
contains "$T/err" "accepts caps of 40 to 300 W" "eval checks its caps too"
expect_rc 1 "group not measured" "$G" peace choose peace-v100 \
    --workloads Gemm_cuda+Gemm_cuda+ResNet50_inf --cap 200
contains "$T/err" "has no ground truth for Gemm_cuda+Gemm_cuda+ResNet50_inf" \
    "an unmeasured group is named"
expect_rc 1 "unknown workload" "$G" peace choose peace-v100 --workloads Gemm_cuda+Nope \
    --cap 100
contains "$T/err" "no workload 'Nope'" "an unknown workload is named"
expect_rc 1 "one workload" "$G" peace choose peace-v100 --workloads Gemm_cuda --cap 100
contains "$T/err" "expected two or three workloads" "a single workload is refused"
expect_rc 2 "unknown subcommand" "$G" peace nope
contains "$T/err" "unknown subcommand 'nope'" "an unknown subcommand is named"
expect_rc 2 "bad setting" "$G" peace eval peace-v100 --setting sometimes
expect_rc 2 "bad caps" "$G" peace eval peace-v100 --caps 60,x
expect_rc 1 "unknown set" "$G" peace train nope
contains "$T/err" "no PEACE set named 'nope'" "an unknown set is named"
e2e_finish

#!/bin/sh
# End-to-end test of the utilization predictors (--predict): run, plan and
# solve decide on predictions of the cats-testbed series, the runs record
# the predictor in their name and options, and unknown predictors are usage
# errors.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_predict.sh  (run from the project root)
set -u
NAME=e2e_predict
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set cats-testbed "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "run --help" "$G" run --help
contains "$T/out" "--predict NAME" "help names the option"

for p in oracle profile:120 profile:120:mean history noisy:0.154; do
    expect_rc 0 "run under $p" "$G" --format csv run --trace cats-testbed \
        --cluster cats-testbed --policy cats,hotcloud --predict "$p"
done
contains "$T/out" "hotcloud (noisy:0.154)," "the table names the predictor"
expect_rc 0 "list runs" "$G" list runs
contains "$T/out" "cats (profile:120:mean)" "the saved run keeps it"
id=$("$G" --format csv list runs | grep -F 'cats (history)' | cut -d, -f2 | head -1)
expect_rc 0 "show the run" "$G" show run "$id"
contains "$T/out" "predict=history" "its options record the predictor"

# The same seed gives the same noisy prediction, so the same run.
"$G" --format csv run --trace cats-testbed --cluster cats-testbed --policy hotcloud \
    --predict noisy:0.5 --seed 3 --no-save | cut -d, -f1-16 >"$T/n1"
"$G" --format csv run --trace cats-testbed --cluster cats-testbed --policy hotcloud \
    --predict noisy:0.5 --seed 3 --no-save | cut -d, -f1-16 >"$T/n2"
if cmp -s "$T/n1" "$T/n2"; then ok "noisy runs replay per seed"; else bad "noisy replay"; fi

expect_rc 0 "plan" "$G" --format csv plan --trace cats-testbed --gpu V100 --from 2 --to 6 \
    --per-server 6 --policy cats,hotcloud --predict profile:120
expect_rc 0 "solve" "$G" solve corrgpu --trace cats-testbed --cluster cats-testbed \
    --gpu-mem 32 --predict noisy:0.154
contains "$T/out" "heuristics decide on noisy:0.154 predictions" "solve says what they knew"

expect_rc 2 "unknown predictor" "$G" run --trace cats-testbed --cluster cats-testbed \
    --predict crystal-ball
contains "$T/err" "unknown predictor 'crystal-ball'" "names it"
expect_rc 2 "profile without seconds" "$G" plan --trace cats-testbed --gpu V100 \
    --predict profile
expect_rc 2 "solve: negative error" "$G" solve cats --trace cats-testbed \
    --cluster cats-testbed --predict noisy:-1

e2e_finish

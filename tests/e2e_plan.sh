#!/bin/sh
# End-to-end test of `gpuplan plan`: the CorrGPU motivating example as a
# CapEx question (unbounded pool: CorrGPU 1 GPU / 2,500 USD, First 2 GPUs /
# 5,000 USD), a GPU-count sweep with the fewest count meeting the SLA, the
# threshold options, the output formats, and usage errors.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_plan.sh  (run from the project root)
set -u
NAME=e2e_plan
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set corrgpu-example --set cats-testbed "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "plan --help" "$G" plan --help
contains "$T/out" "--unbounded" "help explains the unbounded pool"

expect_rc 0 "unbounded CapEx" "$G" --format csv plan --trace corrgpu-example \
    --gpu A100-40GB --unbounded --policy corrgpu,first
contains "$T/out" "1,corrgpu,2,0.00" "CorrGPU needs one GPU"
contains "$T/out" ",2500,yes,1" "CorrGPU's CapEx is 2,500 USD"
contains "$T/out" "2,first,2,0.00" "First needs two GPUs"
contains "$T/out" ",5000,yes,1" "First's CapEx is 5,000 USD"

expect_rc 0 "price what-if" "$G" --format csv plan --trace corrgpu-example \
    --gpu A100-40GB --unbounded --policy corrgpu --price 3000
contains "$T/out" ",3000,yes,1" "the price option sets CapEx"

expect_rc 0 "count sweep" "$G" plan --trace cats-testbed --gpu V100 --from 2 --to 8 \
    --per-server 6 --policy corrgpu,first
contains "$T/out" "fewest GPUs meeting SLA" "the fewest count is reported"
contains "$T/out" "corrgpu 5" "CorrGPU meets the SLA at 5 GPUs"
# The documented default --util-threshold 100 must leave CATS as it is: it
# once also flipped CATS's util_mode switch (7.14 % -> 28.57 % violations).
expect_rc 0 "cats at 5 GPUs" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --from 5 --to 5 --per-server 6 --policy cats
contains "$T/out" "5,cats,14,7.14," "CATS at 5 GPUs: 1 of 14 tasks late"
expect_rc 0 "util threshold 100" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --from 5 --to 5 --per-server 6 --policy cats --util-threshold 100
contains "$T/out" "5,cats,14,7.14," "--util-threshold 100 is the default, not a mode switch"

expect_rc 0 "json" "$G" --format json plan --trace cats-testbed --gpu V100 --from 4 --to 5 \
    --policy first
cp "$T/out" "$T/plan.json"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/plan.json'))"
contains "$T/out" "1" "json_valid"

expect_rc 2 "missing --gpu" "$G" plan --trace cats-testbed
expect_rc 2 "bad number" "$G" plan --trace cats-testbed --gpu V100 --from x
expect_rc 2 "unknown policy" "$G" plan --trace cats-testbed --gpu V100 --policy nope
expect_rc 1 "unknown profile" "$G" plan --trace cats-testbed --gpu Z9
contains "$T/err" "no GPU profile named 'Z9'" "unknown profile message"
expect_rc 1 "unknown trace" "$G" plan --trace nope --gpu V100
e2e_finish

#!/bin/sh
# End-to-end test of `gpuplan plan`: the CorrGPU motivating example as a
# CapEx question (unbounded pool: CorrGPU 1 GPU / 2,500 USD, First 2 GPUs /
# 5,000 USD), a GPU-count sweep with the fewest count meeting the SLA, the
# threshold options, a grid over two GPU models with its cost frontier, the
# output formats, and usage errors.
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
contains "$T/out" "first 5" "First meets the SLA at 5 GPUs"
# CorrGPU's soft q (Alg. 1 step 3) takes a GPU over q before a new one: 6 of
# the 14 tasks run late at any count, so none meets the SLA.
contains "$T/out" "corrgpu none" "CorrGPU with its soft q meets it at no count"
# The documented default --util-threshold 100 must leave CATS as it is: it
# once also flipped CATS's util_mode switch, which changes its violations.
expect_rc 0 "cats at 5 GPUs" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --from 5 --to 5 --per-server 6 --policy cats
contains "$T/out" "5,cats,14,14.29," "CATS at 5 GPUs: 2 of 14 tasks late"
expect_rc 0 "util threshold 100" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --from 5 --to 5 --per-server 6 --policy cats --util-threshold 100
contains "$T/out" "5,cats,14,14.29," "--util-threshold 100 is the default, not a mode switch"

expect_rc 0 "json" "$G" --format json plan --trace cats-testbed --gpu V100 --from 4 --to 5 \
    --policy first
cp "$T/out" "$T/plan.json"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/plan.json'))"
contains "$T/out" "1" "json_valid"

# A grid over two models (V100 at 1,500 USD, A100-40GB at its 2,500 USD,
# energy at 0.15 USD/kWh over three years).  An A100 runs the GPU part of
# a task twice as fast as a V100 (Amdahl's law over the profiles' speeds,
# core/speed.h), not all of it, so five V100s are the cheapest point
# without violations and on the frontier; 3 V100 + 3 A100 and 4 V100 +
# 2 A100 also meet the SLA but cost more: both dominated; one V100 is the
# cheapest point of all and so on the frontier despite its violations.
expect_rc 0 "two-model grid" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --gpu2 A100-40GB --to 6 --to2 3 --per-server 6 --policy first --price 1500 \
    --usd-per-kwh 0.15 --hours 26280
contains "$T/out" "gpus,gpus2,policy,ran,sla_viol_pct,jct_mean_s,jct_p95_s,avg_power_w,capex_usd,energy_usd,cost_usd,meets_sla,frontier,cheapest" \
    "grid columns"
contains "$T/out" "5,0,first,14,0.00,364.8,398.5,478.7,7500,1887,9387,yes,1,1" \
    "5 V100: cheapest meeting the SLA, on the frontier"
contains "$T/out" "3,3,first,14,0.00,345.2,398.5,595.0,12000,2346,14346,yes,0,0" \
    "3 V100 + 3 A100: dominated"
contains "$T/out" "4,2,first,14,0.00,351.7,398.5,531.6,11000,2096,13096,yes,0,0" \
    "4 V100 + 2 A100: dominated"
contains "$T/out" "1,0,first,14,92.86,1684.8,2528.7,144.8,1500,571,2071,no,1,0" \
    "the cheapest point is on the frontier"
if grep -q '^0,0,' "$T/out"; then bad "the grid simulated a cluster without GPUs"
else ok "no point without GPUs"; fi
expect_rc 0 "grid, table" "$G" plan --trace cats-testbed --gpu V100 --gpu2 A100-40GB \
    --to 6 --to2 1 --per-server 6 --policy first --price 1500
contains "$T/out" "first frontier (V100+A100-40GB: cost USD, SLA violations):" \
    "the frontier is listed"
contains "$T/out" "cheapest meeting SLA <= 0% violations:  first 5 V100 + 0 A100-40GB (\$7500)" \
    "the cheapest point meeting the SLA, CapEx alone"
expect_rc 0 "one model, energy" "$G" --format csv plan --trace cats-testbed --gpu V100 \
    --from 5 --to 5 --per-server 6 --policy first --price 1500 --usd-per-kwh 0.15 --hours 26280
contains "$T/out" "5,first,14,0.00,364.8,398.5,478.7,7500,1887,9387,yes,1" \
    "one model with an electricity price: energy and cost columns"
expect_rc 2 "grid and unbounded" "$G" plan --trace cats-testbed --gpu V100 --gpu2 P100 \
    --unbounded
expect_rc 2 "one model from 0" "$G" plan --trace cats-testbed --gpu V100 --from 0
expect_rc 1 "unknown second profile" "$G" plan --trace cats-testbed --gpu V100 --gpu2 Z9 --to 2
contains "$T/err" "no GPU profile named 'Z9'" "unknown second profile message"

expect_rc 2 "missing --gpu" "$G" plan --trace cats-testbed
expect_rc 2 "bad number" "$G" plan --trace cats-testbed --gpu V100 --from x
expect_rc 2 "unknown policy" "$G" plan --trace cats-testbed --gpu V100 --policy nope
expect_rc 1 "unknown profile" "$G" plan --trace cats-testbed --gpu Z9
contains "$T/err" "no GPU profile named 'Z9'" "unknown profile message"
expect_rc 1 "unknown trace" "$G" plan --trace nope --gpu V100
e2e_finish

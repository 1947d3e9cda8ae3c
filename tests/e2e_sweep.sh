#!/bin/sh
# End-to-end test of `gpuplan sweep inflation`: a small openb cluster and
# trace imported, the family swept over seeds, the comparison table in
# three formats, curve files (CSV, JSON), the event log, explicit order and
# tie-break files (a replay is the same whatever the seed), saved runs, and
# usage errors.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_sweep.sh  (run from the project root)
set -u
NAME=e2e_sweep
. tests/lib_e2e.sh
no_samples

cat >"$T/openb_node_list_e2e.csv" <<'EOF'
sn,cpu_milli,memory_mib,gpu,model
n-0,64000,262144,2,T4
n-1,96000,393216,8,G2
n-2,96000,393216,8,G2
n-3,64000,262144,4,V100M16
EOF
{
    echo "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    i=0
    while [ $i -lt 12 ]; do
        echo "p-$i,4000,8192,1,$((200 + 50 * i)),,BE,Running,$i,100,$i"
        i=$((i + 1))
    done
    echo "w-0,8000,16384,1,1000,,LS,Running,20,100,20"
    echo "w-1,16000,16384,2,1000,,LS,Running,21,100,21"
    echo "c-0,2000,4096,0,0,,BE,Running,22,100,22"
    echo "t-0,2000,4096,1,500,T4,BE,Running,23,100,23"
} >"$T/openb_pod_list_e2e.csv"

expect_rc 0 "import openb" "$G" import --type openb --name e2e "$T/openb_node_list_e2e.csv" "$T/openb_pod_list_e2e.csv"
expect_rc 0 "sweep --help" "$G" sweep --help
contains "$T/out" "--tiebreak FILE" "help names the options"

expect_rc 0 "sweep the family" "$G" sweep inflation --trace e2e --cluster e2e --seeds 1-3 \
    --out "$T/curves.csv" --events "$T/events.tsv" --explain -q
for p in random dotprod gpuclustering gpupacking bestfit fgd pwr pwr+fgd; do
    contains "$T/out" "$p " "table row $p"
done
contains "$T/curves.csv" "policy,curve,metric,x,mean,sd,min,max,n" "curves header"
contains "$T/curves.csv" "fgd,percent,alloc_pct,100," "alloc curve at 100 %"
contains "$T/curves.csv" "pwr+fgd,grid,eopc_saving_pct,0.5," "saving curve"
contains "$T/events.tsv" "	why" "events with explanations"
contains "$T/events.tsv" "feasible" "explanations say how many fitted"
expect_rc 0 "list runs" "$G" list runs
contains "$T/out" "inflation fgd" "runs saved"

expect_rc 0 "csv table" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy fgd,pwr+fgd:0.2 --no-save --out "$T/curves.json"
contains "$T/out" "pwr+fgd:0.2,1," "csv row with the alpha label"
contains "$T/curves.json" '"grid_x": [0, 0.005' "json curves"
expect_rc 0 "json table" "$G" --format json sweep inflation --trace e2e --cluster e2e \
    --policy bestfit --no-save
contains "$T/out" '"policy": "bestfit"' "json table row"

# An explicit order and ranks: the seed no longer matters.
printf 'event\tpod\ttrace_pod\n' >"$T/order.tsv"
for p in w-1 p-3 p-0 c-0 t-0 p-7 w-0 p-11 p-3-tuned-0; do
    printf '0\t%s\t%s\n' "$p" "${p%-tuned-0}" >>"$T/order.tsv"
done
printf 'node\ttie_rank\nn-2\t0\nn-0\t1\nn-3\t2\nn-1\t3\n' >"$T/ranks.tsv"
expect_rc 0 "replay seed 1" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy fgd,gpupacking --order "$T/order.tsv" --tiebreak "$T/ranks.tsv" --seeds 1 \
    --no-save --events "$T/r1.tsv"
expect_rc 0 "replay seed 2" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy fgd,gpupacking --order "$T/order.tsv" --tiebreak "$T/ranks.tsv" --seeds 2 \
    --no-save --events "$T/r2.tsv"
if cut -f 3- "$T/r1.tsv" | cmp -s - "$(cut -f 3- "$T/r2.tsv" >"$T/r2c"; echo "$T/r2c")"; then
    ok "replays agree event by event"
else
    bad "replays differ"
fi
contains "$T/r1.tsv" "	w-1	n-2	" "first task on the rank-0 node"

expect_rc 0 "trace order" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy bestfit --trace-order --no-save --events "$T/to.tsv"
if [ "$(cut -f 4 "$T/to.tsv" | sed -n 2p)" = "p-0" ] && [ "$(wc -l <"$T/to.tsv")" -eq 17 ]; then
    ok "trace order: the trace's tasks as stored, no clones"
else
    bad "trace order"
fi
# The seeded order comes from Go's math/rand by default; --rng xoshiro keeps
# the project's own stream, which draws another order.
expect_rc 0 "go stream" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy bestfit --seeds 1 --no-save --events "$T/go.tsv"
expect_rc 0 "go stream by name" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy bestfit --seeds 1 --rng go --no-save --events "$T/go2.tsv"
expect_rc 0 "xoshiro stream" "$G" --format csv sweep inflation --trace e2e --cluster e2e \
    --policy bestfit --seeds 1 --rng xoshiro --no-save --events "$T/xo.tsv"
if cmp -s "$T/go.tsv" "$T/go2.tsv" && ! cut -f 4 "$T/go.tsv" | cmp -s - "$(cut -f 4 "$T/xo.tsv" >"$T/xoc"; echo "$T/xoc")"; then
    ok "go is the default stream and xoshiro another"
else
    bad "streams"
fi
expect_rc 2 "unknown stream" "$G" sweep inflation --trace e2e --cluster e2e --rng mt19937
contains "$T/err" "expected go or xoshiro" "names the streams"
expect_rc 2 "order and trace order" "$G" sweep inflation --trace e2e --cluster e2e \
    --trace-order --order "$T/order.tsv"
expect_rc 2 "no sweep kind" "$G" sweep --trace e2e --cluster e2e
expect_rc 2 "unknown sweep" "$G" sweep capex --trace e2e --cluster e2e
expect_rc 2 "extra argument" "$G" sweep inflation extra --trace e2e --cluster e2e
contains "$T/err" "unexpected argument 'extra'" "an extra argument is named, not the sweep"
expect_rc 2 "bad seeds" "$G" sweep inflation --trace e2e --cluster e2e --seeds 9-3
expect_rc 2 "missing cluster" "$G" sweep inflation --trace e2e
expect_rc 1 "unknown trace" "$G" sweep inflation --trace nope --cluster e2e
contains "$T/err" "nope" "names the missing trace"
expect_rc 1 "unknown policy" "$G" sweep inflation --trace e2e --cluster e2e --policy fgd,magic
contains "$T/err" "unknown policy 'magic'" "names the policy"
printf 'p-0\nq-1\n' >"$T/bad_order.txt"
expect_rc 1 "bad order file" "$G" sweep inflation --trace e2e --cluster e2e --order "$T/bad_order.txt"
contains "$T/err" "bad_order.txt:2" "order error names the line"

e2e_finish

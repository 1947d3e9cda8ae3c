#!/bin/sh
# End-to-end test of parallel sweeps (-j N): the same inflation sweep run
# one simulation at a time and three at a time saves the same runs, in the
# same order, with the same curves, metrics and placements (the wall time
# of each run aside), and prints the same comparison and curve file.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_parallel.sh  (run from the project root)
set -u
NAME=e2e_parallel
. tests/lib_e2e.sh
no_samples

if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "$NAME: skipped (no sqlite3 command-line program to read the stored runs)"
    exit 0
fi

cat >"$T/openb_node_list_par.csv" <<'CSV'
sn,cpu_milli,memory_mib,gpu,model
n-0,64000,262144,2,T4
n-1,96000,393216,8,G2
n-2,96000,393216,8,G2
n-3,64000,262144,4,V100M16
n-4,96000,393216,8,G2
CSV
{
    echo "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    i=0
    while [ $i -lt 20 ]; do
        echo "p-$i,4000,8192,1,$((150 + 40 * i)),,BE,Running,$i,100,$i"
        i=$((i + 1))
    done
    echo "w-0,8000,16384,1,1000,,LS,Running,20,100,20"
    echo "w-1,16000,16384,2,1000,,LS,Running,21,100,21"
    echo "w-2,32000,65536,4,1000,,LS,Running,22,100,22"
    echo "t-0,2000,4096,1,500,T4,BE,Running,23,100,23"
} >"$T/openb_pod_list_par.csv"

# The stored runs, less what differs between any two runs (row creation
# time, each run's wall time).
dump() {
    sqlite3 "$1" "SELECT id, name, policy, options, seed, power_model FROM run ORDER BY id;
        SELECT run_id, key, value FROM run_metric WHERE key <> 'wall_s' ORDER BY run_id, key;
        SELECT * FROM run_point ORDER BY run_id, seq;
        SELECT * FROM run_decision ORDER BY run_id, seq;"
}

for j in 1 3; do
    export GPUPLAN_DB="$T/j$j.sqlite"
    expect_rc 0 "import (-j $j database)" "$G" import --type openb --name par \
        "$T/openb_node_list_par.csv" "$T/openb_pod_list_par.csv"
    expect_rc 0 "sweep -j $j" "$G" --format csv sweep inflation --trace par --cluster par \
        --seeds 1-4 --placements --explain -q -j $j --out "$T/curves-j$j.csv"
    cut -d, -f1-11 "$T/out" >"$T/table-j$j.csv"     # s_per_seed (wall time) left out
    dump "$GPUPLAN_DB" >"$T/dump-j$j.txt"
done

runs=$(sqlite3 "$T/j3.sqlite" "SELECT count(*) FROM run")
if [ "$runs" -eq 32 ]; then ok "8 policies x 4 seeds saved"; else bad "saved $runs runs, wanted 32"; fi
if cmp -s "$T/dump-j1.txt" "$T/dump-j3.txt"; then ok "-j 3 stores what -j 1 stores"
else bad "-j 3 stores other runs than -j 1:"; diff "$T/dump-j1.txt" "$T/dump-j3.txt" | head -20; fi
if cmp -s "$T/table-j1.csv" "$T/table-j3.csv"; then ok "-j 3 prints the -j 1 table"
else bad "tables differ:"; diff "$T/table-j1.csv" "$T/table-j3.csv"; fi
if cmp -s "$T/curves-j1.csv" "$T/curves-j3.csv"; then ok "-j 3 writes the -j 1 curves"
else bad "curve files differ"; fi

# `run` with several policies: the same runs, saved in --policy order.
for j in 1 3; do
    export GPUPLAN_DB="$T/j$j.sqlite"
    sqlite3 "$GPUPLAN_DB" "PRAGMA foreign_keys = ON; DELETE FROM run"
    expect_rc 0 "run -j $j" "$G" --format csv run --trace par --cluster par \
        --policy fgd,bestfit,first,cats,random --explain -j $j
    cut -d, -f1-16 "$T/out" >"$T/run-j$j.csv"       # the run's id left out
    sqlite3 "$GPUPLAN_DB" "SELECT name, policy, options, seed FROM run ORDER BY id;
        SELECT m.key, m.value FROM run_metric m JOIN run r ON r.id = m.run_id
            WHERE m.key NOT LIKE '%wall%' ORDER BY r.id, m.key;
        SELECT * FROM run_outcome ORDER BY run_id, task_idx;" >"$T/rundump-j$j.txt"
done
if cmp -s "$T/run-j1.csv" "$T/run-j3.csv"; then ok "run -j 3 prints the -j 1 table"
else bad "run tables differ:"; diff "$T/run-j1.csv" "$T/run-j3.csv"; fi
if cmp -s "$T/rundump-j1.txt" "$T/rundump-j3.txt"; then ok "run -j 3 stores what -j 1 stores"
else bad "run -j 3 stores other runs:"; diff "$T/rundump-j1.txt" "$T/rundump-j3.txt" | head; fi

# `plan`: the same table for any -j (the jobs run on a background thread
# while the command waits).
for j in 1 3; do
    expect_rc 0 "plan -j $j" "$G" --format csv plan --trace par --gpu G2 --from 4 --to 24 \
        --step 4 --policy fgd,first,cats -j $j
    cp "$T/out" "$T/plan-j$j.csv"
done
if cmp -s "$T/plan-j1.csv" "$T/plan-j3.csv"; then ok "plan -j 3 prints the -j 1 table"
else bad "plan tables differ:"; diff "$T/plan-j1.csv" "$T/plan-j3.csv"; fi
contains "$T/plan-j3.csv" "24,cats," "plan ran every count"

expect_rc 2 "-j 0 refused" "$G" sweep inflation --trace par --cluster par -j 0
e2e_finish

#!/bin/sh
# End-to-end test of writers that share one database: several imports at
# once into a new database and into one that exists, imports while `run`
# saves, and a sweep (which saves every run) while `run` saves.  Nothing
# may be lost: every command succeeds and the store holds exactly what
# they all wrote.  Then a write that meets a lock held by
# another program (sqlite3) says it is waiting on stderr and goes on when
# the lock is released.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_concurrent.sh  (run from the project root)
set -u
NAME=e2e_concurrent
. tests/lib_e2e.sh
no_samples

# A native set of 300 tasks on 4 nodes: large enough that imports overlap.
mkdir -p "$T/set"
{
    echo "name,gpu_model,gpu_count,cpu_milli,ram_mib"
    for n in 0 1 2 3; do echo "n$n,V100,8,64000,262144"; done
} >"$T/set/nodes.csv"
{
    echo "name,arrival_s,duration_s,num_gpu,gpu_milli"
    i=0
    while [ $i -lt 300 ]; do
        echo "t$i,$i,$((100 + i % 50)),1,$((250 * (1 + i % 4)))"
        i=$((i + 1))
    done
} >"$T/set/tasks.csv"

# The openb pair e2e_sweep uses: sweep inflation runs on it.
cat >"$T/openb_node_list_c.csv" <<'EOF'
sn,cpu_milli,memory_mib,gpu,model
n-0,64000,262144,2,T4
n-1,96000,393216,8,G2
n-2,96000,393216,8,G2
n-3,64000,262144,4,V100M16
EOF
{
    echo "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time"
    i=0
    while [ $i -lt 40 ]; do
        echo "p-$i,4000,8192,1,$((200 + 20 * i)),,BE,Running,$i,100,$i"
        i=$((i + 1))
    done
} >"$T/openb_pod_list_c.csv"

# count KIND: how many entities of KIND the store lists.
count() {
    "$G" --format csv list "$1" >"$T/list" 2>"$T/list.err" || { echo -1; return; }
    echo $(($(wc -l <"$T/list") - 1))
}
# failed_of FILE...: how many of the finished jobs FILE failed (their exit
# codes are in FILE.rc; the stderr of the first two that failed is shown).
failed_of() {
    nf=0
    for f in "$@"; do
        if [ "$(cat "$f.rc" 2>/dev/null)" != 0 ]; then
            nf=$((nf + 1))
            [ $nf -le 2 ] && { echo "    $f: exit $(cat "$f.rc" 2>/dev/null)"
                               sed "s/^/    /" "$f.err" | head -1; } >&2
        fi
    done
    echo $nf
}
job() {     # job OUT CMD...: runs CMD in the background, exit code to OUT.rc
    out=$1; shift
    ( "$@" >"$out.out" 2>"$out.err"; echo $? >"$out.rc" ) &
}

# 0. Six imports at once into a database that does not exist yet: one
# creates and fills it, the others wait and find it made.
jobs=""
for i in 0 1 2 3 4 5; do
    job "$T/new$i" "$G" --db "$T/new.sqlite" import --type native --name "new$i" "$T/set"
    jobs="$jobs $T/new$i"
done
wait
# shellcheck disable=SC2086
nf=$(failed_of $jobs)
n=$(GPUPLAN_DB="$T/new.sqlite" count traces)
echo "    imports into a new database: $nf of 6 failed, $n of 6 traces stored"
if [ "$nf" -eq 0 ] && [ "$n" -eq 6 ]; then ok "imports into a new database: nothing lost"
else bad "imports into a new database: $nf failed, $n of 6 traces"; fi

expect_rc 0 "import the base set" "$G" import --type native --name base "$T/set"
expect_rc 0 "import openb" "$G" import --type openb --name ob "$T/openb_node_list_c.csv" \
    "$T/openb_pod_list_c.csv"

# 1. Ten imports at once, three times over: 30 traces.
jobs=""
for round in 1 2 3; do
    for i in 0 1 2 3 4 5 6 7 8 9; do
        job "$T/imp$round-$i" "$G" import --type native --name "par$round-$i" "$T/set"
        jobs="$jobs $T/imp$round-$i"
    done
    wait
done
wait
# shellcheck disable=SC2086
nf=$(failed_of $jobs)
traces=$(count traces)
echo "    parallel imports: $nf of 30 failed, $((traces - 2)) of 30 traces stored"
if [ "$nf" -eq 0 ]; then ok "30 parallel imports all succeed"
else bad "$nf of 30 parallel imports failed"; fi
if [ "$traces" -eq 32 ]; then ok "30 traces stored"
else bad "$((traces - 2)) of 30 traces stored"; fi

# 2. Ten imports while `run` saves five times (two runs each).
runs0=$(count runs)
traces0=$(count traces)
jobs=""
for i in 0 1 2 3 4; do
    job "$T/run$i" "$G" run --trace base --cluster base --policy first,bestfit
    jobs="$jobs $T/run$i"
done
for i in 0 1 2 3 4 5 6 7 8 9; do
    job "$T/imr$i" "$G" import --type native --name "mix$i" "$T/set"
    jobs="$jobs $T/imr$i"
done
wait
# shellcheck disable=SC2086
nf=$(failed_of $jobs)
runs=$(($(count runs) - runs0))
traces=$(($(count traces) - traces0))
echo "    imports while run saves: $nf of 15 commands failed, $runs of 10 runs and" \
     "$traces of 10 traces stored"
if [ "$nf" -eq 0 ] && [ "$runs" -eq 10 ] && [ "$traces" -eq 10 ]; then
    ok "imports while run saves: nothing lost"
else
    bad "imports while run saves: $nf failed, $runs of 10 runs, $traces of 10 traces"
fi

# 3. A sweep (8 policies x 3 seeds = 24 saved runs) while `run` saves five times.
runs0=$(count runs)
job "$T/sweep" "$G" sweep inflation --trace ob --cluster ob --seeds 1-3 -q
jobs="$T/sweep"
for i in 0 1 2 3 4; do
    job "$T/rs$i" "$G" run --trace base --cluster base --policy first,bestfit
    jobs="$jobs $T/rs$i"
done
wait
# shellcheck disable=SC2086
nf=$(failed_of $jobs)
runs=$(($(count runs) - runs0))
echo "    sweep while run saves: $nf of 6 commands failed, $runs of 34 runs stored"
if [ "$nf" -eq 0 ] && [ "$runs" -eq 34 ]; then ok "sweep while run saves: nothing lost"
else bad "sweep while run saves: $nf failed, $runs of 34 runs stored"; fi

# 4. Another program holds the write lock: the import says it waits, and
# lands once the lock is released.
if command -v sqlite3 >/dev/null 2>&1; then
    {
        echo "BEGIN IMMEDIATE;"
        echo "CREATE TEMP TABLE held(x);"
        echo ".shell touch '$T/locked'; while [ ! -e '$T/release' ]; do sleep 0.1; done"
        echo "COMMIT;"
    } >"$T/hold.sql"
    sqlite3 "$GPUPLAN_DB" <"$T/hold.sql" >"$T/hold.out" 2>&1 &
    holder=$!
    n=0
    while [ ! -e "$T/locked" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
    job "$T/held" "$G" import --type native --name after-lock "$T/set"
    n=0
    while ! grep -q "waiting for the database" "$T/held.err" 2>/dev/null && [ $n -lt 600 ]; do
        sleep 0.1; n=$((n + 1))
    done
    touch "$T/release"
    wait
    nf=$(failed_of "$T/held")
    contains "$T/held.err" "waiting for the database: another program is writing to" \
        "a waiting write says so"
    if [ "$nf" -eq 0 ] && "$G" list traces | grep -q "after-lock"; then
        ok "the waiting import lands after the lock is released"
    else
        bad "the waiting import did not land"
    fi
else
    echo "skip: no sqlite3 program to hold the lock"
fi

e2e_finish

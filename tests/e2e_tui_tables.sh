#!/bin/sh
# End-to-end test of the dashboard's tables, footers and long actions, through tmux:
#   every footer shows X export, also at 80 columns;
#   Compare's JCT cells read as durations;
#   a snapshot loads in slices (progress on the status line, Esc cancels)
#   and Cluster shows its FGD fragmentation;
#   Cluster's task list and Data's item lists order by a column (o, O);
#   Step's g to a far decision runs in slices too.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_tables.sh  (run from the project root)
set -u
NAME=e2e_tui_tables
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
# last_line: the screen's status line.
last_line() { cap; tail -1 "$T/screen"; }
start() {
    w=$1 h=$2
    shift 2
    end_session
    # (a server that is just exiting with its last session refuses it: again)
    for try in 1 2 3; do
        tm new-session -d -s tui -x "$w" -y "$h" \
            "env $* GPUPLAN_TUI_LOG='$T/tui.log' '$G'; echo \"EXITED rc=\$?\"; sleep 600" &&
            break
        sleep 0.5
    done
}

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

# A snapshot of one server of two GPUs, 600 milli-GPU tasks: one on GPU 0
# leaves it 400 milli no typical task fits (FGD's fragmentation: 400 of
# the 1400 idle, 29 %).
mkdir "$T/fragsnap"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib,cpu_model,static_w,other_w,gpu_mem_gib\n' \
    > "$T/fragsnap/nodes.csv"
printf 'box,V100,2,32000,262144,,0,0,32|32\n' >> "$T/fragsnap/nodes.csv"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli,gpu_mem_gib,cpu_milli,ram_mib\n' \
    > "$T/fragsnap/tasks.csv"
printf 'f1,0,3600,1,600,4,0,0\n' >> "$T/fragsnap/tasks.csv"
printf 'task,node,gpu,gpu_milli\nf1,box,0,600\n' > "$T/fragsnap/placements.csv"
"$G" import --type native --name fragsnap "$T/fragsnap" > "$T/import.out" 2>&1 ||
    { bad "fragsnap imported"; cat "$T/import.out"; }
# Three tasks of 8, 2 and 4 GiB on one GPU, for ordering its task list.
mkdir "$T/sortsnap"
cp "$T/fragsnap/nodes.csv" "$T/sortsnap/"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli,gpu_mem_gib,cpu_milli,ram_mib\n' \
    > "$T/sortsnap/tasks.csv"
printf 'sa,0,3600,1,300,8,0,0\nsb,0,3600,1,300,2,0,0\nsc,0,3600,1,300,4,0,0\n' \
    >> "$T/sortsnap/tasks.csv"
printf 'task,node,gpu,gpu_milli\nsa,box,0,300\nsb,box,0,300\nsc,box,0,300\n' \
    > "$T/sortsnap/placements.csv"
"$G" import --type native --name sortsnap "$T/sortsnap" > "$T/import.out" 2>&1 ||
    { bad "sortsnap imported"; cat "$T/import.out"; }
# in_order A B C: A, B and C appear on the screen in that order, top to bottom.
in_order() {
    cap
    la=$(grep -n -m1 -F -- "$1" "$T/screen" | cut -d: -f1)
    lb=$(grep -n -m1 -F -- "$2" "$T/screen" | cut -d: -f1)
    lc=$(grep -n -m1 -F -- "$3" "$T/screen" | cut -d: -f1)
    [ -n "$la" ] && [ -n "$lb" ] && [ -n "$lc" ] && [ "$la" -lt "$lb" ] && [ "$lb" -lt "$lc" ]
}

# --- footers: X export on every screen, at 80 columns too ---------------------
start 80 24 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens on the Compare setup"
expect "X export" "the setup's footer shows X export at 80 columns"
keys Enter
expect "runs ready at t=0" "comparison starts"
keys Right
for scr in 1 2 3 5; do
    keys "$scr"
    sleep 0.3
    if wait_for "X export"; then ok "screen $scr's footer shows X export at 80 columns"
    else bad "screen $scr's footer lacks X export"; show; fi
done
keys q y
expect "EXITED rc=0" "quits"
start 120 40 LANG=C.UTF-8 TERM=tmux-256color
expect "Compare setup" "opens again"

# --- a snapshot loads, and Cluster shows its FGD fragmentation -----------------
keys 5
expect "Kinds" "Data"
keys j j j j j Tab
expect "cluster fragsnap at t=0s" "snapshot listed"
keys Enter
expect "snapshot fragsnap of fragsnap" "Cluster shows the snapshot"
expect "FGD frag 400 milli-GPU (29% of idle)" "its FGD fragmentation: 400 of 1400 idle milli-GPU"

# --- tables ordered by a column: Cluster's task list, Data's items --------------
keys 5 j
expect "cluster sortsnap at t=0s" "the second snapshot"
keys Enter
expect "snapshot sortsnap of sortsnap" "Cluster shows it"
keys Enter
expect ">sa" "drill into its GPU's tasks"
keys o o
expect "tasks (3) by memory" "o o orders the tasks by memory, marked in the title"
if in_order " sb " " sc " " sa " || in_order ">sb " " sc " " sa "; then
    ok "2, 4, 8 GiB: smallest first"
else bad "tasks not by memory"; show; fi
keys O
expect "largest first" "O reverses it"
if in_order "sa " " sc " " sb "; then ok "8, 4, 2 GiB: largest first"
else bad "tasks not by memory, reversed"; show; fi
keys Escape 5
expect "Kinds" "Data"
keys Tab k k Tab
expect "pai-like" "the traces"
keys o o
expect "Traces by count" "o o orders the traces by their task count"
if in_order "corrgpu-example" "cats-testbed" "gavel-like"; then ok "2, 14, 40 tasks: fewest first"
else bad "traces not by count"; show; fi
keys O
if wait_for "Traces by count ▼" && in_order "pai-like" "openb-like" "peace-mix"; then
    ok "O: 3000, 800, 120 tasks: most first"
else bad "traces not by count, reversed"; show; fi
keys q
expect "EXITED rc=0" "quits"

# --- Compare's JCT cells read as durations --------------------------------------
start 160 48 LANG=C.UTF-8 TERM=tmux-256color XDG_CONFIG_HOME="$T/jct-config"
expect "Run: cats-testbed on cats-testbed" "the default input"
keys Enter
expect "runs ready at t=0" "comparison starts"
keys End
expect "ran to the end" "runs to the end"
cap
jct=$(sed -n 's/^│[ >]■\(cats .*\)│ *$/\1/p' "$T/screen" | head -1 | awk '{ print $12 }')
case "$jct" in
    [0-9][0-9]:[0-9][0-9]:[0-9][0-9]|[0-9]*s) ok "cats's JCT p50 reads as a duration ($jct)" ;;
    *) bad "cats's JCT p50 is '$jct'"; show ;;
esac
keys q y
expect "EXITED rc=0" "quits"

# --- Step's g to a far decision on a big trace: in slices, Esc stops it --------
# (the openb trace, when the public data is there: $GPUPLAN_SHARED_DATA,
# else ../shared/data)
DATA=${GPUPLAN_SHARED_DATA:-$PWD/../shared/data}
OPENB=$DATA/alibaba-gpu-2023
if [ ! -r "$OPENB/openb_pod_list_default.csv" ]; then
    echo "skipped: $OPENB/openb_pod_list_default.csv not found (public data absent)"
else
    "$G" import --type openb --name openb "$OPENB/openb_node_list_gpu_node.csv" >/dev/null &&
        "$G" import --type openb --name default "$OPENB/openb_pod_list_default.csv" >/dev/null ||
        bad "openb imported"
    mkdir -p "$T/openb-config/gpuplan"
    printf 'trace = default\ncluster = openb\npolicies = fgd,pwr\n' \
        > "$T/openb-config/gpuplan/settings"
    start 120 40 LANG=C.UTF-8 TERM=tmux-256color XDG_CONFIG_HOME="$T/openb-config"
    expect "Run: default on openb" "the openb trace and cluster"
    keys Enter
    expect "runs ready at t=0" "fgd and pwr start"
    keys 2 g
    expect "Go to decision number" "g asks for a decision"
    keys 8000 Enter
    expect "Going to decision #8000" "a far jump shows its progress"
    keys j j j Escape
    # The jump is a few seconds of work at most (under a second on an idle
    # machine): Esc stops it part way, or it has finished first.  Either
    # way the keys typed meanwhile did nothing and the screen answered.
    end=$(( $(date +%s) + WAIT ))
    while cap && ! grep -qE "stopped at decision #|at decision #8000 in" "$T/screen" &&
          [ "$(date +%s)" -lt "$end" ]; do sleep 0.2; done
    if grep -q "stopped at decision" "$T/screen"; then
        at=$(grep -o 'stopped at decision #[0-9]*' "$T/screen" | grep -o '[0-9]*$')
        [ "$at" -lt 8000 ] && ok "Esc stops it part way (decision $at of 8000)" ||
            { bad "Esc stops it part way: '$at'"; show; }
    elif grep -q "at decision #8000 in" "$T/screen"; then
        ok "the jump finished before Esc arrived (Esc then does nothing)"
    else
        bad "the jump neither stopped nor finished"; show
    fi
    expect_not "Going to decision" "and the progress is gone"
    keys q y
    expect "EXITED rc=0" "quits"
fi

echo "e2e_tui_tables: $fails failed"
[ "$fails" -eq 0 ]

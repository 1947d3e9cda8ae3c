#!/bin/sh
# End-to-end test of an operator's cluster brought in from the tools they
# run: kubectl's node and pod lists with nvidia-smi CSV of the GPU nodes
# import as one snapshot (cluster, running pods, readings, pending queue);
# run, plan and solve start from it with --from-snapshot (plan answers how
# many GPUs to add); nvidia-smi alone and DCGM metrics alone import too; a
# malformed file is refused with its position and nothing imported; the
# dashboard's Data imports the same files (format detected), Cluster shows
# the snapshot with each GPU's readings, and c starts a Compare from it.
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_ops.sh  (run from the project root)
set -u
NAME=e2e_ops
. tests/lib_e2e.sh
no_samples
F=$PWD/tests/fixtures/ops

# --- kubectl + nvidia-smi ---------------------------------------------------------
expect_rc 0 "k8s import" "$G" import --name lab "$F/nodes.json" "$F/pods.json" \
    "$F/gpu-a100-0.csv" "$F/hami-workshop.csv"
contains "$T/out" "cluster 'lab', snapshot 'lab', trace 'lab-pending' (skipped: 1 pods finished) (k8s)" \
    "format detected as k8s: cluster, snapshot, pending queue"
contains "$T/out" "3 nodes, 6 tasks" "3 nodes, 4 running + 2 pending pods"
expect_rc 0 "show cluster" "$G" show cluster lab
contains "$T/out" "gpu-a100-0     A100-40GB     4      47500" "A100 node: 4 GPUs of the built-in profile, 47.5 vCPU"
contains "$T/out" "hami-workshop  T4            1" "T4 node from the GFD label Tesla-T4"
expect_rc 0 "show snapshot" "$G" --format csv show snapshot lab
contains "$T/out" "ml/notebook-1,0,gpu-a100-0,2,500" "openb gpu-milli annotation: half a GPU, on the first free device"
contains "$T/out" "default/gpu-test,1,hami-workshop,0,300" "HAMi gpucores 30 %: 300 milli"
contains "$T/out" "gpu-a100-0,2,A100-40GB,41,122.4,1275,9120,40960" \
    "csv: GPU 2's readings after the placements (util, power, SM clock, memory used/total)"
contains "$T/out" "hami-workshop,0,T4,31,35.1,1590,2980,16384" "csv: the T4's readings"
expect_rc 0 "show snapshot (text)" "$G" show snapshot lab
contains "$T/out" "4 task(s) on 4 of 5 GPUs (2.2 GPUs idle, FGD fragmentation 1.1 GPUs" \
    "text: the header says the state's fragmentation"
contains "$T/out" "GPU readings:" "text: a readings table"
contains "$T/out" "gpu-a100-0       0  A100-40GB        97    348.1       1410         31245          40960" \
    "text: GPU 0's readings"
expect_rc 0 "show snapshot (json)" "$G" --format json show snapshot lab
contains "$T/out" '"fragmentation_gpus": 1.1' "json: the fragmentation"
contains "$T/out" '"power_w": 348.12' "json: GPU 0's power as read"
contains "$T/out" '"mem_total_mib": 16384' "json: the T4's memory"
expect_rc 0 "export snapshot (json)" "$G" --format json export snapshot lab --out "$T/lab.json"
contains "$T/lab.json" '"clock_mhz": 1275' "export json: GPU 2's SM clock"
contains "$T/lab.json" '"trace": "snapshot:lab"' "export json: still the trace's document"
expect_rc 0 "export snapshot (csv)" "$G" --format csv export snapshot lab --out "$T/labdir"
contains "$T/labdir/readings.csv" "gpu-a100-0,3,0,52.03,210,4,40960" "export csv: readings.csv"
expect_rc 0 "a re-import of the export" "$G" import --name lab-copy "$T/labdir"

# --- what-ifs from the snapshot ---------------------------------------------------------
expect_rc 0 "run --from-snapshot" "$G" run --from-snapshot lab --trace lab-pending \
    --policy cats,fgd --remaining 600
contains "$T/out" "4 task(s) in place on 4 of 5 GPUs" "run starts from the snapshot's state"
contains "$T/out" "2 arriving" "the pending pods arrive"
contains "$T/out" "not saved (run 0): a saved run would replay its trace without the snapshot's tasks in place" \
    "run says its runs from a snapshot are not saved"
expect_rc 0 "plan --from-snapshot" "$G" plan --from-snapshot lab --trace lab-pending \
    --gpu A100-40GB --policy cats,fgd --remaining 600 --per-server 4 --sla-target 20
contains "$T/out" "fewest GPUs to add meeting SLA <= 20% violations:  cats 1  fgd 4" \
    "plan answers with a GPU count to add"
expect_rc 0 "plan --from-snapshot --unbounded" "$G" plan --from-snapshot lab --gpu H100 \
    --unbounded --policy first --more 8
contains "$T/out" "   4  first" "an unbounded pool counts only the GPUs it added (4 for 8 more pods)"
expect_rc 0 "solve --from-snapshot" "$G" solve cats --from-snapshot lab --trace lab-pending \
    --time-limit 10
contains "$T/out" "trace lab+lab-pending" "solve packs the snapshot's and the pending tasks"
expect_rc 2 "run needs a trace or a snapshot" "$G" run --cluster lab
expect_rc 1 "snapshot of another cluster" "$G" run --from-snapshot lab --cluster other

# --- nvidia-smi alone, DCGM alone -------------------------------------------------------
expect_rc 0 "smi import" "$G" import --name boxes "$F/smi-hosts.csv" "$F/box-1.apps.csv"
contains "$T/out" "GPU profile 'RTX-3090', cluster 'boxes', snapshot 'boxes' (smi)" \
    "an unknown GPU model becomes a profile (the L4 is built in)"
expect_rc 0 "dcgm import" "$G" import --name scrape "$F/i-030791dc5a37cd257.prom" \
    "$F/hami-workshop.prom"
contains "$T/out" "(dcgm)" "DCGM metrics detected"
contains "$T/out" "2 nodes, 1 tasks" "two hosts, the pod a series names"

# --- malformed: position, nothing imported ------------------------------------------------
"$G" list > "$T/before"
expect_rc 1 "bad nvidia-smi value" "$G" import --name bad "$F/bad/h100-bad-util.csv"
contains "$T/err" "h100-bad-util.csv:3:6: expected a number >= 0" "the bad field's line and column"
expect_rc 1 "bad DCGM line" "$G" import --name bad "$F/bad/n1-bad-quote.prom"
contains "$T/err" "n1-bad-quote.prom:3:51: expected '\"' closing the label value" "the bad quote's column"
expect_rc 1 "bad kubectl quantity" "$G" import --name bad "$F/nodes.json" "$F/bad/nodes-bad-quantity.json"
contains "$T/err" "nodes-bad-quantity.json:3:31: items[0].status.allocatable.nvidia.com/gpu" \
    "the bad quantity's position and path"
"$G" list > "$T/after"
cmp -s "$T/before" "$T/after" && ok "the store is unchanged" || bad "the store changed"

# --- the dashboard ----------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
    echo "e2e_ops: dashboard part skipped: tmux is not installed"
    e2e_finish
    exit $?
fi
export GPUPLAN_DB="$T/tui.sqlite"
SOCK=gpuplan-ops-$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT
cap() { tm capture-pane -p -t tui > "$T/screen" 2>/dev/null; }
wait_for() {
    end=$(( $(date +%s) + ${E2E_TUI_WAIT:-30} ))
    while :; do
        cap
        grep -qF -- "$1" "$T/screen" && return 0
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.2
    done
}
expect() {
    if wait_for "$1"; then ok "$2"; else bad "$2: no '$1' on screen"; echo "----"; cat "$T/screen"; fi
}
keys() { tm send-keys -t tui "$@"; }
mkdir "$T/mylab"
cp "$F/nodes.json" "$F/pods.json" "$F/gpu-a100-0.csv" "$F/hami-workshop.csv" "$T/mylab/"
# (in $T: the equivalent command X shows is written there)
case "$G" in /*) GA=$G ;; *) GA=$PWD/$G ;; esac
tm new-session -d -s tui -x 120 -y 40 -c "$T" "env LANG=C.UTF-8 TERM=tmux-256color '$GA'; sleep 600"
expect "Compare setup" "dashboard opens"
keys 5 i
expect "Import: file or directory paths" "Data's import prompt"
keys "$T/mylab/nodes.json $T/mylab/pods.json $T/mylab/gpu-a100-0.csv $T/mylab/hami-workshop.csv" Enter
expect "looks like: k8s" "Data detects the kubectl lists"
keys Enter
expect "snapshot 'mylab'" "imported from Data"
keys j j j j j Tab
expect "cluster mylab" "the snapshot is listed"
keys Enter
expect "snapshot mylab of mylab" "Cluster shows the imported snapshot"
expect "GPU power 899 W measured" "the GPUs' measured power summed, labelled"
expect "measured: 97%  348.1 W  1410 MHz  30.5 GiB" "GPU 0's readings"
expect "ml/resnet-" "its pod"
keys l l
expect "measured: 41%  122.4 W  1275 MHz  8.9 GiB" "GPU 2's readings"
keys u
expect "▓▓▓ ▓▓▓ ▒▒▒ ···" "the utilization view shows the GPUs as read (97, 95, 41, 0 %)"
keys c
expect "runs from snapshot mylab ready at t=0" "c starts a Compare from the snapshot"
expect "snapshot:mylab on mylab" "Compare runs on the snapshot's tasks and cluster"
keys Right Right Right Right Right
expect "decision #5" "four pods in place, then the first pending one's decision"
keys Left Left Left Left 2
expect "in place at the start" "Step explains a pod placed where the snapshot had it"
keys 1 End
expect "ran to the end" "the runs from the snapshot finish"
keys S
expect "runs from a snapshot are not saved: they would replay without its tasks in place" \
    "S refuses to save runs that would replay without the snapshot's tasks"
# The Planner from the snapshot: GPUs added to its cluster, its pending pods arriving.
keys 4
expect "What if" "Planner"
keys End Right
expect "From snapshot    mylab" "the last parameter chooses the snapshot"
expect "Trace            mylab-pending" "its pending pods arrive"
expect "GPUs from        0" "the counts are GPUs added, from none"
expect "press r to sweep the GPUs added to snapshot mylab" "the sweep is from the snapshot"
keys r
expect "sweep done" "the sweep from the snapshot finishes"
expect "Answer: " "the Planner answers"
keys X Down Down Enter
expect "CLI: gpuplan plot plan --from-snapshot mylab --trace mylab-pending --gpu" \
    "the equivalent command starts from the snapshot"
# After a sweep the results open on the answer's row (none here): page
# to the top first.
keys PPage PPage
expect "    4 cats                 16.7 00:56:13  1.1k" \
    "4 A10s added: one pending pod of six tasks still waits too long under cats"
expect_rc 0 "the CLI's sweep" "$G" plan --from-snapshot mylab --trace mylab-pending --gpu A10 \
    --from 0 --to 9 --step 1 --policy cats,corrgpu,first
contains "$T/out" "   4  cats       6         16.67      3373.3     5003.9       1053.2" \
    "the CLI sweeps the same from the snapshot"
keys q
e2e_finish

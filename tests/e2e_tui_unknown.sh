#!/bin/sh
# End-to-end test of the Cluster screen saying what is known and what is
# not, through tmux at 80x24 and at 160x48:
#   a snapshot from kubectl alone (pods on GPUs no monitor read): the
#   utilization view shows those GPUs as ? and its legend "? no reading",
#   the GPU pane "utilization now: no reading (?)" and its task "?%", not
#   0 % (ASCII too: LANG=C);
#   the info line names the power model's total and prints it whole
#   ("1,320 W model", not "1.3k W");
#   the same pods with nvidia-smi readings: the measured total beside the
#   modelled one, each labelled, and the GPU pane's "model 400.0 W" beside
#   "measured: 97%  348.1 W ...".
# Calls the ui layer (scr_cluster.c, gpuinfo.c) on snapshots the k8s and
# nvidia-smi importers store.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_unknown.sh  (run from the project root)
set -u
NAME=e2e_tui_unknown
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
F=$PWD/tests/fixtures/ops
start() {
    w=$1 h=$2
    shift 2
    end_session
    for try in 1 2 3; do
        tm new-session -d -s tui -x "$w" -y "$h" "env $* '$G'; sleep 600" && break
        sleep 0.5
    done
}

"$G" import --name kube "$F/nodes.json" "$F/pods.json" >/dev/null 2>"$T/err" ||
    { cat "$T/err"; bad "kubectl lists imported"; }
"$G" import --name lab "$F/nodes.json" "$F/pods.json" "$F/gpu-a100-0.csv" \
    "$F/hami-workshop.csv" >/dev/null 2>"$T/err" ||
    { cat "$T/err"; bad "kubectl lists and nvidia-smi imported"; }

for size in 80x24 160x48; do
    for lang in C.UTF-8 C; do
        start "${size%x*}" "${size#*x}" LANG=$lang TERM=tmux-256color
        expect "Compare setup" "$size $lang: dashboard opens"
        # Data: Snapshots (the sixth kind), its list, the first (kube).
        keys 5
        expect "Snapshots" "$size $lang: Data"
        keys j j j j j Tab Enter
        expect "snapshot kube of kube" "$size $lang: Cluster shows the kubectl snapshot"
        keys u
        expect "view: utilization now" "$size $lang: the utilization view"
        expect "?no reading" "$size $lang: the legend names the glyph of no reading"
        expect "???" "$size $lang: GPUs with unread pods shown as ?"
        expect "utilization now: no reading (?)" "$size $lang: the GPU pane says no reading"
        expect_not "utilization now 0%" "$size $lang: not 0 %"
        expect "   ?%  01:00:00 left" "$size $lang: its task's utilization unknown"
        expect "GPU power 1,320 W model" "$size $lang: the model's total, whole and named"
        keys 5
        expect "Snapshots" "$size $lang: back to Data"
        keys j Enter
        expect "snapshot lab of lab" "$size $lang: Cluster shows the snapshot with readings"
        expect "GPU power 899 W measured" "$size $lang: the measured total named"
        expect "model 400.0 W" "$size $lang: the GPU's modelled draw named"
        expect "measured: 97%  348.1 W  1410 MHz" "$size $lang: its measured draw named"
        if [ "$size" = 160x48 ]; then
            expect "GPU power 899 W measured, 1,286 W model" \
                "$size $lang: measured and modelled totals side by side"
        fi
    done
done
end_session
echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]

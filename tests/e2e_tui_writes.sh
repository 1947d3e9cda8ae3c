#!/bin/sh
# End-to-end test of the dashboard noticing other programs' writes, through
# tmux: with the dashboard open on Compare setup, a cluster made with the
# CLI appears in the cluster list within a tick, and a trace imported with
# the CLI in the trace list, each cursor staying on the item it was on
# (by name: the new items sort above it); Data's cluster list shows the
# cluster too, its cursor kept.  Calls the ui layer's tick (tui.c) on the
# store's data_version (db/store.c).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_writes.sh  (run from the project root)
set -u
NAME=e2e_tui_writes
NEED=cats-testbed
# A tick is a second; the CLI's own start takes a moment under load.
WAIT_S=15
. tests/lib_tui.sh

tm new-session -d -s tui -x 120 -y 35 "env LANG=C.UTF-8 TERM=tmux-256color '$G'; sleep 600"
expect "Compare setup" "dashboard opens"
# The cluster pane, one down: corrgpu-example.
keys Tab j
expect "Run: cats-testbed on corrgpu-example" "the cluster cursor on corrgpu-example"

"$G" cluster create aaa-new --gpu H100 --servers 1 --per-server 8 >"$T/out" 2>&1 ||
    { bad "cluster create"; cat "$T/out"; }
expect "aaa-new            1 node, 8 GPUs" "a cluster made with the CLI appears in Compare"
expect "Run: cats-testbed on corrgpu-example" "the cluster cursor stays on corrgpu-example"

mkdir -p "$T/aaa-trace"
printf 'name,arrival_s,duration_s\nt0,0,100\n' >"$T/aaa-trace/tasks.csv"
"$G" import --name aaa-trace "$T/aaa-trace" >"$T/out" 2>&1 || { bad "import"; cat "$T/out"; }
expect "aaa-trace       1 task " "a trace imported with the CLI appears in Compare"
expect "Run: cats-testbed on corrgpu-example" "the trace cursor stays on cats-testbed"

# Data: the Clusters kind (the third), its list, the second from the top
# (Details names it first, then its date).
keys 5
expect "Clusters" "Data"
keys j j Tab Home j
expect "│ cats-testbed 20" "Data's cursor on cats-testbed"
"$G" cluster create aab-new --gpu H100 --servers 1 --per-server 8 >"$T/out" 2>&1 ||
    { bad "second cluster create"; cat "$T/out"; }
expect "aab-new" "a cluster made with the CLI appears in Data"
expect "│ cats-testbed 20" "Data's cursor stays on cats-testbed"

end_session
echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]

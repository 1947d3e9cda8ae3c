#!/bin/sh
# End-to-end test of inputs read once: an operator's output piped in
# (/dev/stdin, a FIFO, what `<(kubectl get pods -A -o json)` gives) is read
# whole before its format is detected, so it imports as a file does; a FIFO
# with no writer yet is said to be waited on after a second, and the import
# goes on when data comes.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_ops_pipes.sh  (run from the project root)
set -u
NAME=e2e_ops_pipes
. tests/lib_e2e.sh
no_samples

F=tests/fixtures/ops
# A pipe: detection and import read the same bytes.
cat "$F/util-range.json" | "$G" import --name piped /dev/stdin >"$T/out" 2>"$T/err"
contains "$T/out" "imported trace 'piped' (promrange)" "a range query piped in is detected and imported"

# A FIFO whose writer comes after two seconds.
mkfifo "$T/fifo"
( sleep 2; cat "$F/nodes.json" >"$T/fifo" ) &
writer=$!
expect_rc 0 "a FIFO written late" "$G" import --name fifo --type k8s "$T/fifo"
wait "$writer"
contains "$T/err" "waiting for $T/fifo to give data" "the wait is said on stderr"
contains "$T/out" "imported cluster 'fifo'" "and the FIFO's list is imported"
e2e_finish

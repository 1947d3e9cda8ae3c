#!/bin/sh
# End-to-end test of the dashboard's export key (X): on Compare, Planner,
# Data, Step and Cluster it writes the screen's tables as CSV and its charts
# as SVG and PNG into the directory the dashboard was started in (or one
# typed), names the files on the status line, and shows the gpuplan command
# for the same; on Help it says there is nothing to export.  The Planner
# shows its one-line answer and puts a slider back to its default with d.
# Drives the real binary in a private tmux server (tests/lib_tui.sh).
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_export.sh  (run from the project root)
set -u
NAME=e2e_export
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
# Status lines name long paths: join the lines the pane wraps.
cap() { tm capture-pane -p -J -t tui > "$T/screen" 2>/dev/null; }
has_file() {    # has_file PATH MIN_BYTES DESCRIPTION
    if [ -f "$1" ] && [ "$(wc -c < "$1")" -gt "$2" ]; then
        ok "$3 ($(wc -c < "$1" | tr -d ' ') bytes)"
    else bad "$3: $1 missing or not over $2 bytes"; ls -la "$(dirname "$1")"; fi
}
file_has() {    # file_has PATH TEXT DESCRIPTION
    if grep -qF -- "$2" "$1" 2>/dev/null; then ok "$3"; else bad "$3: no '$2' in $1"; fi
}

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }
OUT="$T/out"
mkdir -p "$OUT"
tm new-session -d -s tui -x 140 -y 40 -c "$OUT" \
    "env LANG=C.UTF-8 TERM=tmux-256color GPUPLAN_TUI_LOG='$T/tui.log' '$G'; sleep 600"

# --- Compare: the run table and the four charts ------------------------------------
expect "Compare setup" "opens on the Compare setup"
keys X Enter
expect "wrote 3 files in $OUT: gpuplan-compare-{traces.csv, clusters.csv, policies.csv}" \
    "the setup exports its lists"
file_has "$OUT/gpuplan-compare-traces.csv" "cats-testbed" "the traces listed"
file_has "$OUT/gpuplan-compare-policies.csv" "cats,\"CATS (correlation-aware" \
    "the picked policies listed"
keys Enter
expect "3 runs ready at t=0" "comparison starts"
keys Right Right Right
expect "decision #3" "three placements made"
keys X
expect "Export Compare" "X opens the export menu"
expect "Write CSV, SVG and PNG into $OUT" "the menu names the current directory"
keys Enter
expect "wrote 9 files in $OUT: gpuplan-compare-{runs.csv, gpus.svg, gpus.png" \
    "the status line names the files written"
has_file "$OUT/gpuplan-compare-runs.csv" 100 "Compare's run table as CSV"
file_has "$OUT/gpuplan-compare-runs.csv" "policy,run_id,t_s,avg_gpus" "CSV header"
file_has "$OUT/gpuplan-compare-runs.csv" "cats," "CSV row of cats"
for m in gpus power frag queue; do
    has_file "$OUT/gpuplan-compare-$m.svg" 5000 "Compare's $m chart as SVG"
    has_file "$OUT/gpuplan-compare-$m.png" 5000 "Compare's $m chart as PNG"
done
file_has "$OUT/gpuplan-compare-gpus.svg" "series: cats; corrgpu; first" "SVG names the policies"
keys X Down Down Enter
expect "CLI: gpuplan run --trace cats-testbed --cluster cats-testbed --policy cats,corrgpu,first" \
    "the equivalent command on the status line"

# --- Step and Cluster: their tables ------------------------------------------------------
keys 2
expect "Decision #3 of cats" "Step screen"
keys X Enter
expect "gpuplan-step-{candidates.csv, decisions.csv, util.svg, util.png}" \
    "Step writes candidates, decisions and the task's utilization"
file_has "$OUT/gpuplan-step-util.svg" "GPU utilization of task" "the utilization chart's title"
file_has "$OUT/gpuplan-step-decisions.csv" "decision,t_s,task,node,gpus,reason" "decisions CSV header"
file_has "$OUT/gpuplan-step-candidates.csv" "candidate," "candidates CSV header"
keys 3
expect "Cluster" "Cluster screen"
keys X Enter
expect "gpuplan-cluster-{gpus.csv, heat.svg, heat.png}" "Cluster writes its GPU table and heatmap"
has_file "$OUT/gpuplan-cluster-heat.png" 5000 "the heatmap as PNG"
file_has "$OUT/gpuplan-cluster-heat.svg" "GPU allocation by server: cats on cats-testbed" \
    "the heatmap's title"
file_has "$OUT/gpuplan-cluster-gpus.csv" "node,gpu,model,alloc_milli" "GPU table CSV header"

# --- Planner: a sweep, its answer, its chart, a slider reset ----------------------------
keys 4
expect "press r to sweep" "Planner screen"
keys r
expect "sweep done" "the sweep finishes"
expect "Answer: " "the one-line answer"
expect "× V100" "the answer names the GPUs"
keys X Enter
expect "wrote 3 files in $OUT: gpuplan-planner-{results.csv, sla.svg, sla.png}" \
    "Planner writes its results and its chart"
file_has "$OUT/gpuplan-planner-results.csv" "gpus,policy,ran,sla_viol_pct,jct_mean_s,jct_p95_s,avg_power_w,capex_usd,meets_sla,fewest,stable,monotonic" \
    "results CSV: plan's columns"
has_file "$OUT/gpuplan-planner-sla.svg" 20000 "Planner chart as SVG"
has_file "$OUT/gpuplan-planner-sla.png" 10000 "Planner chart as PNG"
file_has "$OUT/gpuplan-planner-sla.svg" "cheapest meeting SLA violations" \
    "the SVG carries the answer"
keys X Down Down Enter
expect "CLI: gpuplan plot plan --trace cats-testbed --gpu V100" "Planner's equivalent command"
file_has "$OUT/gpuplan-planner-command.sh" "gpuplan plot plan --trace cats-testbed --gpu V100 --from" \
    "the command written whole to a file"
# The results CSV is what `gpuplan --format csv plan` with the same options
# writes: the same columns under the same names, the same figures.
args=$(grep -o 'gpuplan plot plan .*' "$OUT/gpuplan-planner-command.sh" | head -1 |
       sed 's/^gpuplan plot plan //; s/ --metric [a-z_]*//; s/ --out [^ ]*//')
eval "set -- $args"
"$G" --format csv plan "$@" > "$T/plan.csv" 2>"$T/plan.err"
if cmp -s "$T/plan.csv" "$OUT/gpuplan-planner-results.csv"; then
    ok "the Planner's CSV is plan's, column for column"
else
    bad "the Planner's CSV differs from plan --format csv $args"
    diff "$T/plan.csv" "$OUT/gpuplan-planner-results.csv" | head -10; head -3 "$T/plan.err"
fi
# The SLA target slider (row 12) up by 2, then back to its default.
keys Home
for i in 1 2 3 4 5 6 7 8 9 10 11; do keys Down; done
keys + +
expect "<= 2.0% violations" "the SLA target slider moved"
keys d
expect "SLA target back to the default: <= 0.0% violations" "d puts it back"

# --- into a directory typed -------------------------------------------------------------
keys X Down Enter
expect "Directory to write" "the directory prompt"
keys "$T/typed" Enter
expect "wrote 3 files in $T/typed" "written into the directory typed"
has_file "$T/typed/gpuplan-planner-results.csv" 50 "the typed directory is made"

# --- Data: the list shown; Help: nothing ---------------------------------------------------
keys 5
expect "Data" "Data screen"
keys X Enter
expect "wrote 1 file in $OUT: gpuplan-data-{" "Data writes its list"
keys ?
expect "export what the screen shows" "Help lists the export key"
keys X Enter
expect "Help has no table or chart to export" "Help says there is nothing to export"
keys q
echo "e2e_export: $fails failed"
[ "$fails" -eq 0 ]

#!/bin/sh
# End-to-end test of the Planner screen telling the truth, through tmux, at
# 80x24 and 160x48:
#   results swept with other parameters are marked stale (progress line,
#   answer, results box) and X refuses to export them as current;
#   a range running backwards (128 to 32) is refused at r with the CLI's
#   reason and the previous results stay; an out-of-range value typed is
#   refused with its range, not clamped;
#   keys typed 10 ms apart while editing land where they were typed;
#   the footer keeps "r run" and "Esc cancel".
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_planner.sh  (run from the project root)
set -u
NAME=e2e_tui_planner
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh
start() {       # start W H: the dashboard in a fresh session
    end_session
    for try in 1 2 3; do
        tm new-session -d -s tui -x "$1" -y "$2" -c "$T" \
            "env LANG=C.UTF-8 TERM=tmux-256color '$G'; echo \"EXITED rc=\$?\"; sleep 600" &&
            break
        sleep 0.5
    done
}
last_line() { cap; tail -1 "$T/screen"; }
# param N: the cursor on parameter row N (0 = Trace), one key at a time.
param() {
    keys Home
    n=0
    while [ "$n" -lt "$1" ]; do keys Down; n=$((n + 1)); done
}
# type_value TEXT: Enter on the current parameter, clear it, type TEXT, Enter.
type_value() {
    keys Enter
    wait_for "Enter" >/dev/null
    keys BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
    keys "$1" Enter
}
# slow KEY...: each key its own send-keys, 10 ms apart (a fast typist).
slow() {
    for k in "$@"; do keys "$k"; sleep 0.01; done
}

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }

for size in 80x24 160x48; do
    w=${size%x*} h=${size#*x}
    start "$w" "$h"
    expect "Compare setup" "$size: opens on the Compare setup"
    keys 4
    expect "What if" "$size: Planner"
    line=$(last_line)
    case "$line" in *"r run"*"Esc cancel"*) ok "$size: the footer keeps r run and Esc cancel" ;;
        *) bad "$size: footer without r run / Esc cancel: $line" ;; esac
    # GPUs from 1, to 8, step 1: a small sweep.
    param 3; type_value 1
    param 4; type_value 8
    param 5; type_value 1
    keys r
    expect "sweep done" "$size: the sweep finishes"
    expect "Answer:" "$size: an answer"
    # The answer ends with the GPU speeds are relative to ("speeds vs"): seen, it was
    # shown to its end (wrapped, not cut).
    expect "speeds vs" "$size: the answer is shown to its end, the reference GPU named"
    # GPUs to 9: the results are for 1..8.
    param 4; type_value 9
    expect "STALE" "$size: the results are marked stale once GPUs to changes"
    expect "Stale answer" "$size: the answer says it is stale"
    keys X Enter
    expect "the results are stale" "$size: X does not export stale results"
    [ -f "$T/gpuplan-planner-results.csv" ] && bad "$size: stale results written" ||
        ok "$size: no stale results written"
    # A price is read when results are: not stale.
    param 4; type_value 8
    expect "sweep done" "$size: back to the swept parameters, the results are current"
    param 7; type_value 12000
    expect "sweep done" "$size: a price change keeps the results current"
    # 128 to 32: refused at r, the previous results kept (and stale).
    param 3; type_value 128
    param 4; type_value 32
    keys r
    expect "runs backwards" "$size: a range 128 to 32 is refused"
    expect "STALE" "$size: the refused run leaves the previous results, marked stale"
    # Out of range: refused with its range, the value unchanged.
    param 11; type_value 150
    expect "must be 0 to 100" "$size: an SLA target of 150 % is refused"
    expect_not "150.0% violations" "$size: the SLA target is not changed (nor clamped)"
    expect "<= 0.0% violations" "$size: the SLA target stays 0"
    param 6; type_value 99
    expect "must be 1 to 16" "$size: 99 GPUs per server is refused"
    # Keys 10 ms apart: Enter, the value, Enter, Down, Enter, the value, Enter.
    param 3
    slow Enter BSpace BSpace BSpace BSpace 2 Enter Down Enter BSpace BSpace BSpace BSpace 9 Enter
    expect "GPUs from        2 " "$size: the first value typed fast lands in GPUs from"
    expect "GPUs to          9 " "$size: the second lands in GPUs to"
    end_session
done

# A GPU power cap typed in the Planner gives plan --gpu-cap's answer: the
# exported results equal the command's, row for row.
start 160 48
expect "Compare setup" "cap: opens on the Compare setup"
keys 4
expect "What if" "cap: Planner"
param 3; type_value 1
param 4; type_value 4
param 5; type_value 1
param 25; type_value 100
expect "GPU power cap    100 W" "cap: the cap typed is shown"
param 25; type_value V100=x
expect "is not watts" "cap: a malformed cap is refused"
expect "GPU power cap    100 W" "cap: the refused cap leaves the last one"
keys r
expect "sweep done" "cap: the capped sweep finishes"
keys X Enter
wait_for "written" >/dev/null
end_session
if [ -f "$T/gpuplan-planner-results.csv" ]; then
    ok "cap: the results are exported"
    # gpus, policy, jct_mean_s, avg_power_w of each, in order (the Planner's
    # CSV has plan's columns); the same
    # policies asked of plan (the Planner's GPU is the trace's V100)
    awk -F, 'NR > 1 { print $1, $2, $5, $7 }' "$T/gpuplan-planner-results.csv" >"$T/tui.rows"
    pols=$(awk '!seen[$2]++ { printf "%s%s", n++ ? "," : "", $2 }' "$T/tui.rows")
    "$G" --format csv plan --trace cats-testbed --gpu V100 --from 1 --to 4 --step 1 \
        --policy "$pols" --gpu-cap 100 -q >"$T/cli.csv" 2>"$T/cli.err" ||
        bad "cap: plan --gpu-cap runs: $(cat "$T/cli.err")"
    awk -F, 'NR > 1 { print $1, $2, $5, $7 }' "$T/cli.csv" >"$T/cli.rows"
    if [ -s "$T/cli.rows" ] && cmp -s "$T/tui.rows" "$T/cli.rows"; then
        ok "cap: the Planner and plan --gpu-cap give the same answer"
    else
        bad "cap: the Planner and plan --gpu-cap differ: $(diff "$T/tui.rows" "$T/cli.rows" | head -6) ($pols)"
    fi
else
    bad "cap: the results are exported"
fi

# Energy priced by an hourly series file (typed with Tab completing its
# name), carbon, a PUE, years and a facility cost typed in the Planner
# give plan's figures with the same options: the exported results equal
# plan --format csv's, row for row.  A malformed series is refused with
# its file:line:col, nothing changed.
cp "$SAMPLES/price_usd_per_kwh.csv" "$T/tariff.csv"
printf 'hour,usd_per_kwh\n0,0.1\n1,cheap\n' >"$T/bad_tariff.csv"
start 160 48
expect "Compare setup" "cost: opens on the Compare setup"
keys 4
expect "What if" "cost: Planner"
param 3; type_value 1
param 4; type_value 4
param 5; type_value 1
param 18; keys Enter; wait_for "Enter" >/dev/null
keys tarif Tab Enter
expect "Energy \$/kWh     tariff.csv, 24 h" "cost: the price series typed (Tab completes its name)"
param 18; type_value bad_tariff.csv
expect "bad_tariff.csv:3:" "cost: a malformed series is refused at its file:line:col"
expect "Energy \$/kWh     tariff.csv, 24 h" "cost: the refused series leaves the last one"
param 19; type_value 400
param 20; type_value 1.3
param 21; type_value 3
param 22; type_value 150
expect "Facility \$/kW-mo 150" "cost: the facility cost typed"
keys r
expect "sweep done" "cost: the priced sweep finishes"
expect "CO2e t" "cost: the results show CO2e"
expect "Cost \$" "cost: the results show the cost over the years"
keys X Enter
wait_for "written" >/dev/null
end_session
if [ -f "$T/gpuplan-planner-results.csv" ]; then
    pols=$(awk -F, 'NR > 1 && !seen[$2]++ { printf "%s%s", n++ ? "," : "", $2 }' \
           "$T/gpuplan-planner-results.csv")
    "$G" --format csv plan --trace cats-testbed --gpu V100 --from 1 --to 4 --step 1 \
        --policy "$pols" --usd-per-kwh "$T/tariff.csv" --carbon 400 --pue 1.3 --years 3 \
        --usd-per-kw-month 150 -q >"$T/cli.csv" 2>"$T/cli.err" ||
        bad "cost: plan with the same prices runs: $(cat "$T/cli.err")"
    if grep -q "energy_usd,cost_usd" "$T/cli.csv" &&
       cmp -s "$T/gpuplan-planner-results.csv" "$T/cli.csv"; then
        ok "cost: the Planner and plan give the same energy, cost and CO2e figures"
    else
        bad "cost: the Planner and plan differ: $(diff "$T/gpuplan-planner-results.csv" "$T/cli.csv" | head -6)"
    fi
else
    bad "cost: the results are exported"
fi

echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]

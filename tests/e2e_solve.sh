#!/bin/sh
# End-to-end test of `gpuplan solve` and of the Optimal row of `gpuplan run`:
# the CorrGPU motivating example (G* = 1), the CATS testbed's stage 1 (all
# eight tasks on one V100 at the SLA clock: 23.3 + 0.09 * 1350 * 1.2^(-1/0.91)
# = 122.741 W), GOGH on the gavel-like sample, the LP files solved again by
# glpsol to the same objective, Gavel's max-sum throughput, the cheapest
# fleet (GPUs to buy), the output formats and usage errors.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_solve.sh  (run from the project root)
set -u
NAME=e2e_solve
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set corrgpu-example --set cats-testbed --set gavel-like \
    --set pai-like "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "solve --help" "$G" solve --help
contains "$T/out" "--write-lp" "help lists --write-lp"

# glpsol's objective line: "+   148: mip =   4.244169834e+03 >= ..."
glpsol_obj() {
    glpsol --cuts --lp "$1" -o "$T/sol.txt" >/dev/null 2>&1 || return 1
    awk '/^Objective:/ { print $4 }' "$T/sol.txt"
}
same_number() {     # same_number A B DESCRIPTION (the table prints 3 decimals)
    if awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d;
            m = (a < 0 ? -a : a); exit !(d <= 5e-4 + 1e-6 * m) }'; then ok "$3"
    else bad "$3: $1 vs $2"; fi
}

# CorrGPU: the paper's example needs one GPU; First takes two.
expect_rc 0 "corrgpu example" "$G" --format csv solve corrgpu --trace corrgpu-example \
    --cluster corrgpu-example --write-lp "$T/corr.lp"
contains "$T/out" "optimal,optimal,1,1,0.000" "G* = 1, proven"
contains "$T/out" "first,heuristic,2," "First needs two GPUs"
if command -v glpsol >/dev/null; then
    same_number "$(glpsol_obj "$T/corr.lp")" 1 "glpsol solves the CorrGPU LP file to 1"
else
    echo "skip glpsol checks: glpsol is not installed (Debian package glpk-utils)"
fi

# CATS: stage 1 of the testbed (t1..t8 running at 25 s).
expect_rc 0 "cats stage 1" "$G" --format csv solve cats --trace cats-testbed \
    --cluster cats-testbed --at 25 --write-lp "$T/cats.lp" --write-mps "$T/cats.mps"
contains "$T/out" "optimal,optimal,122.741,122.741,0.000" "one GPU at the SLA clock"
contains "$T/out" "hotcloud,heuristic,490.963" "HotCloud's placement draws 490.963 W"
if command -v glpsol >/dev/null; then
    same_number "$(glpsol_obj "$T/cats.lp")" 122.741 "glpsol solves the CATS LP file"
    glpsol --freemps "$T/cats.mps" -o "$T/sol.txt" >/dev/null 2>&1
    same_number "$(awk '/^Objective:/ { print $4 }' "$T/sol.txt")" 122.741 \
        "glpsol solves the CATS MPS file"
fi
expect_rc 0 "placements" "$G" solve cats --trace cats-testbed --cluster cats-testbed --at 25 \
    --placements --no-heuristics
contains "$T/out" "t1      2  testbed    2    1104.9  122.74" \
    "placements in task order at the SLA clock (1350 * 1.2^(-1/0.91))"

# The utilization cap (CATS §4 threshold) makes the same stage need 4 GPUs.
expect_rc 0 "cats with util cap" "$G" --format csv solve cats --trace cats-testbed \
    --cluster cats-testbed --at 25 --util-cap 100 --no-heuristics
contains "$T/out" "optimal,optimal,490.963" "mean utilizations under 100 % need four GPUs"

# An infeasible instance names the task that fits nowhere and why, on
# every path, and prints no bound (the paper's loop printed its last LP's).
for path in "" --no-bounds --paper; do
    expect_rc 0 "infeasible corrgpu $path" "$G" --format csv solve corrgpu \
        --trace corrgpu-example --cluster corrgpu-example --gpu-mem 1 --no-heuristics $path
    contains "$T/out" "optimal,infeasible,,," "infeasible, no objective, no bound $path"
    contains "$T/out" "task t1 fits nowhere: memory: it needs 10.0 GiB, a GPU has 1.0 GiB" \
        "names the task and its memory $path"
done
expect_rc 0 "infeasible cats" "$G" --format csv solve cats --trace cats-testbed \
    --cluster cats-testbed --at 25 --util-cap 10 --no-heuristics --paper
contains "$T/out" "optimal,infeasible,,," "the paper's model with the cap: no bound"
contains "$T/out" "task t1 fits nowhere: utilization: its mean 45.8 % is above the cap of 10.0 %" \
    "names the task and the cap"

# --gap: the first 64 pai-like tasks are within 1 % of the combinatorial
# bound as soon as the heuristics end (0.4 %), so the solve stops there.
expect_rc 0 "cats --gap 0.01" "$G" --format csv solve cats --trace pai-like --cluster pai-like \
    --tasks 64 --gap 0.01 --no-heuristics
contains "$T/out" "optimal,feasible," "stopped at the gap, not proven"
contains "$T/out" ",bounds" "by the combinatorial bounds"

# GOGH on the gavel-like sample and its throughput table.
expect_rc 0 "gogh" "$G" --format json solve gogh --trace gavel-like --cluster gavel-like \
    --write-lp "$T/gogh.lp"
cp "$T/out" "$T/gogh.json"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/gogh.json'))"
contains "$T/out" "1" "json_valid"
contains "$T/gogh.json" '"status": "optimal"' "GOGH proven optimal"
if command -v glpsol >/dev/null; then
    obj=$(sed -n 's/.*"power_w": \([0-9.]*\).*/\1/p' "$T/gogh.json" | head -1)
    same_number "$(glpsol_obj "$T/gogh.lp")" "$obj" "glpsol solves the GOGH LP file"
fi

# Gavel's max-sum throughput on the same input: proven, and the sum of 40
# jobs' normalised throughputs is at most 40 (one per job on its best GPU).
expect_rc 0 "gogh throughput" "$G" --format csv solve gogh --trace gavel-like \
    --cluster gavel-like --objective throughput --no-heuristics
contains "$T/out" "solution,status,norm_tput," "the column is normalised throughput"
if awk -F, '$1 == "optimal" && $2 == "optimal" && $3 > 30 && $3 <= 40 { f = 1 } END { exit !f }' \
        "$T/out"; then ok "max-sum throughput proven, between 30 and 40"
else bad "max-sum throughput: $(cat "$T/out")"; fi
expect_rc 2 "bad --objective" "$G" solve gogh --trace gavel-like --cluster gavel-like \
    --objective speed

# The cheapest fleet for the gavel-like trace (every job at once): K80s,
# P100s and a few V100s at 2,500, 5,000 and 9,000 USD beat any one model;
# K80s alone or P100s alone cannot give every job its minimum (40-60 % of
# its V100 solo throughput).
expect_rc 0 "fleet" "$G" --format csv solve fleet --trace gavel-like \
    --gpus K80,P100@5000,V100M16@9000 --usd-per-kwh 0.15
contains "$T/out" "cheapest,optimal,4 K80 + 16 P100 + 3 V100M16,23,138681.00,117000.00,21681.00," \
    "the cheapest mix and its cost split"
contains "$T/out" "only K80,infeasible," "K80s alone are infeasible"
contains "$T/out" "only P100,infeasible," "P100s alone are infeasible"
contains "$T/out" "only V100M16,optimal,20 V100M16,20,203652.00," "the cheapest V100-only fleet"
expect_rc 0 "fleet, CapEx alone" "$G" solve fleet --trace gavel-like --gpus V100M16:30@9000
contains "$T/out" "0 USD/kWh" "no electricity price: CapEx alone"
contains "$T/out" "180000.00" "20 V100s at 9,000 USD"
expect_rc 2 "fleet without --gpus" "$G" solve fleet --trace gavel-like
expect_rc 2 "fleet, unknown profile" "$G" solve fleet --trace gavel-like --gpus Z9
expect_rc 2 "fleet, bad count" "$G" solve fleet --trace gavel-like --gpus P100:x
expect_rc 2 "gogh needs a cluster" "$G" solve gogh --trace gavel-like

# Under a GPU power cap (docs/power-cap.md).  A V100M16 at 200 W clocks at
# (200 - 30) / 0.2 = 850 MHz, (850/1350)^0.91 = 0.656 of its throughput,
# drawing 200 W: V100s alone need 24 instead of 20.  CATS forbids the
# K80s at 120 W (their clock ceiling is below every task's SLA clock), so
# the tasks go to P100s.  CorrGPU refuses a cap and says why.
expect_rc 0 "fleet under a cap" "$G" --format csv solve fleet --trace gavel-like \
    --gpus V100M16@3000 --usd-per-kwh 0.15 --gpu-cap V100M16=200
contains "$T/out" "cheapest,optimal,24 V100M16,24,90921.60,72000.00,18921.60,4800.0," \
    "the capped fleet: more GPUs, each drawing less"
contains "$T/out" "V100M16 200 W: clock clamp to 850 MHz: throughput x 0.656 (-34.4 %)" \
    "the gpu_cap column says what the cap did"
expect_rc 0 "cats under a cap" "$G" --format csv solve cats --trace gavel-like \
    --cluster gavel-like --no-heuristics --gpu-cap K80=120
contains "$T/out" "optimal,optimal,2509.792," "the capped K80s are left out"
expect_rc 2 "corrgpu refuses a cap" "$G" solve corrgpu --trace cats-testbed \
    --cluster cats-testbed --gpu-cap 100
contains "$T/err" "a clock clamp changes neither, so G* is the same as without the cap" \
    "the refusal says why, and what to run"
expect_rc 1 "a cap below idle" "$G" solve fleet --trace gavel-like --gpus K80 --gpu-cap 20
contains "$T/err" "a 20 W cap is below K80's idle draw of 25 W" "run's error"

# Within a site's power budget: the cheapest mix (4 K80 + 16 P100 + 3
# V100M16) peaks at 4 x 150 + 16 x 250 + 3 x 300 = 5.5 kW, which 9 kW
# holds; no mix that meets the jobs' minimums peaks under 5.1 kW.
expect_rc 0 "fleet within a site" "$G" --format csv solve fleet --trace gavel-like \
    --gpus K80@300,P100@1500,V100M16@3000 --usd-per-kwh 0.15 --site-kw 9
contains "$T/out" "cheapest,optimal,4 K80 + 16 P100 + 3 V100M16,23,55881.00,34200.00,21681.00,5500.0,0.000," \
    "a budget that does not bind leaves the cheapest fleet"
contains "$T/out" ",5.50,no" "its provisioned peak, and the budget does not bind"
expect_rc 0 "fleet within a small site" "$G" --format csv solve fleet --trace gavel-like \
    --gpus K80@300,P100@1500,V100M16@3000 --site-kw 5
contains "$T/out" "cheapest,infeasible," "no fleet fits 5 kW"

# The Optimal row of the comparison table (CATS Fig. 7a).
expect_rc 0 "run with optimal" "$G" --format csv run --trace cats-testbed \
    --cluster cats-testbed --policy cats,hotcloud --no-save
contains "$T/out" "optimal,0.97,0.97,,,1," "the Optimal row: 0.97 GPUs on average, 1 at peak"
expect_rc 0 "run without optimal" "$G" --format csv run --trace cats-testbed \
    --cluster cats-testbed --policy hotcloud --no-save --optimal off
if grep -q '^optimal' "$T/out"; then bad "--optimal off still adds the row"
else ok "--optimal off leaves the row out"; fi
expect_rc 2 "bad --optimal" "$G" run --trace cats-testbed --cluster cats-testbed --optimal x

# Ctrl-C stops every phase of a solve with its best placement and the
# status "cancelled" (each of these runs minutes otherwise; the 300 s limit
# is never reached).  The interrupt comes 2 s in: CorrGPU's column
# generation at the root of branch and price; the compact MILP's build and
# its root LP (GLPK's simplex, run in slices so the flag is read); GOGH's
# restricted MILP, on gavel-like's jobs resampled to 128 with minimums
# scaled 0.5-1.5x, and its compact MILP, on 256 such jobs and twice the
# servers (128 are proven in a fraction of a second; timeout sends the
# signal; its -k is only a guard against a hang, not a timing check).
D="$T/gavel128"
mkdir -p "$D"
cp "$T/samples/gavel-like/gpus.csv" "$T/samples/gavel-like/tput.csv" "$D/"
awk -F, -v OFS=, 'NR == 1 { print; next } { print; for (c = 1; c < 3; c++) { $1 = $1 "-" c; print } }' \
    "$T/samples/gavel-like/nodes.csv" >"$D/nodes.csv"
awk -F, -v OFS=, 'NR == 1 { print; next } { row[NR - 1] = $0; m = NR - 1 }
    END { for (i = 0; i < 128; i++) { $0 = row[(i * 7) % m + 1]; $1 = sprintf("job-%03d", i);
          $2 = i * 60; $14 = sprintf("%.3f", $14 * (0.5 + ((i * 37) % 41) / 40)); print } }' \
    "$T/samples/gavel-like/tasks.csv" >"$D/tasks.csv"
expect_rc 0 "import gavel128" "$G" import --name gavel128 "$D"
D="$T/gavel256"
mkdir -p "$D"
cp "$T/samples/gavel-like/gpus.csv" "$T/samples/gavel-like/tput.csv" "$D/"
awk -F, -v OFS=, 'NR == 1 { print; next } { print; for (c = 1; c < 6; c++) { $1 = $1 "-" c; print } }' \
    "$T/samples/gavel-like/nodes.csv" >"$D/nodes.csv"
awk -F, -v OFS=, 'NR == 1 { print; next } { row[NR - 1] = $0; m = NR - 1 }
    END { for (i = 0; i < 256; i++) { $0 = row[(i * 7) % m + 1]; $1 = sprintf("job-%03d", i);
          $2 = i * 60; $14 = sprintf("%.3f", $14 * (0.5 + ((i * 37) % 41) / 40)); print } }' \
    "$T/samples/gavel-like/tasks.csv" >"$D/tasks.csv"
expect_rc 0 "import gavel256" "$G" import --name gavel256 "$D"
interrupted() {     # [AT=S] interrupted DESCRIPTION SOLVE-ARGS... (the signal at S s, 2)
    desc=$1
    shift
    timeout --preserve-status -s INT -k 120 "${AT:-2}" "$G" --format csv solve "$@" \
        --time-limit 300 \
        --no-heuristics >"$T/int.out" 2>"$T/int.err"
    rc=$?
    if [ "$rc" -eq 0 ] && grep -q '^optimal,cancelled,' "$T/int.out"; then ok "Ctrl-C: $desc"
    else bad "Ctrl-C: $desc: exit $rc, $(cat "$T/int.out" "$T/int.err")"; fi
}
interrupted "column generation" corrgpu --trace pai-like --cluster pai-like --tasks 512
interrupted "compact model's build" corrgpu --trace pai-like --cluster pai-like --tasks 512 \
    --no-bounds
interrupted "compact model's root LP" cats --trace pai-like --cluster pai-like --tasks 512 \
    --no-bounds
# Per-task kappa (1.1-1.5) on pai-like's tasks: at 6 s branch and price is in
# its tree, with repacking or a dive in a thread beside it.
D="$T/paik"
mkdir -p "$D"
cp "$T/samples/pai-like/nodes.csv" "$T/samples/pai-like/util.csv" "$D/"
awk -F, -v OFS=, 'NR == 1 { print; next } { $11 = sprintf("%.3f", 1.1 + ((NR * 37) % 41) / 100); print }' \
    "$T/samples/pai-like/tasks.csv" >"$D/tasks.csv"
expect_rc 0 "import paik" "$G" import --name paik "$D"
AT=6 interrupted "branch and price's tree, threads beside it" cats --trace paik --cluster paik \
    --tasks 128
# The same tasks, 48 of them, proven to the same optimum wherever branch and
# price adds its cuts.
for cuts in off root nodes; do
    expect_rc 0 "paik 48, --cuts $cuts" "$G" --format csv solve cats --trace paik --cluster paik \
        --tasks 48 --cuts $cuts --no-heuristics
    grep '^optimal,' "$T/out" | cut -d, -f1-5 >"$T/cuts_$cuts.csv"
    contains "$T/cuts_$cuts.csv" "optimal,optimal," "proven with --cuts $cuts"
done
if cmp -s "$T/cuts_off.csv" "$T/cuts_root.csv" && cmp -s "$T/cuts_off.csv" "$T/cuts_nodes.csv"
then ok "the same optimum without cuts, with cuts at the root and at every node"
else bad "cuts change the optimum: $(cat "$T/cuts_off.csv" "$T/cuts_root.csv" "$T/cuts_nodes.csv")"; fi
interrupted "GOGH's search" gogh --trace gavel128 --cluster gavel128
interrupted "GOGH's compact MILP" gogh --trace gavel256 --cluster gavel256 --no-bounds

# Usage and input errors.
expect_rc 2 "no model" "$G" solve --trace cats-testbed --cluster cats-testbed
expect_rc 2 "unknown model" "$G" solve peace --trace cats-testbed --cluster cats-testbed
expect_rc 2 "missing --cluster" "$G" solve cats --trace cats-testbed
expect_rc 2 "bad --cuts" "$G" solve cats --trace cats-testbed --cluster cats-testbed --cuts all
expect_rc 2 "bad time limit" "$G" solve cats --trace cats-testbed --cluster cats-testbed \
    --time-limit -1
expect_rc 1 "unknown trace" "$G" solve cats --trace nope --cluster cats-testbed
expect_rc 1 "unwritable LP file" "$G" solve corrgpu --trace corrgpu-example \
    --cluster corrgpu-example --write-lp "$T/no/such/dir/x.lp"

e2e_finish

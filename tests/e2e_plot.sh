#!/bin/sh
# End-to-end test of `gpuplan plot`: an SVG and a PNG of a saved run, of a
# saved workload-inflation sweep and of a planner sweep, each checked for
# size and content (the SVG well-formed when xmllint is installed, naming
# its series; the PNG's signature and IHDR dimensions); the format from
# the name or --format; and the usage errors.
#
# Usage: GPUPLAN=./gpuplan sh tests/e2e_plot.sh  (from the project root)
set -u
NAME=e2e_plot
. tests/lib_e2e.sh

size() { wc -c < "$1" | tr -d ' '; }
bigger() {      # bigger FILE BYTES DESCRIPTION
    if [ -f "$1" ] && [ "$(size "$1")" -gt "$2" ]; then ok "$3 ($(size "$1") bytes)"
    else bad "$3: $1 missing or not over $2 bytes"; fi
}
# png_is FILE W H DESCRIPTION: the PNG signature and IHDR's width and height.
png_is() {
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    dims=$(od -An -tu1 -j16 -N8 "$1" |
        awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
    if [ "$sig" = 89504e470d0a1a0a ] && [ "$dims" = "$2x$3" ]; then ok "$4: PNG $dims"
    else bad "$4: signature $sig, IHDR $dims (wanted $2x$3)"; fi
}
svg_ok() {      # svg_ok FILE DESCRIPTION: well-formed, when xmllint can say
    if ! head -c 5 "$1" | grep -q '<?xml'; then bad "$2: not an SVG document"; return; fi
    if command -v xmllint >/dev/null 2>&1; then
        if xmllint --noout "$1" 2>"$T/xml.err"; then ok "$2: well-formed (xmllint)"
        else bad "$2: not well-formed"; cat "$T/xml.err"; fi
    else
        ok "$2: SVG document (xmllint not installed, not parsed)"
    fi
}

"$G" list >/dev/null 2>&1

# --- a run ------------------------------------------------------------------
expect_rc 0 "two runs saved" "$G" run --trace cats-testbed --cluster cats-testbed \
    --policy cats,hotcloud
expect_rc 0 "plot run: two runs as SVG" "$G" plot run 1 2 --out "$T/run.svg"
contains "$T/out" "run.svg: svg 960x540, 2 series" "plot run says what it wrote"
bigger "$T/run.svg" 20000 "run SVG written"
svg_ok "$T/run.svg" "run SVG"
contains "$T/run.svg" "<title>active GPUs: cats-testbed on cats-testbed</title>" "run SVG title"
contains "$T/run.svg" "cats (run 1)" "run SVG names the first series"
contains "$T/run.svg" "hotcloud (run 2)" "run SVG names the second series"
expect_rc 0 "plot run: power as PNG" "$G" plot run 1 --metric power --out "$T/run.png"
bigger "$T/run.png" 10000 "run PNG written"
png_is "$T/run.png" 960 540 "run PNG"
expect_rc 0 "plot run: --format png wins over the name, --width/--height" \
    "$G" plot run 2 --metric jct --format png --width 400 --height 300 --out "$T/run.img"
png_is "$T/run.img" 400 300 "run PNG at 400x300"

# --- an inflation sweep --------------------------------------------------------
expect_rc 0 "inflation sweep saved" "$G" sweep inflation --trace openb-like \
    --cluster openb-like --policy fgd,bestfit --seeds 1-2 -q
expect_rc 0 "plot sweep: SVG" "$G" plot sweep --trace openb-like --cluster openb-like \
    --out "$T/sweep.svg"
contains "$T/out" "2 series, 202 points" "plot sweep: one mean curve per policy"
bigger "$T/sweep.svg" 20000 "sweep SVG written"
svg_ok "$T/sweep.svg" "sweep SVG"
contains "$T/sweep.svg" "mean of 2 seeds per policy (4 saved runs)" \
    "sweep SVG says what it averages"
contains "$T/sweep.svg" "series: fgd; bestfit" "sweep SVG names its series"
expect_rc 0 "plot sweep: fragmentation as PNG" "$G" plot sweep --trace openb-like \
    --cluster openb-like --metric frag --policy bestfit --out "$T/sweep.png"
contains "$T/out" "1 series" "plot sweep --policy keeps one policy"
bigger "$T/sweep.png" 10000 "sweep PNG written"
png_is "$T/sweep.png" 960 540 "sweep PNG"
expect_rc 0 "plot sweep: by run IDs" "$G" plot sweep 3 4 --out "$T/sweep2.svg"
expect_rc 1 "plot sweep of a run that is not an inflation run" \
    "$G" plot sweep 1 --out "$T/x.svg"
contains "$T/err" "run 1 is not an inflation run" "says which run"
expect_rc 1 "an inflation run and a timed run on one chart" "$G" plot run 1 3 --out "$T/x.svg"
contains "$T/err" "cannot share a chart" "says why"
expect_rc 1 "an inflation run has no JCT curve" "$G" plot run 3 --metric jct --out "$T/x.svg"
contains "$T/err" "run 3 is an inflation run: it has no jct curve" "says which"
expect_rc 2 "a sweep has no clock curve" "$G" plot sweep 3 --metric freq --out "$T/x.svg"
expect_rc 1 "plot sweep with no saved sweep" "$G" plot sweep --trace pai-like \
    --cluster pai-like --out "$T/x.svg"
contains "$T/err" "no saved inflation runs" "says there is none"

# --- a planner sweep ------------------------------------------------------------------
expect_rc 0 "plot plan: SVG" "$G" plot plan --trace corrgpu-example --gpu A100-40GB --to 4 \
    --policy corrgpu,first --out "$T/plan.svg"
contains "$T/out" "CorrGPU: 1 × A100-40GB, 2,500 USD" "plot plan prints the answer"
bigger "$T/plan.svg" 20000 "plan SVG written"
svg_ok "$T/plan.svg" "plan SVG"
contains "$T/plan.svg" "SLA violations by GPU count: corrgpu-example on A100-40GB" "plan SVG title"
contains "$T/plan.svg" "series: corrgpu; first" "plan SVG names its series"
expect_rc 0 "plot plan: CapEx as PNG" "$G" plot plan --metric capex --trace corrgpu-example \
    --gpu A100-40GB --to 4 --policy corrgpu,first --out "$T/plan.png"
bigger "$T/plan.png" 10000 "plan PNG written"
png_is "$T/plan.png" 960 540 "plan PNG"

# --- money and carbon ---------------------------------------------------------------------
PRICE=${GPUPLAN_SAMPLES:-sample-data}/price_usd_per_kwh.csv
expect_rc 0 "plot run: the running total of the energy's cost" "$G" plot run 1 \
    --metric cost --usd-per-kwh "$PRICE" --pue 1.3 --out "$T/cost.svg"
contains "$T/cost.svg" "energy cost, running total: cats-testbed on cats-testbed" \
    "cost SVG title"
contains "$T/cost.svg" "USD/kWh series, PUE flat" "cost SVG says how it was priced"
expect_rc 0 "plot run: the energy's carbon" "$G" plot run 1 2 --metric co2e --carbon 400 \
    --out "$T/co2e.svg"
contains "$T/out" "2 series" "one carbon curve per run"
expect_rc 2 "plot run --metric cost without a price" "$G" plot run 1 --metric cost \
    --out "$T/x.svg"
contains "$T/err" "no electricity price: give --usd-per-kwh" "says which option"
expect_rc 2 "plot run --metric co2e without carbon" "$G" plot run 1 --metric co2e \
    --usd-per-kwh 0.1 --out "$T/x.svg"
contains "$T/err" "no carbon intensity: give --carbon" "says which option"
expect_rc 2 "a price beside a timeline metric" "$G" plot run 1 --metric power \
    --usd-per-kwh 0.1 --out "$T/x.svg"
printf 'hour,usd_per_kwh\n0,0.1\n1,dear\n' >"$T/bad_price.csv"
expect_rc 2 "a malformed price series" "$G" plot run 1 --metric cost \
    --usd-per-kwh "$T/bad_price.csv" --out "$T/x.svg"
contains "$T/err" "bad_price.csv:3:" "says where, file:line:col"
expect_rc 1 "an inflation run has no time to price" "$G" plot run 3 --metric cost \
    --usd-per-kwh 0.1 --out "$T/x.svg"
expect_rc 0 "plot plan: the TCO per GPU count" "$G" plot plan --metric tco \
    --trace corrgpu-example --gpu A100-40GB --to 4 --policy first --usd-per-kwh 0.1 \
    --years 3 --out "$T/tco.svg"
contains "$T/tco.svg" "TCO over 3 years" "the TCO axis names the horizon"
expect_rc 0 "plot plan: CO2e per GPU count" "$G" plot plan --metric co2e \
    --trace corrgpu-example --gpu A100-40GB --to 4 --policy first --carbon 400 --years 3 \
    --out "$T/co2e_plan.svg"
contains "$T/co2e_plan.svg" "CO2e over 3 years" "the CO2e axis names the horizon"
expect_rc 2 "plot plan --metric co2e without --carbon" "$G" plot plan --metric co2e \
    --trace corrgpu-example --gpu A100-40GB --to 4 --policy first --out "$T/x.svg"

# --- usage and runtime errors -------------------------------------------------------------
expect_rc 2 "an image name without svg/png" "$G" plot run 1 --out "$T/x.pdf"
contains "$T/err" "cannot tell the image format" "says so"
expect_rc 2 "plot plan refuses the image name before sweeping" "$G" plot plan \
    --trace pai-like --gpu V100 --out "$T/x.pdf"
contains "$T/err" "cannot tell the image format" "says so"
expect_rc 2 "an unknown --format" "$G" plot run 1 --format jpeg --out "$T/x.svg"
expect_rc 2 "no --out" "$G" plot run 1
expect_rc 2 "no run ID" "$G" plot run --out "$T/x.svg"
expect_rc 2 "an unknown metric" "$G" plot run 1 --metric watts --out "$T/x.svg"
contains "$T/err" "gpus|power|frag|jct" "lists the metrics"
expect_rc 1 "a run that does not exist" "$G" plot run 99 --out "$T/x.svg"
expect_rc 2 "sweep without IDs or trace/cluster" "$G" plot sweep --out "$T/x.svg"
expect_rc 2 "plan without plan's options" "$G" plot plan --out "$T/x.svg"
expect_rc 2 "plan with a run metric" "$G" plot plan --trace corrgpu-example --gpu A100-40GB \
    --to 2 --metric gpus --out "$T/x.svg"
expect_rc 2 "plot run with a sweep's selection" "$G" plot run 1 --trace x --out "$T/x.svg"
expect_rc 0 "plot plan --help describes plot" "$G" plot plan --help
contains "$T/out" "usage: gpuplan plot" "the help of plot"
if grep -q "output: table, csv or json" "$T/out"; then bad "plot's --format is listed once"
else ok "plot's --format is listed once"; fi
expect_rc 2 "an unknown plot" "$G" plot pie --out "$T/x.svg"
expect_rc 1 "a directory that does not exist" "$G" plot run 1 --out "$T/no/such/x.svg"
contains "$T/err" "cannot write" "says it cannot write"
e2e_finish

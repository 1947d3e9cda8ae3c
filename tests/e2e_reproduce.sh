#!/bin/sh
# End-to-end test of `gpuplan reproduce`: CorrGPU's experiments on the
# sample sets (the motivating example holds: one GPU against First's two),
# the three output formats (a tolerance column beside the paper's
# figure), --save storing the runs for Compare, the openb experiments
# reported as not run when the openb files are not imported, and usage
# errors.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_reproduce.sh  (run from the project root)
set -u
NAME=e2e_reproduce
. tests/lib_e2e.sh

expect_rc 0 "samples" "$G" samples --set corrgpu-example --set cats-testbed --set pai-like \
    "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "reproduce --help" "$G" reproduce --help
contains "$T/out" "motivating example" "help lists the experiments"

expect_rc 0 "corrgpu" "$G" reproduce corrgpu
contains "$T/out" "== corrgpu" "a heading per paper"
if grep -F "motivating example" "$T/out" | grep -F "CorrGPU GPUs" | grep -q "holds"; then
    ok "CorrGPU needs one GPU, as the paper"
else
    bad "motivating example"
fi
contains "$T/out" "rows hold" "the verdicts are counted"

expect_rc 0 "csv" "$G" --format csv reproduce corrgpu
contains "$T/out" "paper,experiment,quantity,paper_figure,tolerance,ours,verdict,reason" "csv header"
contains "$T/out" 'corrgpu,motivating example (Fig. 3-4),"First CapEx, USD","5,000",exact,5000,holds' \
    "csv rows, quoted where they need it"
expect_rc 0 "json" "$G" --format json reproduce corrgpu
contains "$T/out" '"verdict": "holds"' "json rows"

expect_rc 0 "save" "$G" reproduce corrgpu --save
expect_rc 0 "list runs" "$G" list runs
contains "$T/out" "harmony" "the runs are stored"

expect_rc 0 "fgd without openb" "$G" reproduce fgd
contains "$T/out" "not run" "missing traces are reported, not fatal"
contains "$T/out" "openb_pod_list_default.csv" "and say what to import"

expect_rc 0 "gogh without Gavel's table" "$G" reproduce gogh
contains "$T/out" "import --type gavel" "says what to import"

expect_rc 2 "unknown paper" "$G" reproduce nature2049
contains "$T/err" "unknown paper 'nature2049'" "names it"
expect_rc 2 "no paper" "$G" reproduce

e2e_finish

#!/bin/sh
# End-to-end test of the command line: exit codes, import → list → export →
# re-import giving identical data, JSON output, deletion.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_cli.sh  (run from the project root)
set -u
NAME=e2e_cli
. tests/lib_e2e.sh
no_samples

expect_rc 0 "--version" "$G" --version
contains "$T/out" "gpuplan " "version text"
expect_rc 0 "--help" "$G" --help
contains "$T/out" "import" "help lists commands"
expect_rc 2 "unknown command" "$G" frobnicate
expect_rc 2 "unknown option" "$G" list --bogus
expect_rc 2 "bad format" "$G" --format yaml list
expect_rc 0 "import --help" "$G" import --help
contains "$T/out" "native" "import help lists formats"

expect_rc 0 "import native set" "$G" import tests/fixtures/native/lab
contains "$T/out" "trace 'lab'" "import reports what it made"
expect_rc 1 "re-import refused" "$G" import tests/fixtures/native/lab
contains "$T/err" "already exists" "re-import message"
expect_rc 0 "list" "$G" list
contains "$T/out" "lab" "list shows the trace"
expect_rc 0 "list traces csv" "$G" list traces --format csv
contains "$T/out" "trace,1,lab,4,2" "csv listing has counts"
expect_rc 0 "show trace json" "$G" --format json show trace lab
cp "$T/out" "$T/show.json"
contains "$T/show.json" '"samples": 3' "json integers stay integers"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/show.json'))"
contains "$T/out" "1" "json_valid"

expect_rc 0 "export cluster csv" "$G" export cluster lab --out "$T/exp"
expect_rc 0 "export trace csv" "$G" export trace lab --out "$T/exp"
expect_rc 0 "export tput csv" "$G" export tput lab --out "$T/exp"
expect_rc 0 "re-import export" "$G" import --name copy "$T/exp"
expect_rc 0 "export copy" "$G" export trace copy --out "$T/exp2"
"$G" export cluster copy --out "$T/exp2" >/dev/null 2>&1
"$G" export tput copy --out "$T/exp2" >/dev/null 2>&1
for f in tasks.csv util.csv nodes.csv gpus.csv cpus.csv tput.csv; do
    if cmp -s "$T/exp/$f" "$T/exp2/$f"; then ok "round trip $f identical"; else bad "round trip $f differs"; diff "$T/exp/$f" "$T/exp2/$f" | head; fi
done
expect_rc 0 "export trace json" "$G" export trace lab --format json --out "$T/t.json"
expect_rc 0 "exported json parses" sqlite3 :memory: "select json_valid(readfile('$T/t.json'))"
contains "$T/out" "1" "exported json valid"
expect_rc 2 "csv export needs --out" "$G" export trace lab --format csv

expect_rc 1 "delete used profile refused" "$G" delete gpu LabGPU
contains "$T/err" "used by" "profile-in-use message"
expect_rc 0 "delete trace" "$G" delete trace copy
expect_rc 1 "delete missing" "$G" delete trace copy
contains "$T/err" "no trace named 'copy'" "missing-entity message"
expect_rc 0 "profile edit" "$G" profile gpu LabGPU price_usd=2000
expect_rc 0 "profile show" "$G" --format csv profile gpu LabGPU
contains "$T/out" "price_usd,2000" "edited value stored"
expect_rc 1 "profile bad value" "$G" profile gpu LabGPU beta=-1
expect_rc 1 "bad database path" "$G" --db /proc/nope/x.db list

# PEACE sets: detected by peace.csv, listed, shown, exported and imported
# back byte for byte, deleted; a malformed set imports nothing.
expect_rc 0 "import PEACE set" "$G" import tests/fixtures/peace/lab
contains "$T/out" "PEACE set 'lab' (3 workloads, 54 profile rows, 8 co-location rows)" \
    "PEACE import reports what it made"
expect_rc 0 "list peace csv" "$G" list peace --format csv
contains "$T/out" 'peace,1,lab,3,54,"8 co-location rows, FixGPU, caps 40-300 W"' "PEACE listing"
expect_rc 0 "show peace" "$G" show peace lab
contains "$T/out" "sens_900_mhz" "show peace has sensitivities"
contains "$T/out" "6 of 2 workloads (3 groups), 2 of 3 workloads (1 group)" "rows per group size"
expect_rc 0 "show peace json" "$G" --format json show peace lab
contains "$T/out" '"pair_rows": 5' "show peace json"
expect_rc 0 "export peace csv" "$G" export peace lab --out "$T/pexp"
expect_rc 0 "re-import PEACE export" "$G" import --name pcopy "$T/pexp"
expect_rc 0 "export PEACE copy" "$G" export peace pcopy --out "$T/pexp2"
for f in peace.csv peace_workloads.csv peace_profiles.csv peace_colocations.csv gpus.csv; do
    if cmp -s "$T/pexp/$f" "$T/pexp2/$f" && cmp -s "tests/fixtures/peace/lab/$f" "$T/pexp/$f"
    then ok "PEACE round trip $f identical"
    else bad "PEACE round trip $f differs"; diff "$T/pexp/$f" "$T/pexp2/$f" | head; fi
done
expect_rc 0 "export peace json" "$G" export peace lab --format json --out "$T/p.json"
expect_rc 0 "PEACE json parses" sqlite3 :memory: "select json_valid(readfile('$T/p.json'))"
contains "$T/out" "1" "PEACE json valid"
expect_rc 1 "GPU of a PEACE set kept" "$G" delete gpu FixGPU
contains "$T/err" "PEACE set(s)" "profile-in-use names PEACE sets"
expect_rc 0 "delete peace" "$G" delete peace pcopy
expect_rc 1 "delete missing peace" "$G" delete peace pcopy
contains "$T/err" "no PEACE set named 'pcopy'" "missing PEACE set message"
mkdir -p "$T/pbad" && cp tests/fixtures/peace/lab/*.csv "$T/pbad/"
printf 'workloads,shares_pct,freq_mhz,tputs,power_w\nGemm_cuda+Bert_inf,70+20,300,1+2,70\n' \
    >"$T/pbad/peace_colocations.csv"
expect_rc 1 "malformed PEACE set refused" "$G" import --name pbad "$T/pbad"
contains "$T/err" "peace_colocations.csv:2:2: column 'shares_pct': expected shares of 10..90" \
    "PEACE error names file, line and column"
expect_rc 0 "list peace after refusal" "$G" list peace --format csv
if grep -q pbad "$T/out"; then bad "refused PEACE set stored"
else ok "refused PEACE set not stored"; fi

e2e_finish

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

e2e_finish

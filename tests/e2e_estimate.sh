#!/bin/sh
# End-to-end test of `gpuplan estimate`: GOGH's estimators trained on the
# gavel-like sample table and stored, measured again, listed and deleted;
# the output formats; the errors (an unknown table or nets, a table with
# too few job types or one accelerator class, and throughput tables with
# NaN or negative throughputs, which the importers refuse).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_estimate.sh  (run from the project root)
set -u
NAME=e2e_estimate
. tests/lib_e2e.sh
F=tests/fixtures/gogh

expect_rc 0 "samples" "$G" samples --set gavel-like "$T/samples"
export GPUPLAN_SAMPLES="$T/samples"

expect_rc 0 "estimate --help" "$G" estimate --help
contains "$T/out" "delete" "help lists the subcommands"
expect_rc 0 "train --help" "$G" estimate train --help
contains "$T/out" "--epochs" "train's help lists --epochs"

# Few epochs and a small net: the figures are not the point here.
expect_rc 0 "train" "$G" estimate train --tput gavel-like --hidden 8 --layers 1 --epochs 20
contains "$T/out" "gavel-like  p1   test" "P1's test row"
contains "$T/out" "train_s" "training time"
expect_rc 0 "nets stored" sqlite3 "$GPUPLAN_DB" \
    "select name, types_train, types_val, types_test from gogh_nets"
contains "$T/out" "gavel-like|18|4|4" "26 job types split 18/4/4"
expect_rc 0 "report stored" sqlite3 "$GPUPLAN_DB" "select count(*) from gogh_nets_error"
contains "$T/out" "6" "six figures (two nets, three splits)"

expect_rc 0 "train csv" "$G" --format csv estimate train --tput gavel-like --name small \
    --hidden 4 --layers 1 --epochs 5 --val 0.2 --test 0.2 --seed 3
contains "$T/out" "nets,net,split,types,rows,loss,mae,train_s" "csv header"
contains "$T/out" "small,p2,validation,5," "P2's validation row"
cp "$T/out" "$T/train.csv"
expect_rc 0 "eval csv" "$G" --format csv estimate eval --nets small
# eval measures the stored nets again: the same figures, without the times.
cut -d, -f1-7 "$T/train.csv" > "$T/want.csv"
if cmp -s "$T/want.csv" "$T/out"; then ok "eval gives training's figures"
else bad "eval gives training's figures"; diff "$T/want.csv" "$T/out"; fi
expect_rc 0 "eval json" "$G" --format json estimate eval --nets gavel-like
cp "$T/out" "$T/eval.json"
expect_rc 0 "json parses" sqlite3 :memory: "select json_valid(readfile('$T/eval.json'))"
contains "$T/out" "1" "json_valid"
contains "$T/eval.json" '"split": "validation"' "json names the split"

expect_rc 0 "list" "$G" --format csv estimate list
contains "$T/out" "gavel-like,gavel-like,18/4/4," "list shows the split"
contains "$T/out" "small,gavel-like,16/5/5," "list shows both nets"
expect_rc 0 "delete" "$G" estimate delete small
expect_rc 0 "list after delete" "$G" --format csv estimate list --tput gavel-like
if grep -q '^small,' "$T/out"; then bad "deleted nets are gone"; else ok "deleted nets are gone"; fi

# Errors.
expect_rc 1 "unknown table" "$G" estimate train --tput nope
contains "$T/err" "no throughput catalog named 'nope'" "an unknown table is named"
expect_rc 1 "unknown nets" "$G" estimate eval --nets nope
contains "$T/err" "no GOGH nets named 'nope'" "unknown nets are named"
expect_rc 1 "delete unknown nets" "$G" estimate delete nope
contains "$T/err" "no GOGH nets named 'nope'" "delete names them too"
expect_rc 2 "missing --tput" "$G" estimate train
expect_rc 2 "fractions leave nothing" "$G" estimate train --tput gavel-like --val 0.5 --test 0.5
contains "$T/err" "must leave job types to train on" "the fractions are checked"
expect_rc 2 "bad rate" "$G" estimate train --tput gavel-like --rate 0
expect_rc 2 "unknown subcommand" "$G" estimate nope
contains "$T/err" "unknown subcommand 'nope'" "an unknown subcommand is named"
expect_rc 0 "import few types" "$G" import "$F/few-types"
expect_rc 1 "too few job types" "$G" estimate train --tput few-types
contains "$T/err" "3 job types of scale 1" "too few types to split"
expect_rc 0 "import one class" "$G" import "$F/one-accel"
expect_rc 1 "one accelerator class" "$G" estimate train --tput one-accel
contains "$T/err" "needs 2 to 16" "one class is refused"
# On another table: the nets' split for the types it shares with the sample
# (few-types's three: one the nets trained on, two they held out or never
# saw, tested).
expect_rc 0 "eval on another table" "$G" --format csv estimate eval --nets gavel-like \
    --tput few-types
contains "$T/out" "gavel-like,p1,test,2," "the other table's new type is tested"
expect_rc 0 "import foreign" "$G" import "$F/foreign"
expect_rc 1 "eval on a foreign table" "$G" estimate eval --nets gavel-like --tput foreign
contains "$T/err" "none of the job types the nets were trained on" "foreign table refused"
# NaN and negative throughputs never reach a table: the importers refuse them.
expect_rc 1 "negative throughput (native)" "$G" import "$F/negative"
contains "$T/err" "out of range" "a negative throughput is refused"
expect_rc 1 "NaN throughput (native)" "$G" import "$F/nan"
contains "$T/err" "expected a finite number" "NaN is refused"
expect_rc 1 "negative throughput (gavel)" "$G" import --type gavel "$F/negative.json"
contains "$T/err" "expected a throughput in [0" "Gavel's importer refuses it too"
# Deleting the table deletes its nets.
expect_rc 0 "delete the table" "$G" delete tput gavel-like
expect_rc 0 "nets gone with it" sqlite3 "$GPUPLAN_DB" "select count(*) from gogh_nets"
contains "$T/out" "0" "no nets left"
e2e_finish

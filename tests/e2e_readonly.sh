#!/bin/sh
# End-to-end test of databases gpuplan may read but not write: one in a
# directory that cannot be written (SQLite cannot make its journal there)
# reads as usual and refuses writes naming why; a read-only file makes
# `run`, `sweep` and `estimate train` fail before they compute, saying so;
# a new database cannot be made in such a directory.  Permissions mean nothing to root, so as root the
# commands run as nobody (setpriv); without setpriv the test skips.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_readonly.sh  (run from the project root)
set -u
NAME=e2e_readonly
. tests/lib_e2e.sh
no_samples

if [ "$(id -u)" -eq 0 ]; then
    if ! command -v setpriv >/dev/null 2>&1; then
        echo "skip: running as root without setpriv to drop privileges"
        e2e_finish
        exit $?
    fi
    AS="setpriv --reuid 65534 --regid 65534 --clear-groups"
else
    AS=""
fi
case "$G" in /*) ;; *) G="$PWD/$G" ;; esac
chmod 755 "$T"
# nobody must reach the program and the files it reads, and the checkout
# may sit in a directory only root can enter: both are copied here.
cp "$G" "$T/gpuplan" && chmod 755 "$T/gpuplan" && G="$T/gpuplan"
cp -R "$PWD/sample-data/gavel-like" "$T/gavel-like" && chmod -R a+rX "$T/gavel-like"
chmod 777 "$GPUPLAN_SAMPLES"
D="$T/d"
mkdir "$D"
chmod 777 "$D"
export GPUPLAN_DB="$D/db.sqlite"

mkdir -p "$T/set"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nn0,V100,4,32000,131072\n' \
    >"$T/set/nodes.csv"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli\nt0,0,100,1,1000\nt1,5,50,2,1000\n' \
    >"$T/set/tasks.csv"
chmod -R a+rX "$T/set"
# shellcheck disable=SC2086
expect_rc 0 "import into a new database" $AS "$G" import --type native --name base "$T/set"
# shellcheck disable=SC2086
expect_rc 0 "import a throughput table" $AS "$G" import --type native --name tp \
    "$T/gavel-like"

# A directory that cannot be written: reading works, writing says why.
chmod 555 "$D"
# shellcheck disable=SC2086
expect_rc 0 "list in a read-only directory" $AS "$G" list traces
contains "$T/out" "base" "the trace is listed"
# shellcheck disable=SC2086
expect_rc 0 "show in a read-only directory" $AS "$G" show trace base
contains "$T/out" "t1" "the trace is shown"
# shellcheck disable=SC2086
expect_rc 1 "import in a read-only directory" $AS "$G" import --type native --name again "$T/set"
contains "$T/err" "cannot write: its directory $D cannot be written" "the refusal says why"
# shellcheck disable=SC2086
expect_rc 1 "run in a read-only directory" $AS "$G" run --trace base --cluster base \
    --policy first
contains "$T/err" "cannot write" "run says it cannot save"
# shellcheck disable=SC2086
expect_rc 0 "run --no-save in a read-only directory" $AS "$G" run --trace base \
    --cluster base --policy first --no-save
# shellcheck disable=SC2086
expect_rc 1 "no new database in a read-only directory" $AS "$G" --db "$D/new.sqlite" list
contains "$T/err" "cannot create the database: directory $D cannot be written" \
    "creating says why"
chmod 777 "$D"

# A read-only file: `run` says it cannot save before simulating anything.
chmod 444 "$GPUPLAN_DB"
# shellcheck disable=SC2086
expect_rc 1 "run on a read-only file" $AS "$G" run --trace base --cluster base --policy first
contains "$T/err" "cannot write: the file is read-only" "run says the file is read-only"
if grep -q "first" "$T/out"; then bad "run simulated before refusing"
else ok "run refused before simulating"; fi
# shellcheck disable=SC2086
expect_rc 1 "sweep on a read-only file" $AS "$G" sweep inflation --trace base \
    --cluster base --policy random -q
contains "$T/err" "cannot write: the file is read-only" "sweep says the file is read-only"
# shellcheck disable=SC2086
expect_rc 1 "estimate train on a read-only file" $AS "$G" estimate train --tput tp
contains "$T/err" "cannot write: the file is read-only" "training says so before training"
if grep -q "train_s" "$T/out"; then bad "the nets were trained before refusing"
else ok "nothing trained"; fi
# shellcheck disable=SC2086
expect_rc 0 "list on a read-only file" $AS "$G" list runs

e2e_finish

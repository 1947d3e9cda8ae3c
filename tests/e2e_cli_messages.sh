#!/bin/sh
# End-to-end test of what the CLI tells a user who mistypes or looks
# closely: --db in a missing directory (refused, unless it is the default
# path), option errors worded as every command's, snapshot --at past a
# run's end, node names in show snapshot, an inflation run's task count in
# list runs, plan's progress kept out of pipes, an import of a missing file
# or a name with '/'.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_cli_messages.sh  (run from the project root)
set -u
NAME=e2e_cli_messages
. tests/lib_e2e.sh

# --db: a typo in the directory must not make a fresh empty database.
expect_rc 1 "--db in a missing directory" "$G" --db "$T/nosuchdir/x.db" list
contains "$T/err" "no such directory $T/nosuchdir" "the directory is named"
[ ! -e "$T/nosuchdir" ] && ok "nothing was created" || bad "$T/nosuchdir was created"
GPUPLAN_DB="$T/typo/db.sqlite" expect_rc 1 "\$GPUPLAN_DB in a missing directory" "$G" list
expect_rc 0 "the default path is made" env GPUPLAN_DB= XDG_DATA_HOME="$T/xdg" "$G" list traces
[ -f "$T/xdg/gpuplan/gpuplan.db" ] && ok "default database created" || bad "no default database"
expect_rc 0 "an existing directory" "$G" --db "$T/other.db" list traces

# Global option errors read "gpuplan: ..." with no stray space, as commands' do.
expect_rc 2 "--format xml" "$G" --format xml list
contains "$T/err" "gpuplan: --format: expected table, csv or json, got 'xml'" "format message"
if grep -q "gpuplan :\|gpuplan  --help" "$T/err"; then bad "stray space"; cat "$T/err"; else ok "no stray space"; fi
expect_rc 2 "--format without a value" "$G" --format
contains "$T/err" "gpuplan: --format: missing FMT" "missing value named like the commands do"
expect_rc 2 "unknown global option" "$G" --bogus
contains "$T/err" "gpuplan: unknown option '--bogus'" "unknown option"

# snapshot --at past the end; show snapshot names nodes.
expect_rc 0 "samples" "$G" samples --set cats-testbed "$T/samples"
expect_rc 0 "run" "$G" --db "$T/s.db" --format csv run --trace cats-testbed \
    --cluster cats-testbed --policy corrgpu
id=$(sed -n 2p "$T/out" | awk -F, '{print $NF}')
expect_rc 1 "--at past the run's end" "$G" --db "$T/s.db" snapshot --run "$id" --at 999999
contains "$T/err" "past the end of run $id" "past-the-end message"
expect_rc 0 "--at inside the run" "$G" --db "$T/s.db" snapshot --run "$id" --at 30 --name s30
expect_rc 0 "show snapshot" "$G" --db "$T/s.db" --format csv show snapshot s30
contains "$T/out" "task,node,node_name,gpu,gpu_milli" "a node_name column"
contains "$T/out" ",0,testbed," "the node's name"

# An inflation run counts its tasks in list runs.
expect_rc 0 "inflation" "$G" --db "$T/s.db" sweep inflation --trace openb-like \
    --cluster openb-like --policy bestfit
expect_rc 0 "list runs" "$G" --db "$T/s.db" --format csv list runs
line=$(grep "inflation bestfit" "$T/out")
case "$line" in
    *",inflation bestfit,0,"*|"") bad "inflation run counted no tasks: $line" ;;
    *) ok "inflation run counts its tasks" ;;
esac

# plan's percentage is for a terminal, not for a pipe or a log.
expect_rc 0 "plan into a pipe" "$G" --db "$T/s.db" --format csv plan \
    --trace pai-like --gpu V100 --from 64 --to 256 --step 64 --policy first,cats
if grep -q "%" "$T/err"; then bad "progress written to a pipe"; cat "$T/err"; else ok "no progress in the pipe"; fi

# import: a missing file is not an unknown format; no '/' in names.
expect_rc 1 "import a missing file" "$G" --db "$T/s.db" import "$T/nosuch.csv"
contains "$T/err" "$T/nosuch.csv: no such file or directory" "no such file"
expect_rc 2 "import --name with /" "$G" --db "$T/s.db" import "$T/samples/cats-testbed" \
    --name a/b
contains "$T/err" "cannot contain '/'" "slash refused"

# import: a file of a known other type is named in one line, not answered
# with every format.
printf '\211PNG\r\n\032\n0000000000' > "$T/chart.png"
expect_rc 2 "import a PNG" "$G" --db "$T/s.db" import "$T/chart.png"
contains "$T/err" "$T/chart.png is a PNG image, not a format gpuplan imports (see 'gpuplan import --help')" \
    "the PNG is named"
[ "$(wc -l < "$T/err")" -eq 1 ] && ok "in one line" || { bad "more than one line"; cat "$T/err"; }

# A name that differs in case or by a character or two: did you mean.
expect_rc 2 "--policy CATS" "$G" --db "$T/s.db" run --trace cats-testbed --cluster cats-testbed \
    --policy CATS
contains "$T/err" "unknown policy 'CATS' (did you mean 'cats'?)" "the policy meant"
expect_rc 1 "--trace cats_testbed" "$G" --db "$T/s.db" run --trace cats_testbed \
    --cluster cats-testbed --policy cats
contains "$T/err" "no trace named 'cats_testbed' (did you mean 'cats-testbed'?)" "the trace meant"
expect_rc 1 "--cluster Cats-Testbed" "$G" --db "$T/s.db" run --trace cats-testbed \
    --cluster Cats-Testbed --policy cats
contains "$T/err" "(did you mean 'cats-testbed'?)" "the cluster meant"
expect_rc 1 "--gpu v100" "$G" --db "$T/s.db" plan --trace cats-testbed --gpu v100
contains "$T/err" "no GPU profile named 'v100' (did you mean 'V100'?)" "the GPU meant"
expect_rc 2 "a command one swap away" "$G" --db "$T/s.db" plna
contains "$T/err" "unknown command 'plna' (did you mean 'plan'?)" "the command meant"
expect_rc 2 "import --type opneb" "$G" --db "$T/s.db" import --type opneb "$T/chart.png"
contains "$T/err" "(did you mean 'openb'?)" "the format meant"
expect_rc 1 "nothing near" "$G" --db "$T/s.db" run --trace zzzz --cluster cats-testbed --policy cats
if grep -q "did you mean" "$T/err"; then bad "a suggestion for nothing near"; cat "$T/err"; else ok "no suggestion when nothing is near"; fi
e2e_finish

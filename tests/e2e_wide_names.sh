#!/bin/sh
# End-to-end test of names wider than their characters (CJK, emoji) or
# narrower (a combining mark): `show` and `list` in the text format line
# their columns up on terminal columns, not on characters or bytes.  Each
# line's first column, with the spaces after it, must be equally wide on a
# terminal (measured by `wc -L` under C.UTF-8), whatever the locale gpuplan
# runs in.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_wide_names.sh  (run from the project root)
set -u
NAME=e2e_wide_names
. tests/lib_e2e.sh
no_samples

set_dir="$T/set"
mkdir -p "$set_dir"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\n計算ノード,V100,1,1000,1024\nnode-\360\237\230\200,V100,2,1000,1024\nnoe\314\201ud,V100,1,1000,1024\nplain-node-1,V100,4,2000,2048\n' \
    > "$set_dir/nodes.csv"
printf 'name,arrival_s,duration_s\n学習ジョブ,0,10\njob-\360\237\232\200,1,10\nplain-job,2,10\n' \
    > "$set_dir/tasks.csv"
expect_rc 0 "import" "$G" import --type native --name "実験クラスタ" "$set_dir"

# aligned FILE FIELD WHAT: fields 1..FIELD of each line, FIELD a numeric
# (right-aligned) column after the names, end at the same terminal column
# on every line.
aligned() {
    widths=$(sed -E "s/^(([^ ]+ +){$(($2 - 1))}[^ ]+).*/\\1/" "$1" | while IFS= read -r line; do
        printf '%s\n' "$line" | LC_ALL=C.UTF-8 wc -L
    done | sort -u | wc -l)
    [ "$widths" -eq 1 ] && ok "$3: columns aligned" ||
        { bad "$3: field $2 ends at $widths different columns"; cat "$1"; }
}

for loc in C.UTF-8 C; do
    expect_rc 0 "show cluster ($loc)" env LC_ALL=$loc "$G" show cluster "実験クラスタ"
    aligned "$T/out" 3 "show cluster, LC_ALL=$loc"
    contains "$T/out" "計算ノード" "show cluster: the wide name kept"
    expect_rc 0 "show trace ($loc)" env LC_ALL=$loc "$G" show trace "実験クラスタ"
    aligned "$T/out" 2 "show trace, LC_ALL=$loc"
    expect_rc 0 "list cluster ($loc)" env LC_ALL=$loc "$G" --format table list cluster
    aligned "$T/out" 4 "list cluster, LC_ALL=$loc"
done
e2e_finish

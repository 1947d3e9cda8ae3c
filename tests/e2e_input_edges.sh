#!/bin/sh
# End-to-end test of input at the edges of what is read: a hex float is not
# a number; a name that is empty, only spaces, holds a newline or is not
# UTF-8 is refused; a .prom file opening with a byte order mark is read; a
# UTF-16 JSON or CSV file is refused naming its encoding; a loop of
# symbolic links is called that, not a missing file; export --help names
# the kinds export takes.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_input_edges.sh  (run from the project root)
set -u
NAME=e2e_input_edges
. tests/lib_e2e.sh
no_samples

mkdir -p "$T/set"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nn0,A100-40GB,4,32000,131072\n' \
    >"$T/set/nodes.csv"
printf 'name,arrival_s,duration_s\nt0,0,0x10\n' >"$T/set/tasks.csv"
expect_rc 1 "a hex float is refused" "$G" import --type native --name hex "$T/set"
contains "$T/err" "tasks.csv:2:" "the refusal names the line"
printf 'name,arrival_s,duration_s\nt0,0,16\n' >"$T/set/tasks.csv"

for bad in '' ' ' "$(printf 'a\nb')" "$(printf 'a\377b')" "$(printf 'a\tb')"; do
    expect_rc 2 "--name '$(printf '%s' "$bad" | od -An -c | tr -s ' ')' is refused" \
        "$G" import --type native --name "$bad" "$T/set"
    contains "$T/err" "--name: a name" "the refusal says what a name must be"
done
expect_rc 2 "profile gpu ' ' is refused" "$G" profile gpu ' ' --mem-gib 1
expect_rc 0 "a plain name is taken" "$G" import --type native --name 'ok name' "$T/set"

printf '\357\273\277DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-0",Hostname="h",modelName="NVIDIA A100-SXM4-40GB"} 5\n' \
    >"$T/h.prom"
expect_rc 0 "a .prom file opening with a byte order mark is read" "$G" import --type dcgm \
    --name bom "$T/h.prom"

printf '{"a": 1}' | iconv -f UTF-8 -t UTF-16 >"$T/u16.json"
expect_rc 1 "UTF-16 JSON is refused" "$G" import --type gavel --name u16 "$T/u16.json"
contains "$T/err" "UTF-16LE" "the refusal names the encoding"
contains "$T/err" "u16.json:1:1:" "the refusal has a line and column"
mkdir -p "$T/u16"
iconv -f UTF-8 -t UTF-16 <"$T/set/nodes.csv" >"$T/u16/nodes.csv"
expect_rc 1 "a UTF-16 CSV is refused" "$G" import --type native --name u16 "$T/u16"
contains "$T/err" "UTF-16LE" "the CSV refusal names the encoding"

ln -s "$T/loop" "$T/loop"
expect_rc 1 "a symbolic link loop is refused" "$G" import --type native --name l "$T/loop"
contains "$T/err" "loop of symbolic links" "the refusal says it is a loop"
if grep -q "no such file" "$T/err"; then bad "the loop is called a missing file"
else ok "the loop is not called a missing file"; fi

expect_rc 0 "export --help" "$G" export --help
contains "$T/out" "tput" "export --help names the kind tput"
if grep -q "catalog" "$T/out"; then bad "export --help names a kind 'catalog' it refuses"
else ok "export --help does not name 'catalog'"; fi
e2e_finish

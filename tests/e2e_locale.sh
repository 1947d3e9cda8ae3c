#!/bin/sh
# End-to-end test of numbers under a decimal-comma locale (de_DE.UTF-8):
# every command reads and writes numbers in the C locale whatever LC_ALL
# says, so an export holds 6.5 (never "6,5", two CSV fields), a valid file
# imports, and --format csv|json prints numbers a program can read.
# The locale is compiled into the test's own directory with localedef
# (package locales); without it the test skips with a message.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_locale.sh  (run from the project root)
set -u
NAME=e2e_locale
. tests/lib_e2e.sh
no_samples

mkdir -p "$T/loc"
if ! command -v localedef >/dev/null 2>&1 ||
   ! localedef -i de_DE -f UTF-8 "$T/loc/de_DE.UTF-8" >/dev/null 2>&1; then
    echo "$NAME: skipped: cannot compile the de_DE.UTF-8 locale (install the package locales)"
    exit 0
fi
export LOCPATH="$T/loc"
# The locale really writes a decimal comma: else the test would prove nothing.
if [ "$(LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 6.5 2>/dev/null)" != "6,5" ]; then
    echo "$NAME: skipped: de_DE.UTF-8 does not write a decimal comma here"
    exit 0
fi
DE="env LC_ALL=de_DE.UTF-8"

mkdir -p "$T/set"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nn0,A100-40GB,4,32000,131072\n' \
    >"$T/set/nodes.csv"
printf 'name,arrival_s,duration_s,num_gpu,gpu_milli,util_mean\nt0,0.5,100.25,1,1000,0.9\nt1,5,6.5,2,1000,0.25\n' \
    >"$T/set/tasks.csv"
expect_rc 0 "a valid set with fractions imports under de_DE" $DE "$G" import --type native \
    --name s "$T/set"

expect_rc 0 "export trace as CSV under de_DE" $DE "$G" --format csv export trace s \
    --out "$T/exp"
if grep -q '[0-9],[0-9]*,' "$T/exp/tasks.csv" && grep -q '6\.5' "$T/exp/tasks.csv"; then
    ok "the exported tasks.csv writes 6.5 with a point"
else bad "the exported tasks.csv has no 6.5:"; cat "$T/exp/tasks.csv"; fi
if grep -q '6,5' "$T/exp/tasks.csv"; then bad "the export wrote a decimal comma"
else ok "no decimal comma in the export"; fi
expect_rc 0 "the export imports again under de_DE" $DE "$G" import --type native \
    --name s2 "$T/exp"

expect_rc 0 "export trace as JSON under de_DE" $DE "$G" --format json export trace s \
    --out "$T/s.json"
contains "$T/s.json" "6.5" "the JSON export writes 6.5"
if grep -q '6,5' "$T/s.json"; then bad "the JSON export wrote a decimal comma"
else ok "no decimal comma in the JSON export"; fi

expect_rc 0 "show trace --format csv under de_DE" $DE "$G" --format csv show trace s
cp "$T/out" "$T/show.csv"
if grep -q '6,5\|0,25' "$T/show.csv"; then bad "--format csv wrote a decimal comma:"; cat "$T/show.csv"
else ok "--format csv writes points"; fi
expect_rc 0 "show trace --format json under de_DE" $DE "$G" --format json show trace s
if grep -q '6,5\|0,25' "$T/out"; then bad "--format json wrote a decimal comma"
else ok "--format json writes points"; fi
expect_rc 0 "list runs --format csv under de_DE" $DE "$G" --format csv list traces

# A number written with a comma is refused under any locale.
printf 'name,arrival_s,duration_s\nt0,0,"6,5"\n' >"$T/set/tasks.csv"
expect_rc 1 "a decimal comma is refused under de_DE" $DE "$G" import --type native \
    --name c "$T/set"
contains "$T/err" "tasks.csv:2:" "the refusal names the line"
e2e_finish

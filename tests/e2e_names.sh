#!/bin/sh
# End-to-end test of names that hold terminal controls (ESC[2J, an OSC
# title, BEL, CR, a newline): `list` and `show` print them escaped in the
# text format, so they cannot clear the screen, set the window title or
# hide a line; CSV keeps the bytes (quoted) and JSON escapes them.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_names.sh  (run from the project root)
set -u
NAME=e2e_names
. tests/lib_e2e.sh
no_samples

ESC=$(printf '\033')
# --name refuses a control character; a name taken from a directory's
# keeps it, as names read from files do.
set_dir="$T/evil${ESC}[31m"
mkdir -p "$set_dir"
printf 'name,gpu_model,gpu_count,cpu_milli,ram_mib\nclear\033[2J,V100,1,1000,1024\n' \
    > "$set_dir/nodes.csv"
printf 'name,arrival_s,duration_s\ntitle\033]0;owned\007,0,10\n"cr\rhidden",1,10\n"two\nlines",2,10\n' \
    > "$set_dir/tasks.csv"
expect_rc 2 "--name with a control character is refused" "$G" import --type native \
    --name "evil${ESC}[31m" "$set_dir"
expect_rc 0 "import" "$G" import --type native "$set_dir"

# No control byte reaches the terminal in the text format.
raw_controls() {    # raw_controls FILE: 0 when it holds ESC, BEL or CR
    LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$1"
}
expect_rc 0 "list" "$G" list
raw_controls "$T/out" && bad "list printed raw control bytes" || ok "list: no raw controls"
contains "$T/out" 'evil\x1b[31m' "list: the name shown escaped"
expect_rc 0 "show cluster" "$G" show cluster "evil${ESC}[31m"
raw_controls "$T/out" && bad "show cluster printed raw controls" || ok "show cluster: no raw controls"
contains "$T/out" 'clear\x1b[2J' "show cluster: the node name escaped"
expect_rc 0 "show trace" "$G" show trace "evil${ESC}[31m"
raw_controls "$T/out" && bad "show trace printed raw controls" || ok "show trace: no raw controls"
contains "$T/out" 'title\x1b]0;owned\x07' "show trace: the OSC title escaped"
contains "$T/out" 'cr\rhidden' "show trace: CR escaped"
contains "$T/out" 'two\nlines' "show trace: newline escaped"
lines=$(wc -l < "$T/out")
[ "$lines" -eq 4 ] && ok "one line per task under the header" || bad "$lines lines, wanted 4"

# JSON escapes them (jansson); CSV keeps the bytes, quoting the newline.
expect_rc 0 "show trace json" "$G" --format json show trace "evil${ESC}[31m"
contains "$T/out" 'title\u001B]0;owned\u0007' "json: escaped by JSON's rules"
expect_rc 0 "show trace csv" "$G" --format csv show trace "evil${ESC}[31m"
contains "$T/out" "$(printf 'title\033]0;owned\007,')" "csv: the bytes kept"
contains "$T/out" '"two' "csv: the name with a newline quoted"

# Error messages quote what was typed or read: escaped too.
expect_rc 1 "show an unknown trace" "$G" show trace "gone${ESC}[2J"
raw_controls "$T/err" && bad "an error message printed raw controls" ||
    ok "error message: no raw controls"
contains "$T/err" 'gone\x1b[2J' "error message: the name escaped"
expect_rc 2 "an unknown kind" "$G" list "kind${ESC}]0;x"
raw_controls "$T/err" && bad "a usage error printed raw controls" ||
    ok "usage error: no raw controls"
e2e_finish

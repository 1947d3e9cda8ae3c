#!/bin/sh
# End-to-end test of the dashboard in any terminal, through tmux at 80x24
# and 160x48, under TERM=xterm-256color with NO_COLOR=1 and TERM=linux
# with and without colour (the Linux console's VT font has no braille):
#   the legend tells the series apart without colour (each policy its
#   chart marker: "* cats", "+ corrgpu", "o first"); no braille anywhere
#   but where the terminal shows it; the footers keep their main action
#   (Compare setup "Enter run", the Planner "r run" and "Esc cancel");
#   the Planner's chart empty before a sweep, its results at 80 columns
#   keeping JCT, W and CapEx and opening on the answer's row;
#   no number in Compare's setup is cut ("184 GP…", "1 nodes, …");
#   Ctrl-C asks what q asks when runs are unsaved, playback stops behind
#   the question, and the exit status is 130 when it throws work away,
#   0 when there was nothing to lose.
# Calls the ui layer (tui.c, draw.c, chart.c, textfit.c, scr_compare.c,
# scr_planner.c).
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_console.sh  (run from the project root)
set -u
NAME=e2e_tui_console
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh

start() {
    w=$1 h=$2
    shift 2
    end_session
    rm -rf "$XDG_CONFIG_HOME"
    for try in 1 2 3; do
        tm new-session -d -s tui -x "$w" -y "$h" \
            "env $* '$G'; echo \"EXITED rc=\$?\"; sleep 600" && break
        sleep 0.5
    done
}
# seen TEXT DESCRIPTION: the screen last captured shows TEXT (checks of
# one screen share its capture).
seen() {
    if grep -qF -- "$1" "$T/screen"; then ok "$2"; else bad "$2: no '$1' on screen"; show; fi
}
# Braille is U+2800-U+28FF: UTF-8 bytes e2 a0..a3.
BRAILLE=$(printf '\342[\240-\243]')
no_braille() {
    if LC_ALL=C grep -q "$BRAILLE" "$T/screen"; then bad "$1: braille on screen"; show
    else ok "$1"; fi
}
# A digit, or a word beside one, cut by the ellipsis ("6212…", "184 GP…",
# "800 tas…", "1 nodes, …").
no_cut_number() {
    if grep -E '[0-9]…|[0-9] [A-Za-z, ]{0,8}…' "$T/screen" >/dev/null; then
        bad "$1: a number cut"; show
    else ok "$1"; fi
}
# footer TEXT DESCRIPTION: the status line (the last) shows TEXT.
footer() {
    if tail -1 "$T/screen" | grep -qF -- "$1"; then ok "$2"; else bad "$2: not in the footer"; show; fi
}
# place_of POLICY: the figure in the run table's place column on POLICY's
# row (right-aligned under the header; NO_COLOR marks are ASCII, so the
# header and the row have the same bytes before it).
place_of() {
    awk -v pol="$1" '
        /Policy/ && / place / { p = index($0, " place ") + 6 }
        p && index($0, pol " ") && $0 ~ /^.[> ][*+o]/ {
            v = substr($0, p - 6, 7); gsub(/ /, "", v); print v; exit }' "$T/screen"
}
# the info line's time while a dialog is open
info_time() { cap; grep -o 't=[^ ]*' "$T/screen" | head -1; }

"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }
# CATS runs with DFS on: the CLI's place_gpus comes from a DFS-off twin.
cli_place=$("$G" run --trace cats-testbed --cluster cats-testbed --policy cats --format csv \
    2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "place_gpus") c = i }
                           NR == 2 { print $c }')

# size, then TERM and the rest of the environment
for conf in "80x24 xterm-256color NO_COLOR=1" "80x24 linux NO_COLOR=1" "80x24 linux" \
    "160x48 xterm-256color NO_COLOR=1" "160x48 linux NO_COLOR=1"; do
        size=${conf%% *} term=${conf#* }
        w=${size%x*} h=${size#*x}
        what="$size TERM=$term"
        start "$w" "$h" LANG=C.UTF-8 TERM=$term
        expect "Compare setup" "$what: opens"
        footer "Enter run" "$what: the setup's footer keeps Enter run"
        seen "36 GPUs" "$what: the cluster's GPU count whole"
        no_cut_number "$what: no number cut in the setup"
        keys Enter
        expect "ready at t=0" "$what: the comparison starts"
        keys e
        expect "finished" "$what: runs to the end"
        no_braille "$what: no braille"
        case "$term" in
        *NO_COLOR*)
            seen "* cats" "$what: the legend marks cats with its own marker"
            seen "+ corrgpu" "$what: corrgpu with another"
            seen "o first" "$what: first with a third" ;;
        esac
        if [ "$size" = 160x48 ] && [ "$term" = "xterm-256color NO_COLOR=1" ]; then
            tui_place=$(place_of cats)
            if [ -n "$cli_place" ] && [ -n "$tui_place" ] &&
                awk -v a="$cli_place" -v b="$tui_place" 'BEGIN { exit !(a - b < 0.051 && b - a < 0.051) }'
            then ok "$what: cats's place ($tui_place) is the CLI's place_gpus ($cli_place)"
            else bad "$what: cats's place '$tui_place', the CLI's place_gpus '$cli_place'"; show; fi
        fi
        keys 4
        expect "No sweep yet" "$what: the Planner, its chart empty before a sweep"
        footer "r run" "$what: the Planner's footer keeps r run"
        footer "Esc cancel" "$what: and Esc cancel"
        if [ "$size" = 80x24 ] && [ "$term" = "xterm-256color NO_COLOR=1" ]; then
            keys r
            expect "sweep done" "$what: a sweep"
            seen "mean JCT avg W CapEx" "$what: the results keep JCT, W and CapEx"
            # The answer (First at 5 GPUs, 12th of 21 rows) is on screen, not
            # the sweep's last rows.
            if grep -qE ' 5 first +[0-9]' "$T/screen"; then ok "$what: the results open on the answer"
            else bad "$what: the answer's row is not shown"; show; fi
        fi
        keys 1 q
        expect "Quit and throw away" "$what: q asks about the finished runs"
        keys y
        expect "EXITED rc=0" "$what: q quits with status 0"
done

expect_gone() { cap; ! grep -qF "$1" "$T/screen"; }

# Ctrl-C: nothing to lose quits at once with status 0; inside a prompt it
# cancels the prompt, as Esc does, and the dashboard stays.
start 80 24 LANG=C.UTF-8 TERM=xterm-256color
expect "Compare setup" "Ctrl-C session opens"
keys /
expect "Search" "a prompt opens"
keys C-c
sleep 0.3
expect_gone "Enter accept" && ok "Ctrl-C cancels the prompt" || { bad "the prompt stays after Ctrl-C"; show; }
expect_gone "EXITED" && ok "still running after Ctrl-C in a prompt" || bad "Ctrl-C in a prompt quit"
keys C-c
expect "EXITED rc=0" "Ctrl-C with nothing to lose exits 0"

# Ctrl-C with unsaved runs asks; playback waits behind the question; no
# keeps the runs; yes exits 130.
start 120 40 LANG=C.UTF-8 TERM=xterm-256color
expect "Compare setup" "second Ctrl-C session opens"
keys Enter
expect "ready at t=0" "the comparison starts"
keys l
expect "decision #1" "one decision made"
keys Space
expect "playing" "playback runs"
keys C-c
expect "Quit and throw away" "Ctrl-C with unsaved runs asks"
t1=$(info_time)
sleep 1
t2=$(info_time)
[ -n "$t1" ] && [ "$t1" = "$t2" ] && ok "playback paused behind the dialog ($t1)" ||
    bad "playback went on behind the dialog: $t1 then $t2"
keys n
sleep 0.3
expect_gone "Quit and throw away" && ok "n keeps the runs" || bad "the dialog stays after n"
expect_gone "EXITED" && ok "still running after n" || bad "exited after n"
keys C-c
expect "Quit and throw away" "Ctrl-C asks again"
keys y
expect "EXITED rc=130" "Ctrl-C confirmed exits 130"

end_session
echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]

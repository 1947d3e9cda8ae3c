#!/bin/sh
# End-to-end test of Compare's energy setting and Cluster's cap readout,
# through tmux at 80x24, then the same session widened to 160x48:
#   E sets a price series, a carbon series and a PUE; a series with a
#   non-number is refused with its file:line:col, the whole message on an
#   80-column status line, and the setting is not changed;
#   each finished run's $energy, CO2e and TCO$ are the figures `gpuplan
#   run --usd-per-kwh F --carbon F --pue X --years N --usd-per-kw-month X`
#   prints (to the cell's 2 decimals), at 80 columns and at 160;
#   ? defines the columns; the setting is kept in the settings file;
#   the setup's run line and the cap's message fit 80 columns;
#   under `c 100` Cluster's GPU detail says the clock is clamped to 852 MHz
#   (CATS's V100 curve: (100 - 23.3) / 0.09).
# Calls the ui layer (scr_compare.c, scr_compare_energy.c, cmp_energy.c,
# scr_cluster.c) over power/run_energy.c and sim/sim_cap.c.
# Usage: GPUPLAN=./gpuplan sh tests/e2e_tui_energy.sh  (run from the project root)
set -u
NAME=e2e_tui_energy
NEED=cats-testbed
WAIT_S=30
. tests/lib_tui.sh

seen() {
    if grep -qF -- "$1" "$T/screen"; then ok "$2"; else bad "$2: no '$1' on screen"; show; fi
}
# cell POLICY HEADER WIDTH: the figure under HEADER on POLICY's row of the
# run table (right-aligned in WIDTH columns ending under the header's last
# character; NO_COLOR marks are ASCII, so the header and the row have the
# same bytes before it).
cell() {
    awk -v pol="$1" -v head="$2" -v w="$3" '
        /Policy/ && index($0, " " head " ") { p = index($0, " " head " ") + length(head) }
        p && index($0, pol " ") && $0 ~ /^.[> ][*+o]/ {
            v = substr($0, p - w + 1, w); gsub(/ /, "", v); print v; exit }' "$T/screen"
}
# agree SIZE: every run's cells are the CLI's figures (energy_usd and
# co2e_kg rounded to 2 decimals, tco_usd as written).
agree() {
    cap
    for pol in cats corrgpu first; do
        want=$(awk -v p="$pol" '$1 == p { printf "%.2f %.2f %s", $2, $3, $4 }' "$T/cli")
        got="$(cell "$pol" '$energy' 7) $(cell "$pol" CO2e 6) $(cell "$pol" 'TCO$' 9)"
        if [ "$got" = "$want" ]; then ok "$1: $pol's \$energy, CO2e and TCO\$ are run's ($got)"
        else bad "$1: $pol: Compare '$got', gpuplan run '$want'"; show; fi
    done
}

printf 'hour,usd_per_kwh\n0,50\n1,150\n' > "$T/price.csv"
printf 'hour,usd_per_kwh\n0,1\n1,cheap\n' > "$T/bad.csv"
CARBON=$SAMPLES/carbon_g_per_kwh.csv
"$G" list >/dev/null 2>"$T/seed.err" || { cat "$T/seed.err"; bad "database created"; }
"$G" run --trace cats-testbed --cluster cats-testbed --policy cats,corrgpu,first --no-save \
    --usd-per-kwh "$T/price.csv" --carbon "$CARBON" --pue 1.3 --years 3 \
    --usd-per-kw-month 150 --format csv 2>/dev/null |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "energy_usd") u = i
                                                    if ($i == "co2e_kg") c = i
                                                    if ($i == "tco_usd") y = i } }
             NR > 1 && u && c && y { print $1, $u, $c, $y }' > "$T/cli"
[ -s "$T/cli" ] && ok "gpuplan run prices the runs" || bad "gpuplan run gave no energy_usd"

for try in 1 2 3; do
    tm new-session -d -s tui -x 80 -y 24 \
        "env LANG=C.UTF-8 TERM=xterm-256color NO_COLOR=1 '$G'; echo \"EXITED rc=\$?\"; sleep 600" &&
        break
    sleep 0.5
done
expect "Compare setup" "opens at 80x24"
seen "policy's own" "the setup's run line keeps its power model at 80 columns"
keys E
expect "Energy: what each run's" "E opens the energy menu"
keys Enter
expect "Energy price: USD per kWh" "the price prompt"
keys "$T/bad.csv" Enter
expect " bad.csv:3:2: column 'usd_per_kwh': expected a finite number, got 'cheap'" \
    "a malformed series is refused with file:line:col, whole at 80 columns"
keys E
expect "price, USD/kWh     not set" "and the price is not changed"
keys Enter C-u "$T/pri" Tab Enter
expect "energy: USD/kWh series price.csv" "Tab completes the path; the price series is set"
keys E Down Enter "$CARBON" Enter
expect "energy: gCO2e/kWh series carbon_g_per_kwh.csv" "the carbon series is set"
keys E Down Down Enter 1.3 Enter
expect "energy: PUE 1.3" "the PUE is set"
keys E Down Down Down Enter 3 Enter
expect "energy: 3 years of TCO" "the TCO's years are set"
keys E Down Down Down Down Enter 150 Enter
expect "energy: 150 USD/kW-month" "the facility cost is set"
grep -q "^energy_price = $T/price.csv\$" "$XDG_CONFIG_HOME/gpuplan/settings" &&
    ok "the settings file keeps the price as typed" || bad "energy_price not in the settings"
keys Enter
expect "ready at t=0" "the comparison starts"
keys e
expect "finished" "runs to the end"
agree 80x24
tm resize-window -t tui -x 160 -y 48
sleep 0.5
keys J J
expect "Compare" "widened to 160x48"
agree 160x48
keys ?
expect "until a price is set with E" "? defines \$energy"
keys Escape
tm resize-window -t tui -x 80 -y 24
sleep 0.5
keys s c
expect "GPU power cap: W for every GPU" "c asks for a cap"
keys 100 Enter
expect "GPU cap 100 W (each capped GPU clamped to its curve; w: runs without PEACE)" \
    "the cap's message whole at 80 columns"
keys Enter
expect "ready at t=0" "the capped comparison starts"
keys l l 3
expect "cap 100 W: clamped to 852 MHz" "Cluster: the GPU's clock clamped under the cap"
keys 1 q
expect "Quit and throw away" "q asks about the runs"
keys y
expect "EXITED rc=0" "quits"

end_session
echo "$NAME: $fails failed"
[ "$fails" -eq 0 ]

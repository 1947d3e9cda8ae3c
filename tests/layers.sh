#!/bin/sh
# layers.sh — checks the layer rule of tests/layers.txt against the real
# include graph: every `#include "folder/x.h"` of src/*/*.[ch], db/*.[ch]
# and ui/*.[ch] whose folder is not the file's own must be an edge the
# table lists, every listed edge must point down the order the table
# states, and nothing under src/ or db/ may include curses or ui/.
#
#   sh tests/layers.sh          check; one summary line, or the faults
#   sh tests/layers.sh --list   also print every cross-folder include as
#                               "from -> to  file:line"
#
# Exits 0 when the graph keeps the rule, 1 otherwise.  Run from anywhere:
# it works on the tree it sits in.
cd "$(dirname "$0")/.." || exit 1
TABLE=tests/layers.txt
LIST=0
[ "$1" = "--list" ] && LIST=1

# The order, bottom first, from the table's "# order:" line.
ORDER=$(sed -n "s/^# order: *//p" "$TABLE")
if [ -z "$ORDER" ]; then
    echo "layers: $TABLE has no '# order:' line"
    exit 1
fi

# One line per cross-folder include: "from to file:line" (one awk over
# every file: a process per file made the check take a minute on a busy
# machine).
edges=$(awk '
FNR == 1 {
    own = FILENAME
    sub(/\/[^\/]*$/, "", own)
    sub(/^src\//, "", own)
}
/^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"\/]*\// {
    to = $0
    sub(/^[^"]*"/, "", to)
    sub(/\/.*/, "", to)
    if (to != own)
        print own, to, FILENAME ":" FNR
}' src/*/*.[ch] db/*.[ch] ui/*.[ch])

# Curses or the dashboard below ui/: the engine must build without them.
lowbad=0
low=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\(n\{0,1\}curses\|ui/\)' \
    src/*/*.[ch] db/*.[ch])
if [ -n "$low" ]; then
    printf '%s\n' "$low" | sed 's/^\([^:]*:[0-9]*\):\(.*\)/\1: the engine includes curses or ui\/: \2/'
    lowbad=$(printf '%s\n' "$low" | wc -l)
fi

printf '%s\n' "$edges" | awk -v order="$ORDER" -v list="$LIST" -v table="$TABLE" \
    -v lowbad="$lowbad" '
BEGIN {
    n = split(order, o, " ")
    for (i = 1; i <= n; i++)
        rank[o[i]] = i
    bad = lowbad + 0
    while ((getline line < table) > 0) {
        ln++
        if (line ~ /^[[:space:]]*(#|$)/)
            continue
        if (split(line, f, /[[:space:]]*->[[:space:]]*|[[:space:]]+/) != 2 || f[1] == "" ||
            !(f[1] in rank) || !(f[2] in rank)) {
            printf "%s:%d: expected \"folder -> folder\" with folders of the order, got \"%s\"\n",
                   table, ln, line
            bad++
            continue
        }
        if (rank[f[2]] >= rank[f[1]]) {
            printf "%s:%d: %s -> %s does not point down the order (%s)\n", table, ln,
                   f[1], f[2], order
            bad++
        }
        allowed[f[1] " " f[2]] = 1
    }
}
NF == 3 {
    nedge++
    e = $1 " " $2
    if (list)
        printf "%-8s -> %-8s  %s\n", $1, $2, $3
    if (!(e in allowed)) {
        if (!($1 in rank) || !($2 in rank))
            printf "%s: forbidden edge %s -> %s: a folder outside the order (%s)\n",
                   $3, $1, $2, order
        else if (rank[$2] >= rank[$1])
            printf "%s: forbidden edge %s -> %s: %s sits above %s in the order (%s)\n",
                   $3, $1, $2, $2, $1, order
        else
            printf "%s: edge %s -> %s is downward but not in %s; add the line \"%s -> %s\"\n",
                   $3, $1, $2, table, $1, $2
        bad++
    }
    used[e] = 1
}
END {
    nused = 0
    for (e in used)
        nused++
    if (bad) {
        printf "layers: %d fault(s); the rule is in %s\n", bad, table
        exit 1
    }
    printf "layers: %d cross-folder includes over %d folder edges, all allowed\n", nedge, nused
}'

#!/bin/sh
# make-site-series.sh — writes the two illustrative hourly series of
# sample-data/ (docs/site-and-cost.md): a day of electricity prices and a
# day of grid carbon intensity, 24 rows each.  Illustrative, not measured:
#
#  price_usd_per_kwh.csv  a time-of-use tariff's shape: 0.08 USD/kWh off
#      peak (00-07 h), 0.12 shoulder (07-16 h and 21-24 h), 0.20 at the
#      evening peak (16-21 h), the 4-9 pm peak of the US utilities'
#      time-of-use plans;
#  carbon_g_per_kwh.csv   a grid with solar generation's midday dip (the
#      "duck curve"): 400 gCO2e/kWh less a half-cosine of 180 between
#      07 h and 19 h (220 at 13 h), plus 60 in the evening ramp (18-21 h).
#
# Usage: sh sample-data/make-site-series.sh [DIR]   (DIR = sample-data)
set -eu
dir=${1:-sample-data}
awk 'BEGIN {
    print "hour,usd_per_kwh"
    for (h = 0; h < 24; h++) {
        p = 0.12
        if (h < 7) p = 0.08
        if (h >= 16 && h < 21) p = 0.20
        printf "%d,%.2f\n", h, p
    }
}' >"$dir/price_usd_per_kwh.csv"
awk 'BEGIN {
    pi = atan2(0, -1)
    print "hour,g_co2e_per_kwh"
    for (h = 0; h < 24; h++) {
        g = 400
        if (h > 7 && h < 19) g -= 180 * sin(pi * (h - 7) / 12)
        if (h >= 18 && h < 21) g += 60
        printf "%d,%.0f\n", h, g
    }
}' >"$dir/carbon_g_per_kwh.csv"

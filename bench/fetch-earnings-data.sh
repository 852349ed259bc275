#!/usr/bin/env bash
# Extracts real weekly earnings, the March 1988 Current Population Survey's
# `wage` column (Bierens and Ginther 2001; 28,155 men; US dollars per week), from
# Debian's r-cran-aer package (its CPS1988 data set) into
# build/data/cps1988_wage.txt, one value a line, for
# build/histogram_bench --earnings build/data/cps1988_wage.txt. R is not needed:
# bench/rda_column.py reads the .rda file. The table is not kept in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download r-cran-aer >/dev/null)
dpkg -x "$work"/r-cran-aer_*.deb "$work/x"
python3 bench/rda_column.py "$work/x/usr/lib/R/site-library/AER/data/CPS1988.rda" wage > build/data/cps1988_wage.txt
echo "wrote build/data/cps1988_wage.txt ($(wc -l < build/data/cps1988_wage.txt) values)"

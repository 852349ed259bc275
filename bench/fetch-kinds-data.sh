#!/usr/bin/env bash
# Two real tables for build/kinds_real_data (the grid and "choose all that
# apply" kinds on real answers), into build/data/ (not kept in this repository):
#   bfi.csv: the Big Five Inventory items of the SAPA project (Revelle et al.;
#     2,800 people, 25 statements rated 1 = very inaccurate .. 6 = very
#     accurate, with missing answers; then gender, education, age), from
#     Debian's r-cran-psych;
#   epi.csv: the Eysenck Personality Inventory (Eysenck and Eysenck 1964;
#     3,570 people at Northwestern in the early 1990s, 57 yes/no questions
#     V1..V57 coded 1 = yes, 2 = no, with missing answers), from Debian's
#     r-cran-psychtools.
# R is not needed: bench/rdata_table.py reads the packages' lazy-load data bases.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download r-cran-psych r-cran-psychtools >/dev/null)
dpkg -x "$work"/r-cran-psych_*.deb "$work/x"
dpkg -x "$work"/r-cran-psychtools_*.deb "$work/x"
library="$work/x/usr/lib/R/site-library"
python3 bench/rdata_table.py "$library/psych/data/Rdata" bfi > build/data/bfi.csv
python3 bench/rdata_table.py "$library/psychTools/data/Rdata" epi > build/data/epi.csv
for name in bfi epi; do
  echo "wrote build/data/$name.csv ($(($(wc -l < "build/data/$name.csv") - 1)) rows)"
done

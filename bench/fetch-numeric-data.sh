#!/usr/bin/env bash
# Extracts two public tables from Debian's python3-statsmodels package into
# build/data/ for the numeric coverage benchmark's real answers
# (build/coverage --csv FILE:COLUMN:LOW:HIGH[:STEP]):
#   randhie.csv: the RAND Health Insurance Experiment (20,190 rows; mdvis,
#     outpatient visits a year: counts piled at 0 with a long tail; disea,
#     chronic disease index: a few dozen values);
#   fair.csv: Fair's affairs survey (6,366 rows; rate_marriage, a 1-5 rating;
#     affairs, time in affairs a year: 68% at 0, a tail to 58; yrs_married).
# The tables are not kept in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download python3-statsmodels >/dev/null)
dpkg -x "$work"/python3-statsmodels_*.deb "$work/x"
datasets="$work/x/usr/lib/python3/dist-packages/statsmodels/datasets"
cp "$datasets/randhie/randhie.csv" "$datasets/fair/fair.csv" build/data/
echo "wrote build/data/randhie.csv and build/data/fair.csv"

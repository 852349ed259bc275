#!/usr/bin/env bash
# Extracts Fair's affairs data (Fair 1978; 6,366 rows) from Debian's
# python3-statsmodels package into build/data/fair.csv for
# build/regression_bench --fair build/data/fair.csv. The table is not kept in
# this repository: statsmodels ships it "with permission of the author".
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download python3-statsmodels >/dev/null)
dpkg -x "$work"/python3-statsmodels_*.deb "$work/x"
cp "$work/x/usr/lib/python3/dist-packages/statsmodels/datasets/fair/fair.csv" build/data/fair.csv
echo "wrote build/data/fair.csv ($(($(wc -l < build/data/fair.csv) - 1)) rows)"

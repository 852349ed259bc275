#!/usr/bin/env bash
# Extracts two real cross-classified tables from Debian's python3-statsmodels
# into build/data/ for build/consistent_bench --csv: the 1996 American National
# Election Study extract (anes96.csv: 944 rows; party identification PID 0-6,
# vote 0/1, self-placement selfLR 1-7, educ 1-7) and Fair's affairs data
# (fair.csv: 6,366 rows; educ, occupation, rate_marriage, religious). Not kept
# in this repository.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download python3-statsmodels >/dev/null)
dpkg -x "$work"/python3-statsmodels_*.deb "$work/x"
for name in anes96 fair; do
  cp "$work/x/usr/lib/python3/dist-packages/statsmodels/datasets/$name/$name.csv" "build/data/$name.csv"
  echo "wrote build/data/$name.csv ($(($(wc -l < "build/data/$name.csv") - 1)) rows)"
done

#!/usr/bin/env bash
# Extracts public data sets that Debian's python3-statsmodels package ships
# (statsmodels/datasets/NAME/NAME.csv) into build/data/NAME.csv, for the
# benchmarks' real answers. The tables are not kept in this repository.
#
# Usage: bash bench/fetch-statsmodels-data.sh NAME [NAME ...]   (e.g. fair anes96 randhie)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || { echo "usage: $0 NAME [NAME ...]" >&2; exit 2; }
mkdir -p build/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download python3-statsmodels >/dev/null)
dpkg -x "$work"/python3-statsmodels_*.deb "$work/x"
datasets="$work/x/usr/lib/python3/dist-packages/statsmodels/datasets"
for name in "$@"; do
  [ -f "$datasets/$name/$name.csv" ] || { echo "$0: python3-statsmodels has no data set \"$name\"" >&2; exit 1; }
  cp "$datasets/$name/$name.csv" "build/data/$name.csv"
  echo "wrote build/data/$name.csv ($(($(wc -l < "build/data/$name.csv") - 1)) rows)"
done

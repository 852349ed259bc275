#!/usr/bin/env bash
# Fair's affairs data (Fair 1978; 6,366 rows) into build/data/fair.csv for
# build/regression_bench --fair build/data/fair.csv (statsmodels ships it "with
# permission of the author"; not kept in this repository).
exec bash "$(dirname "$0")/fetch-statsmodels-data.sh" fair

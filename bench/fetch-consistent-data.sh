#!/usr/bin/env bash
# Two real cross-classified tables for build/consistent_bench --csv: the 1996
# American National Election Study extract (anes96.csv: 944 rows; party
# identification PID 0-6, vote 0/1, self-placement selfLR 1-7, educ 1-7) and
# Fair's affairs data (fair.csv: 6,366 rows; educ, occupation, rate_marriage,
# religious), into build/data/.
exec bash "$(dirname "$0")/fetch-statsmodels-data.sh" anes96 fair

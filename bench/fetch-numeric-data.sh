#!/usr/bin/env bash
# Two public tables for the numeric coverage benchmark's real answers
# (build/coverage --csv FILE:COLUMN:LOW:HIGH[:STEP]), into build/data/:
#   randhie.csv: the RAND Health Insurance Experiment (20,190 rows; mdvis,
#     outpatient visits a year: counts piled at 0 with a long tail; disea,
#     chronic disease index: a few dozen values);
#   fair.csv: Fair's affairs survey (6,366 rows; rate_marriage, a 1-5 rating;
#     affairs, time in affairs a year: 68% at 0, a tail to 58; yrs_married).
exec bash "$(dirname "$0")/fetch-statsmodels-data.sh" randhie fair

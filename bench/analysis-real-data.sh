#!/usr/bin/env bash
# Analyses across questions on a real survey: Fair's affairs data (Redbook
# 1974, 6,366 women; statsmodels' "fair", fetched from Debian's package by
# fetch-numeric-data.sh). The sensitive answer "had an affair this year" is
# randomised as binary randomized response at epsilon ln 5 (exactly the
# forced-response design with p = 2/3 truthful, 1/6 forced yes, 1/6 forced
# no); religiousness and age are asked openly; the marriage rating (1-5) is
# randomised with OUE at epsilon 2. For each seed, `deniable simulate` draws
# 6,366 respondents from the rows, and checks a breakdown by religiousness, a
# cross-tab of the affair with the rating, and the regression of the affair on
# religiousness and age against the same analyses of the true answers (the
# regression's truth is the ordinary logistic fit). Prints, per analysis, the
# intervals' coverage of the truth over all seeds and estimates, and the mean
# absolute error. Usage: bench/analysis-real-data.sh [SEEDS] (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-20}
DATA=build/data
[[ -f $DATA/fair.csv ]] || bash bench/fetch-numeric-data.sh >/dev/null
awk -F, 'BEGIN { OFS = ","; split("Not,Mildly,Fairly,Strongly", rel, ",") }
  NR == 1 { print "religious", "age", "affair", "rating"; next }
  { print rel[$5], $2, ($9 > 0 ? "Yes" : "No"), $1 }' "$DATA/fair.csv" > "$DATA/fair-joint.csv"
cat > "$DATA/fair-survey.json" <<'JSON'
{"format": "deniable.survey/v1", "id": "fair", "version": 1, "title": "Fair's affairs",
 "questions": [
  {"id": "religious", "text": "How religious are you?", "type": "categorical",
   "options": ["Not", "Mildly", "Fairly", "Strongly"], "privacy": "open"},
  {"id": "age", "text": "Your age?", "type": "numeric", "range": [17, 43], "privacy": "open"},
  {"id": "affair", "text": "Have you had an affair this year?", "type": "categorical", "options": ["No", "Yes"],
   "mechanism": {"name": "grr", "epsilon": 1.6094379124341003}},
  {"id": "rating", "text": "How do you rate your marriage?", "type": "categorical", "options": ["1", "2", "3", "4", "5"],
   "mechanism": {"name": "oue", "epsilon": 2}}]}
JSON
SPECS=('{"by": "religious", "question": "affair"}' '{"cross": ["affair", "rating"]}'
       '{"regress": "affair", "on": ["religious", "age"]}')
ARGS=()
for spec in "${SPECS[@]}"; do ARGS+=(--analysis "$spec"); done
for interval in respondents population; do
  : > "$DATA/fair-checks-$interval.jsonl"
  for seed in $(seq 1 "$SEEDS"); do
    build/deniable simulate --survey "$DATA/fair-survey.json" --truth-csv "$DATA/fair-joint.csv" --respondents 6366 \
      --seed "$seed" --json --options "interval=$interval" "${ARGS[@]}" |
      jq -c '.analyses[] | {analysis, comparison}' >> "$DATA/fair-checks-$interval.jsonl"
  done
done
echo "Fair's affairs (6,366 respondents drawn from the rows, $SEEDS seeds): 95% intervals against the respondents' truth"
printf '%-52s %-12s %10s %10s %12s\n' analysis intervals estimates coverage "mean |error|"
for interval in respondents population; do
  jq -rs --arg interval "$interval" 'group_by(.analysis | tostring)[] |
    [(.[0].analysis | tostring), $interval, (map(.comparison.intervals) | add),
     ((map(.comparison.covered) | add) / (map(.comparison.intervals) | add) * 1000 | round / 10 | tostring + "%"),
     ((map(.comparison.mean_abs_error * .comparison.estimates) | add) / (map(.comparison.estimates) | add) * 10000 | round / 10000)] |
    @tsv' "$DATA/fair-checks-$interval.jsonl" |
    awk -F'\t' '{ printf "%-52s %-12s %10s %10s %12s\n", $1, $2, $3, $4, $5 }'
done

#!/usr/bin/env bash
# The survey page on a weak phone: how much it transfers and when its
# questions are ready, in a real Chromium against a real `deniable serve
# --demo examples/demo-survey.json` on 127.0.0.1, under four conditions
# (none, the CPU slowed 4x, a 1.6 Mbps / 150 ms link, both), cold cache for
# every run (a fresh profile), the median of BENCH_RUNS runs. A floor row (an
# empty page, same server, same conditions) says what no page can beat.
# See bench/page/page-load.mjs for what "ready" means and how it is measured.
#
# Environment: DENIABLE_BIN (default build/deniable), WEB_DIST (default
# web/dist), BASELINE_DIST (an older build's web/dist, e.g. main before issue
# 32 built into /tmp: its rows are measured in the same run, served by the same
# binary), BENCH_RUNS (5), CHROMIUM_BIN (/usr/bin/chromium).
#
#   BASELINE_DIST=/tmp/page-baseline-dist bash bench/page/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
exec node bench/page/page-load.mjs

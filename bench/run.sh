#!/usr/bin/env bash
# `npm run bench`: every benchmark, each printing a table.
#   1. report ingestion over loopback HTTP with durable storage, beside nginx serving a static file;
#   2. estimation time per question for k = 2..1024;
#   3. numeric results: transition matrix, PML point estimate and the whole document (bootstrap) by n and m;
#   4. WebAssembly perturbation time per report;
#   5. the RVNS paper's synthetic study (quick mode; docs/rvns-results.md has the full run);
#   6. PML's curvature penalty chosen from the reports (quick mode of build/pml_aic);
#   7. histogram questions: the paper's setting, groups, small epsilon, range queries, client time (native and wasm);
#   8. blocks; 9. privacy levels (seed 003) and private linear regression;
#   10. rating grids and choose all that apply on real public tables (fetched from Debian's packages when absent).
# Installs and builds what is missing first (the benchmarks are not part of `npm start`'s build).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh all
bash scripts/build.sh all
echo "## Report ingestion (bench/ingest/run.sh)"
bash bench/ingest/run.sh
echo
echo "## Estimation (build/estimate_bench)"
build/estimate_bench
echo
echo "## Numeric results (build/numeric_results_bench)"
build/numeric_results_bench
echo
echo "## WebAssembly perturbation (bench/wasm_perturb.mjs)"
node bench/wasm_perturb.mjs
echo
echo "## RVNS synthetic study, quick mode (build/rvns_study --quick; the full study: build/rvns_study)"
build/rvns_study --quick
echo
echo "## PML's curvature penalty from the reports, quick mode (build/pml_aic --quick; the full run: build/pml_aic)"
build/pml_aic --quick
echo
echo "## Histogram questions (build/histogram_bench --quick; the full run: build/histogram_bench, docs/histogram-results.md)"
build/histogram_bench --quick
echo
echo "## Blocks (build/block_bench --quick; the full run: build/block_bench, docs/blocks-results.md)"
build/block_bench --quick
echo
echo "## Privacy levels, seed 003 (build/levels_bench --quick; the full run: build/levels_bench, docs/levels-results.md)"
build/levels_bench --quick
echo
echo "## Private linear regression, seed 003 (build/regression_bench --quick; with Fair's table: bench/fetch-fair-data.sh, then --fair build/data/fair.csv)"
build/regression_bench --quick
echo
echo "## Central histogram releases, seed 001 (build/publication_bench --quick; the full run: build/publication_bench, docs/publication-results.md)"
build/publication_bench --quick
echo
echo "## Histogram questions in WebAssembly (bench/wasm_histogram.mjs)"
node bench/wasm_histogram.mjs
echo
echo "## Rating grids and choose all that apply on real data, 100 replicates (build/kinds_real_data --quick; the full run:"
echo "## build/kinds_real_data --grid build/data/bfi.csv --multiple build/data/epi.csv, docs/grid-questions.md, docs/multiple-questions.md)"
if [[ -f build/data/bfi.csv && -f build/data/epi.csv ]] || bash bench/fetch-kinds-data.sh; then
  build/kinds_real_data --quick --grid build/data/bfi.csv --multiple build/data/epi.csv
else
  echo "skipped: build/data/bfi.csv and epi.csv are absent and bench/fetch-kinds-data.sh could not fetch them"
fi

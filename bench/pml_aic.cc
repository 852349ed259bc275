// Can the reports choose PML's curvature penalty? Measured for two criteria,
// and for the rule numeric results use.
//
// PML's lambda = 1e-5 sqrt(N) (core/distribution/ems_estimator.h) is an empirical rule; it
// is too strong for narrow peaks seen through informative channels. Two
// textbook data-driven choices for penalised likelihood on counts through a
// known matrix, both from core (curvature_penalty_choice.h, EvaluateSmoothness):
//   AIC  = -2 L(f_lambda) + 2 ED, ED = trace((H + S)^-1 H) on the simplex's
//          tangent space (Eilers 2007, the penalised composite link model);
//   LAML = the Laplace-approximate marginal likelihood (Wood 2011; mgcv).
// Each is optimised over lambda in {1e-7, 3e-7, ..., 1} (PML fitted on the
// whole grid, warm-started from the strongest). "Results' default" is what
// numeric results use: the rule, lowered (never raised) by LAML for one-value
// mechanisms (ChooseCurvaturePenalty). Compared on W1 and the RMSE of the mean
// with the rule, EMS, and the best lambda of the grid in hindsight (chosen
// knowing the truth; not an estimator), on the example survey's questions and
// on the RVNS study's datasets; the last table counts rows better/worse than
// the rule.
//
// For k > 1 values per respondent the multinomial likelihood treats dependent
// values as independent (a composite likelihood), which is why results do not
// use LAML there; the RVNS rows show what it would do.
//
// Run: build/pml_aic [--quick]   (Markdown to stdout; about a minute on 2 cores, --quick 15 s)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/rvns_study_data.h"
#include "core/distribution/curvature_penalty_choice.h"
#include "core/distribution/ems_estimator.h"
#include "core/distribution/numeric_histogram.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/common/seeded_random.h"
#include "core/distribution/transition_matrix.h"

using namespace deniable;
using nlohmann::json;

namespace {

template <typename T>
T Unwrap(Result<T> result, const char* what) {
  if (!result.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, result.error().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

std::vector<double> PenaltyGrid() {
  std::vector<double> grid;
  for (int e = -14; e <= 0; ++e) grid.push_back(std::pow(10.0, e / 2.0));
  return grid;
}

struct Fits {
  std::vector<std::vector<double>> on_grid;  // PML at PenaltyGrid()[i]
  std::size_t aic_choice = 0, laml_choice = 0;
  std::vector<double> rule, results_default, ems;
  double results_penalty = 0.0;
};

Fits FitAll(const std::vector<double>& counts, const TransitionMatrix& transition, int values_per_report) {
  const auto grid = PenaltyGrid();
  Fits fits;
  fits.on_grid.resize(grid.size());
  double best_aic = INFINITY, best_laml = -INFINITY;
  std::vector<double> start;
  for (std::size_t i = grid.size(); i-- > 0;) {  // strongest first: each fit warm-starts the next
    EmsOptions options;
    options.curvature_penalty = grid[i];
    options.start = start;
    const EmsResult fit = Unwrap(EstimateEms(counts, transition, options), "pml");
    const SmoothnessCriteria criteria = EvaluateSmoothness(counts, transition, fit, grid[i]);
    const double aic = -2.0 * fit.log_likelihood + 2.0 * criteria.effective_dimension;
    if (aic < best_aic) {
      best_aic = aic;
      fits.aic_choice = i;
    }
    if (criteria.laplace_marginal_likelihood > best_laml) {
      best_laml = criteria.laplace_marginal_likelihood;
      fits.laml_choice = i;
    }
    fits.on_grid[i] = fit.probabilities;
    start = NudgedTowardsUniform(fit.probabilities);
  }
  fits.rule = Unwrap(EstimateEms(counts, transition), "pml").probabilities;
  // What numeric results use (numeric_results.cc): the rule, lowered by LAML for one-value mechanisms.
  fits.results_penalty = CurvaturePenalty({}, std::accumulate(counts.begin(), counts.end(), 0.0));
  fits.results_default = fits.rule;
  if (values_per_report == 1) {
    const auto choice = Unwrap(ChooseCurvaturePenalty(counts, transition), "choice");
    fits.results_penalty = choice.penalty;
    fits.results_default = choice.fit.probabilities;
  }
  fits.ems = Unwrap(EstimateEms(counts, transition, {EmSmoothing::kBinomial}), "ems").probabilities;
  return fits;
}

struct Case {
  std::string question;
  std::string mechanism;  // survey JSON
  std::string truth;      // truth JSON
  NumericRange range;
};

double Mean(const std::vector<double>& f, NumericRange range) {
  const double width = range.width() / static_cast<double>(f.size());
  double mean = 0.0;
  for (std::size_t i = 0; i < f.size(); ++i) mean += f[i] * (range.low + (static_cast<double>(i) + 0.5) * width);
  return mean;
}

// One row: mean W1 and RMSE of the mean over `samples` fresh samples, for
// each way of choosing lambda (and EMS).
enum Method { kRule, kResults, kAic, kLaml, kEms, kMethods };
const char* const kMethodNames[kMethods] = {"sqrt(N) rule", "results' default", "AIC", "LAML", "EMS"};

struct Scores {
  double w1[kMethods] = {}, mean_rmse[kMethods] = {};
  double w1_hindsight = 0.0;
  std::vector<double> results_penalties, aic_penalties, laml_penalties;
};

Scores RunCase(const Case& c, int n, int samples, int cells) {
  const auto mechanism = Unwrap(ParseNumericMechanism(json::parse(c.mechanism), c.range, "mechanism"), "mechanism");
  const auto truth = Unwrap(ParseNumericTruth(json::parse(c.truth), c.range, "truth"), "truth");
  const auto transition =
      Unwrap(TransitionMatrix::ForMechanism(*mechanism, cells, kDefaultHistogramCells), "transition");
  const double width = c.range.width() / cells;
  const auto grid = PenaltyGrid();
  Scores s;
  for (int sample = 0; sample < samples; ++sample) {
    SeededRandom random(9000 + static_cast<std::uint64_t>(sample));
    std::vector<double> answers;
    for (int i = 0; i < n; ++i) answers.push_back(Unwrap(truth->Draw(random), "draw"));
    const auto masses = rvns_study::EmpiricalCellMasses(answers, c.range, cells);
    double true_mean = 0.0;
    for (double x : answers) true_mean += x / n;
    auto histogram = Unwrap(NumericHistogram::ForMechanism(*mechanism), "histogram");
    for (double x : answers) (void)histogram.Add(Unwrap(mechanism->Perturb(x, random), "perturb"));
    const Fits fits = FitAll(histogram.counts_as_doubles(), transition, mechanism->values_per_report());
    const std::vector<double>* estimates[kMethods] = {&fits.rule, &fits.results_default,
                                                      &fits.on_grid[fits.aic_choice],
                                                      &fits.on_grid[fits.laml_choice], &fits.ems};
    for (int method = 0; method < kMethods; ++method) {
      const auto& f = *estimates[method];
      s.w1[method] += rvns_study::GridWasserstein1(f, masses, width) / samples;
      s.mean_rmse[method] += std::pow(Mean(f, c.range) - true_mean, 2) / samples;
    }
    double hindsight = INFINITY;
    for (const auto& f : fits.on_grid) hindsight = std::min(hindsight, rvns_study::GridWasserstein1(f, masses, width));
    s.w1_hindsight += hindsight / samples;
    s.results_penalties.push_back(fits.results_penalty);
    s.aic_penalties.push_back(grid[fits.aic_choice]);
    s.laml_penalties.push_back(grid[fits.laml_choice]);
  }
  for (double& value : s.mean_rmse) value = std::sqrt(value);
  return s;
}

const std::vector<Case>& ExampleCases() {
  static const std::vector<Case> cases = {
      {"BMI, RVNS d=5 k=2 fresh", R"({"name": "rvns", "window": 5, "values": 2, "window_mode": "fresh"})",
       R"({"distribution": "normal", "mean": 26, "sd": 5})", {10, 60}},
      {"BMI, RVNS d=5 k=2 shared", R"({"name": "rvns", "window": 5, "values": 2, "window_mode": "shared"})",
       R"({"distribution": "normal", "mean": 26, "sd": 5})", {10, 60}},
      {"BMI sd 4, RVNS d=4 k=2 γ=0.25", R"({"name": "rvns", "window": 4, "values": 2, "window_mode": "fresh", "uniform_probability": 0.25})",
       R"({"distribution": "normal", "mean": 26, "sd": 4})", {10, 60}},
      {"sleep, Square Wave ε=2", R"({"name": "square_wave", "epsilon": 2})",
       R"({"distribution": "mixture", "components": [{"weight": 0.8, "distribution": "normal", "mean": 7, "sd": 1},
           {"weight": 0.2, "distribution": "uniform"}]})",
       {0, 12}},
      {"commute, Piecewise ε=1", R"({"name": "piecewise", "epsilon": 1})",
       R"({"distribution": "chi_square", "df": 3, "scale": 10})", {0, 120}},
      {"commute, Laplace ε=1", R"({"name": "laplace", "epsilon": 1})",
       R"({"distribution": "chi_square", "df": 3, "scale": 10})", {0, 120}},
  };
  return cases;
}

std::vector<Case> StudyCases() {
  std::vector<Case> cases;
  const std::vector<std::pair<std::string, std::string>> mechanisms = {
      {"RVNS d=1 k=1", R"({"name": "rvns", "window": 1, "values": 1, "window_mode": "fresh"})"},
      {"RVNS d=1 k=2 fresh", R"({"name": "rvns", "window": 1, "values": 2, "window_mode": "fresh"})"},
      {"RVNS d=3 k=2 shared", R"({"name": "rvns", "window": 3, "values": 2, "window_mode": "shared"})"},
      {"Square Wave ε=1", R"({"name": "square_wave", "epsilon": 1})"},
      {"Laplace ε=2", R"({"name": "laplace", "epsilon": 2})"}};
  for (int df : {2, 5, 10}) {
    for (const auto& [name, mechanism] : mechanisms) {
      cases.push_back({"χ²(" + std::to_string(df) + "), " + name, mechanism,
                       R"({"distribution": "chi_square", "df": )" + std::to_string(df) + "}", {0, 10}});
    }
  }
  return cases;
}

void PrintHeader() {
  std::puts(
      "| question, mechanism | n | W1: sqrt(N) rule | results' default | AIC | LAML | EMS | best λ in hindsight | "
      "mean RMSE: rule | results' default | AIC | LAML | EMS | λ per sample: results' default / AIC / LAML |");
  std::puts("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
}

std::string Penalties(const std::vector<double>& penalties) {
  std::string text;
  for (double p : penalties) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%s%.1e", text.empty() ? "" : " ", p);
    text += buffer;
  }
  return text;
}

// Rows where a method beat the sqrt(N) rule (lower mean W1 / RMSE of the mean) and lost to it.
struct Tally {
  int rows = 0;
  int w1_better[kMethods] = {}, w1_worse[kMethods] = {}, mean_better[kMethods] = {}, mean_worse[kMethods] = {};
};

void PrintRow(const Case& c, int n, const Scores& s, Tally& tally) {
  std::printf("| %s | %d |", c.question.c_str(), n);
  for (double w1 : s.w1) std::printf(" %.4g |", w1);
  std::printf(" %.4g |", s.w1_hindsight);
  for (double rmse : s.mean_rmse) std::printf(" %.4g |", rmse);
  std::printf(" %s / %s / %s |\n", Penalties(s.results_penalties).c_str(), Penalties(s.aic_penalties).c_str(),
              Penalties(s.laml_penalties).c_str());
  std::fflush(stdout);
  ++tally.rows;
  constexpr double kSame = 1e-9;  // relative: the same estimate
  for (int method = 0; method < kMethods; ++method) {
    tally.w1_better[method] += s.w1[method] < s.w1[kRule] * (1 - kSame);
    tally.w1_worse[method] += s.w1[method] > s.w1[kRule] * (1 + kSame);
    tally.mean_better[method] += s.mean_rmse[method] < s.mean_rmse[kRule] * (1 - kSame);
    tally.mean_worse[method] += s.mean_rmse[method] > s.mean_rmse[kRule] * (1 + kSame);
  }
}

void PrintTally(const Tally& tally) {
  std::printf("\nAgainst the sqrt(N) rule over %d rows (better / worse; the rest equal):\n\n", tally.rows);
  std::puts("| method | W1 better | W1 worse | mean RMSE better | mean RMSE worse |");
  std::puts("|---|---:|---:|---:|---:|");
  for (int method = kResults; method < kMethods; ++method) {
    std::printf("| %s | %d | %d | %d | %d |\n", kMethodNames[method], tally.w1_better[method],
                tally.w1_worse[method], tally.mean_better[method], tally.mean_worse[method]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  if (argc > 1 && !quick) {
    std::fputs("usage: pml_aic [--quick]\n", stderr);
    return 2;
  }
  const int samples = quick ? 2 : 6;
  Tally tally;
  std::printf("### PML's curvature penalty chosen from the reports (m = 100; %d samples per row)\n\n", samples);
  std::puts(
      "Results' default: the sqrt(N) rule, lowered by LAML for one-value mechanisms "
      "(core/distribution/curvature_penalty_choice.h). AIC and LAML: the maximiser over λ ∈ {1e-7, 3e-7, …, 1}.\n");
  std::puts("The questions of examples/numeric-survey.json with examples/numeric-truth.json's answers:\n");
  PrintHeader();
  for (int n : quick ? std::vector<int>{10000} : std::vector<int>{1000, 10000, 100000}) {
    for (const Case& c : ExampleCases()) PrintRow(c, n, RunCase(c, n, samples, 100), tally);
  }
  std::printf("\nThe RVNS study's datasets (chi-square on [0, 10], n = 50,000; %d samples):\n\n", quick ? 1 : 3);
  PrintHeader();
  for (const Case& c : StudyCases()) PrintRow(c, 50000, RunCase(c, 50000, quick ? 1 : 3, 100), tally);
  PrintTally(tally);
}

// Can the reports choose PML's curvature penalty? A measured "not reliably".
//
// PML's default lambda = 1e-5 sqrt(N) (core/ems_estimator.h) is an empirical
// rule; it is too strong for narrow peaks seen through informative channels
// (docs/rvns-results.md, "Known weakness"). The textbook data-driven choice for
// penalised likelihood on counts through a known matrix (Eilers 2007, "Ill-posed
// problems with counts, the composite link model and penalized likelihood") is
// Akaike's criterion with the effective dimension:
//     AIC(lambda) = -2 L(f_lambda) + 2 ED(lambda),
//     ED = trace((H + P)^-1 H)   on the simplex's tangent space,
// H = T' diag(c / (T f)^2) T the observed information of the multinomial
// log-likelihood L, P = 2 lambda m^5 D'D the penalty's Hessian. This program
// fits PML on a grid of lambda (1e-7 to 1, half decades, warm-started from the
// strongest), takes the AIC minimiser, and compares W1 and the error of the mean
// with the default rule, EMS, and the best lambda of the grid in hindsight
// (chosen knowing the truth; not an estimator).
//
// For k > 1 values per respondent the multinomial likelihood treats dependent
// values as independent (a composite likelihood), so AIC's penalty is too small
// there; it is shown anyway, since RVNS reports are the headline case.
//
// Run: build/pml_aic [--quick]   (Markdown to stdout; about a minute on 2 cores, --quick 15 s)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/rvns_study_data.h"
#include "core/curvature_smoother.h"
#include "core/ems_estimator.h"
#include "core/numeric_histogram.h"
#include "core/numeric_mechanism_factory.h"
#include "core/numeric_truth.h"
#include "core/seeded_random.h"
#include "core/transition_matrix.h"

using namespace deniable;
using nlohmann::json;

namespace {

using Matrix = std::vector<std::vector<double>>;

template <typename T>
T Unwrap(Result<T> result, const char* what) {
  if (!result.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, result.error().c_str());
    std::exit(1);
  }
  return std::move(result).value();
}

// In-place Cholesky factor (lower triangle) of a symmetric positive definite matrix.
bool CholeskyInPlace(Matrix& a) {
  const std::size_t n = a.size();
  for (std::size_t j = 0; j < n; ++j) {
    double diagonal = a[j][j];
    for (std::size_t k = 0; k < j; ++k) diagonal -= a[j][k] * a[j][k];
    if (!(diagonal > 0.0)) return false;
    a[j][j] = std::sqrt(diagonal);
    for (std::size_t i = j + 1; i < n; ++i) {
      double sum = a[i][j];
      for (std::size_t k = 0; k < j; ++k) sum -= a[i][k] * a[j][k];
      a[i][j] = sum / a[j][j];
    }
  }
  return true;
}

std::vector<double> CholeskySolve(const Matrix& l, std::vector<double> b) {
  const std::size_t n = l.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < i; ++k) b[i] -= l[i][k] * b[k];
    b[i] /= l[i][i];
  }
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= l[k][i] * b[k];
    b[i] /= l[i][i];
  }
  return b;
}

// Restriction of a symmetric matrix to the tangent space of the simplex
// (directions v with sum v = 0), parametrised by the first m - 1 cells (the
// last is minus their sum).
Matrix OnTangentSpace(const Matrix& full) {
  const std::size_t r = full.size() - 1;
  Matrix out(r, std::vector<double>(r));
  for (std::size_t u = 0; u < r; ++u) {
    for (std::size_t v = 0; v < r; ++v) out[u][v] = full[u][v] - full[u][r] - full[r][v] + full[r][r];
  }
  return out;
}

// ED at the fit f with penalty weight lambda m^5. All cells count (a cell at 0
// is not pinned there by anything but the fit), which is what kept AIC from
// preferring the sparse, nearly unpenalised fits in a first trial that dropped
// zero cells.
double EffectiveDimension(const std::vector<double>& counts, const TransitionMatrix& transition,
                          const std::vector<double>& f, double penalty_weight) {
  const int m = transition.input_cells();
  const auto predicted = transition.Apply(f);
  Matrix information(m, std::vector<double>(m, 0.0));
  for (int i = 0; i < m; ++i) {
    for (int k = i; k < m; ++k) {
      const int begin = std::max(transition.band_begin(i), transition.band_begin(k));
      const int end = std::min(transition.band_end(i), transition.band_end(k));
      double sum = 0.0;
      for (int j = begin; j < end; ++j) {
        if (counts[j] > 0.0) sum += counts[j] / (predicted[j] * predicted[j]) * transition.at(j, i) * transition.at(j, k);
      }
      information[i][k] = information[k][i] = sum;
    }
  }
  Matrix penalised = information;
  for (int r = 0; r + 2 < m; ++r) {
    const int cells[3] = {r, r + 1, r + 2};
    const double weights[3] = {1.0, -2.0, 1.0};
    for (int u = 0; u < 3; ++u) {
      for (int v = 0; v < 3; ++v) penalised[cells[u]][cells[v]] += 2.0 * penalty_weight * weights[u] * weights[v];
    }
  }
  const Matrix h = OnTangentSpace(information);
  Matrix factor = OnTangentSpace(penalised);
  if (!CholeskyInPlace(factor)) return NAN;
  double trace = 0.0;
  for (std::size_t v = 0; v < h.size(); ++v) {
    std::vector<double> column(h.size());
    for (std::size_t u = 0; u < h.size(); ++u) column[u] = h[u][v];
    trace += CholeskySolve(factor, column)[v];
  }
  return trace;
}

std::vector<double> PenaltyGrid() {
  std::vector<double> grid;
  for (int e = -14; e <= 0; ++e) grid.push_back(std::pow(10.0, e / 2.0));
  return grid;
}

struct Fits {
  std::vector<std::vector<double>> on_grid;  // PML at PenaltyGrid()[i]
  std::size_t aic_choice = 0;
  std::vector<double> default_rule, ems;
};

Fits FitAll(const std::vector<double>& counts, const TransitionMatrix& transition) {
  const auto grid = PenaltyGrid();
  const double m5 = std::pow(static_cast<double>(transition.input_cells()), 5.0);
  Fits fits;
  fits.on_grid.resize(grid.size());
  double best_aic = INFINITY;
  std::vector<double> start;
  for (std::size_t i = grid.size(); i-- > 0;) {  // strongest first: each fit warm-starts the next
    EmsOptions options;
    options.curvature_penalty = grid[i];
    options.start = start;
    const EmsResult fit = Unwrap(EstimateEms(counts, transition, options), "pml");
    const double aic = -2.0 * fit.log_likelihood + 2.0 * EffectiveDimension(counts, transition, fit.probabilities,
                                                                             grid[i] * m5);
    if (aic < best_aic) {
      best_aic = aic;
      fits.aic_choice = i;
    }
    fits.on_grid[i] = start = fit.probabilities;
  }
  fits.default_rule = Unwrap(EstimateEms(counts, transition), "pml").probabilities;
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

// One row: mean W1 and RMSE of the mean over `samples` fresh samples.
struct Scores {
  double w1_default = 0, w1_aic = 0, w1_ems = 0, w1_hindsight = 0;
  double mean_default = 0, mean_aic = 0, mean_ems = 0;  // RMSE
  std::vector<double> aic_penalties;
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
    const Fits fits = FitAll(histogram.counts_as_doubles(), transition);
    const auto w1 = [&](const std::vector<double>& f) { return rvns_study::GridWasserstein1(f, masses, width); };
    const auto squared = [&](const std::vector<double>& f) { return std::pow(Mean(f, c.range) - true_mean, 2); };
    double hindsight = INFINITY;
    for (const auto& f : fits.on_grid) hindsight = std::min(hindsight, w1(f));
    s.w1_default += w1(fits.default_rule) / samples;
    s.w1_aic += w1(fits.on_grid[fits.aic_choice]) / samples;
    s.w1_ems += w1(fits.ems) / samples;
    s.w1_hindsight += hindsight / samples;
    s.mean_default += squared(fits.default_rule) / samples;
    s.mean_aic += squared(fits.on_grid[fits.aic_choice]) / samples;
    s.mean_ems += squared(fits.ems) / samples;
    s.aic_penalties.push_back(grid[fits.aic_choice]);
  }
  s.mean_default = std::sqrt(s.mean_default);
  s.mean_aic = std::sqrt(s.mean_aic);
  s.mean_ems = std::sqrt(s.mean_ems);
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
      "| question, mechanism | n | W1 default λ | W1 AIC λ | W1 EMS | W1 best λ in hindsight | mean RMSE default | "
      "AIC | EMS | AIC's λ per sample |");
  std::puts("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
}

struct Tally {
  int rows = 0, aic_better_w1 = 0, aic_better_mean = 0;
};

void PrintRow(const Case& c, int n, const Scores& s, Tally& tally) {
  std::string penalties;
  for (double p : s.aic_penalties) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%s%.0e", penalties.empty() ? "" : " ", p);
    penalties += buffer;
  }
  std::printf("| %s | %d | %.4g | %.4g | %.4g | %.4g | %.4g | %.4g | %.4g | %s |\n", c.question.c_str(), n,
              s.w1_default, s.w1_aic, s.w1_ems, s.w1_hindsight, s.mean_default, s.mean_aic, s.mean_ems,
              penalties.c_str());
  std::fflush(stdout);
  ++tally.rows;
  tally.aic_better_w1 += s.w1_aic < s.w1_default;
  tally.aic_better_mean += s.mean_aic < s.mean_default;
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
  std::printf("### PML's curvature penalty chosen by AIC (m = 100; %d samples per row)\n\n", samples);
  std::puts("The questions of examples/numeric-survey.json with examples/numeric-truth.json's answers:\n");
  PrintHeader();
  for (int n : quick ? std::vector<int>{10000} : std::vector<int>{1000, 10000, 100000}) {
    for (const Case& c : ExampleCases()) PrintRow(c, n, RunCase(c, n, samples, 100), tally);
  }
  std::printf("\nThe RVNS study's datasets (chi-square on [0, 10], n = 50,000; %d samples):\n\n", quick ? 1 : 3);
  PrintHeader();
  for (const Case& c : StudyCases()) PrintRow(c, 50000, RunCase(c, 50000, quick ? 1 : 3, 100), tally);
  std::printf("\nAIC's λ beat the default rule in %d of %d rows on W1 and in %d of %d on the mean's RMSE.\n",
              tally.aic_better_w1, tally.rows, tally.aic_better_mean, tally.rows);
}

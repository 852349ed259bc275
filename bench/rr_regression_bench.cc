// The regression of a randomised answer on covariates (core/analysis/
// channel_logit_fit.h, rr's rrreg), over seeds, against the known
// coefficients and against the non-private logistic fit on the true answers:
// per coefficient the bias, the coverage of its 95% Wald interval, the SE
// ratio (mean reported SE / empirical SD of the estimates), the non-private
// fit's coverage and SE ratio (the baseline), the SE inflation that the
// randomisation costs (private SE / non-private SE) and how often the
// non-private estimate lies inside the private interval (at least 95%: the
// private estimate is the non-private one plus randomisation noise, so their
// difference has variance V_private - V_nonprivate < V_private).
// Data: an intercept, a two-level group (40% in group 1) and a standard
// normal covariate (tests/cpp/support/rr_simulate.h, the tests' draw).
// Shapes: rr's forced design (p = 2/3, forced yes/no 1/6: GRR k = 2 at
// epsilon ln 5) with beta = (-1, 1, 0.5); a rare outcome (5%) at epsilon 2;
// a three-level outcome (GRR k = 3, epsilon 2).
// Last, the randomised answer as a predictor of an open numeric outcome
// (rr's rrreg.predictor, linear; RunPredictor), n = 300 to 10^4.
// Run: build/rr_regression_bench [--seeds R] (R = 400 seeds at n <= 10^3, R/4
// at 10^4, R/8 at 10^5: about 25 s single-core); prints a Markdown table,
// timing on stderr.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/analysis/channel_logit_fit.h"
#include "core/analysis/rr_predictor_fit.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/rr_simulate.h"

namespace deniable {
namespace {

struct Shape {
  std::string name;
  Eigen::MatrixXd beta;
  Eigen::MatrixXd channel;
};

struct Tally {
  std::vector<double> estimates, ses, np_estimates, np_ses;
  int covered = 0, np_covered = 0, np_inside = 0;
};

constexpr double kZ = 1.959963984540054;

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? NAN : s / v.size();
}

double Sd(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.size() < 2 ? NAN : std::sqrt(s / (v.size() - 1));
}

// Fewer seeds where a fit costs more (about 0.2 s single-core at n = 10^5, two fits per seed).
int SeedsFor(int n, int seeds) { return n >= 100000 ? std::max(20, seeds / 8) : n >= 10000 ? std::max(50, seeds / 4) : seeds; }

void RunShape(const Shape& shape, int n, int seeds) {
  const Eigen::Index size = shape.beta.size();
  std::vector<Tally> tallies(static_cast<std::size_t>(size));
  int failed = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    const auto data = testing::SimulateRegression(n, shape.beta, shape.channel, 0.4, 1000003ULL * n + seed);
    auto fit = FitChannelLogit(data.randomised, nullptr);
    auto plain = FitChannelLogit(data.exact, nullptr);
    if (!fit || !plain || fit->covariance.size() == 0 || plain->covariance.size() == 0) {
      ++failed;
      continue;
    }
    for (Eigen::Index i = 0; i < size; ++i) {
      Tally& t = tallies[static_cast<std::size_t>(i)];
      const double truth = shape.beta.data()[i];
      const double est = fit->coefficients.data()[i], se = std::sqrt(fit->covariance(i, i));
      const double np = plain->coefficients.data()[i], np_se = std::sqrt(plain->covariance(i, i));
      t.estimates.push_back(est), t.ses.push_back(se), t.np_estimates.push_back(np), t.np_ses.push_back(np_se);
      t.covered += std::abs(est - truth) <= kZ * se;
      t.np_covered += std::abs(np - truth) <= kZ * np_se;
      t.np_inside += std::abs(np - est) <= kZ * se;
    }
  }
  const char* names[] = {"(intercept)", "group", "x"};
  for (Eigen::Index i = 0; i < size; ++i) {
    const Tally& t = tallies[static_cast<std::size_t>(i)];
    const double fits = static_cast<double>(t.estimates.size());
    const std::string term = std::string(names[i % 3]) + (shape.beta.cols() > 1 ? "[" + std::to_string(i / 3 + 1) + "]" : "");
    std::printf("| %s | %d | %s | %.2f | %+.3f | %.1f%% | %.2f | %.1f%% | %.2f | %.2f | %.1f%% | %d/%d |\n",
                shape.name.c_str(), n, term.c_str(), shape.beta.data()[i], Mean(t.estimates) - shape.beta.data()[i],
                100.0 * t.covered / fits, Mean(t.ses) / Sd(t.estimates), 100.0 * t.np_covered / fits,
                Mean(t.np_ses) / Sd(t.np_estimates), Mean(t.ses) / Mean(t.np_ses), 100.0 * t.np_inside / fits, failed,
                seeds);
  }
  std::fflush(stdout);
}

// The randomised answer as a predictor (rr_predictor_fit.h): x = (1, group,
// normal), z ~ logistic(-0.5 + group + 0.5 normal), y = 2 + 1.5 z + 0.5 group
// - 0.8 normal + 1.2 N(0, 1), z reported through GRR k = 2 at epsilon ln 5.
// Per parameter of the outcome equation: bias, coverage, SE ratio, and the
// same for the non-private fit (z observed: the identity channel).
void RunPredictor(int n, int seeds) {
  const Eigen::MatrixXd channel = testing::GrrChannel(2, std::log(5.0));
  Eigen::VectorXd truth(8);
  truth << -0.5, 1.0, 0.5, 2.0, 1.5, 0.5, -0.8, std::log(1.2);
  std::vector<Tally> tallies(4);
  int failed = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    SeededRandom random(7919ULL * n + seed);
    PredictorProblem problem{Eigen::MatrixXd(n, 3), Eigen::VectorXd(n), Eigen::MatrixXd(n, 2)};
    PredictorProblem exact = problem;
    exact.likelihood.setZero();
    for (int i = 0; i < n; ++i) {
      const double group = Bernoulli(random, 0.4) ? 1.0 : 0.0, normal = testing::StandardNormal(random);
      problem.x.row(i) << 1.0, group, normal;
      const int z = Bernoulli(random, 1 / (1 + std::exp(-(truth(0) + truth(1) * group + truth(2) * normal)))) ? 1 : 0;
      problem.y(i) = truth(3) + truth(4) * z + truth(5) * group + truth(6) * normal +
                     std::exp(truth(7)) * testing::StandardNormal(random);
      problem.likelihood.row(i) = channel.row(testing::DrawCategory(channel.col(z), random));
      exact.likelihood(i, z) = 1.0;
    }
    exact.x = problem.x;
    exact.y = problem.y;
    auto fit = FitPredictor(problem, nullptr);
    auto plain = FitPredictor(exact, nullptr);
    if (!fit || !plain || fit->covariance.size() == 0 || plain->covariance.size() == 0) {
      ++failed;
      continue;
    }
    for (int k = 0; k < 4; ++k) {
      const Eigen::Index i = 3 + k;
      Tally& t = tallies[static_cast<std::size_t>(k)];
      const double est = fit->parameters(i), se = std::sqrt(fit->covariance(i, i));
      const double np = plain->parameters(i), np_se = std::sqrt(plain->covariance(i, i));
      t.estimates.push_back(est), t.ses.push_back(se), t.np_estimates.push_back(np), t.np_ses.push_back(np_se);
      t.covered += std::abs(est - truth(i)) <= kZ * se;
      t.np_covered += std::abs(np - truth(i)) <= kZ * np_se;
      t.np_inside += std::abs(np - est) <= kZ * se;
    }
  }
  const char* names[] = {"(intercept)", "z=yes", "group", "x"};
  for (int k = 0; k < 4; ++k) {
    const Tally& t = tallies[static_cast<std::size_t>(k)];
    const double fits = static_cast<double>(t.estimates.size());
    std::printf("| predictor (eps ln 5) | %d | %s | %.2f | %+.3f | %.1f%% | %.2f | %.1f%% | %.2f | %.2f | %.1f%% | %d/%d |\n",
                n, names[k], truth(3 + k), Mean(t.estimates) - truth(3 + k), 100.0 * t.covered / fits,
                Mean(t.ses) / Sd(t.estimates), 100.0 * t.np_covered / fits, Mean(t.np_ses) / Sd(t.np_estimates),
                Mean(t.ses) / Mean(t.np_ses), 100.0 * t.np_inside / fits, failed, seeds);
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace deniable

int main(int argc, char** argv) {
  using namespace deniable;
  int seeds = 400;
  bool predictor_only = false;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--seeds") == 0) seeds = std::atoi(argv[i + 1]);
  }
  for (int i = 1; i < argc; ++i) predictor_only |= std::strcmp(argv[i], "--predictor-only") == 0;
  const std::vector<Shape> shapes = {
      {"forced design (eps ln 5)", (Eigen::MatrixXd(3, 1) << -1.0, 1.0, 0.5).finished(),
       testing::GrrChannel(2, std::log(5.0))},
      {"rare 5% (eps 2)", (Eigen::MatrixXd(3, 1) << -3.2, 0.8, 0.6).finished(), testing::GrrChannel(2, 2.0)},
      {"3 levels (GRR eps 2)", (Eigen::MatrixXd(3, 2) << -0.5, 0.3, 0.8, 0.2, -0.4, 0.5).finished(),
       testing::GrrChannel(3, 2.0)},
  };
  std::printf("| shape | n | term | beta | bias | coverage | SE ratio | non-private coverage | non-private SE ratio "
              "| SE inflation | non-private inside | no interval |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& shape : shapes) {
    if (predictor_only) break;
    for (int n : {300, 1000, 10000, 100000}) {
      const auto start = std::chrono::steady_clock::now();
      RunShape(shape, n, SeedsFor(n, seeds));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%s n=%d: %.1f s\n", shape.name.c_str(), n, seconds);
    }
  }
  for (int n : {300, 1000, 10000}) {
    const auto start = std::chrono::steady_clock::now();
    RunPredictor(n, SeedsFor(n, seeds) / 2);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "predictor n=%d: %.1f s\n", n, seconds);
  }
  return 0;
}

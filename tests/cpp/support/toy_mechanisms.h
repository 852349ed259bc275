// Toy numeric mechanisms with closed forms, independent of the real mechanisms in
// core (a wave, a tent and a Laplace on [0, 1]), a Beta(3, 3) truth on cells,
// distances between distributions, and histograms of simulated reports: shared
// by the tests of core/distribution/.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/seeded_random.h"
#include "core/distribution/numeric_histogram.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable::testing {

inline double Overlap(double a0, double a1, double b0, double b1) {
  return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
}

// A toy "wave": with probability beta, y ~ U[x - w, x + w]; otherwise y ~ U[-w, 1 + w].
// Its density jumps in y, so OutputProbability has kinks in x.
class ToyWave final : public NumericMechanism {
 public:
  ToyWave(double beta, double w, int values = 1) : NumericMechanism({0.0, 1.0}), beta_(beta), w_(w), values_(values) {}
  std::string name() const override { return "toy_wave"; }
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json ParamsToJson() const override { return {{"name", name()}}; }
  NumericRange output_range() const override { return {-w_, 1.0 + w_}; }
  int values_per_report() const override { return values_; }
  double OutputProbability(double x, double y0, double y1) const override {
    return beta_ * Overlap(y0, y1, x - w_, x + w_) / (2.0 * w_) +
           (1.0 - beta_) * Overlap(y0, y1, -w_, 1.0 + w_) / (1.0 + 2.0 * w_);
  }

 protected:
  std::vector<double> PerturbValid(double x, RandomSource& random) const override {
    std::vector<double> values;
    for (int v = 0; v < values_; ++v) {
      const bool near = Bernoulli(random, beta_);
      const double u = UniformUnit(random);
      values.push_back(near ? x - w_ + 2.0 * w_ * u : -w_ + (1.0 + 2.0 * w_) * u);
    }
    return values;
  }

 private:
  double beta_;
  double w_;
  int values_;
};

// A toy "tent": with probability beta, y = x + w (U1 + U2 - 1) (triangular);
// otherwise uniform on [-w, 1 + w]. Its density is continuous in y.
class ToyTent final : public NumericMechanism {
 public:
  ToyTent(double beta, double w) : NumericMechanism({0.0, 1.0}), beta_(beta), w_(w) {}
  std::string name() const override { return "toy_tent"; }
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json ParamsToJson() const override { return {{"name", name()}}; }
  NumericRange output_range() const override { return {-w_, 1.0 + w_}; }
  double OutputProbability(double x, double y0, double y1) const override {
    return beta_ * (TentCdf((y1 - x) / w_) - TentCdf((y0 - x) / w_)) +
           (1.0 - beta_) * Overlap(y0, y1, -w_, 1.0 + w_) / (1.0 + 2.0 * w_);
  }

 protected:
  std::vector<double> PerturbValid(double x, RandomSource& random) const override {
    if (Bernoulli(random, beta_)) return {x + w_ * (UniformUnit(random) + UniformUnit(random) - 1.0)};
    return {-w_ + (1.0 + 2.0 * w_) * UniformUnit(random)};
  }

 private:
  static double TentCdf(double t) {
    if (t <= -1.0) return 0.0;
    if (t >= 1.0) return 1.0;
    return t < 0.0 ? 0.5 * (1.0 + t) * (1.0 + t) : 1.0 - 0.5 * (1.0 - t) * (1.0 - t);
  }
  double beta_;
  double w_;
};

// A toy Laplace: y = x + Lap(scale), output range [-width, 1 + width], tails clamped.
class ToyLaplace final : public NumericMechanism {
 public:
  ToyLaplace(double scale, double width) : NumericMechanism({0.0, 1.0}), scale_(scale), width_(width) {}
  std::string name() const override { return "toy_laplace"; }
  std::optional<double> epsilon() const override { return 1.0 / scale_; }
  nlohmann::json ParamsToJson() const override { return {{"name", name()}}; }
  NumericRange output_range() const override { return {-width_, 1.0 + width_}; }
  double OutputProbability(double x, double y0, double y1) const override { return Cdf(y1 - x) - Cdf(y0 - x); }
  double Cdf(double t) const { return t < 0.0 ? 0.5 * std::exp(t / scale_) : 1.0 - 0.5 * std::exp(-t / scale_); }

 protected:
  std::vector<double> PerturbValid(double x, RandomSource& random) const override {
    const double u = UniformUnit(random) - 0.5;
    return {x - scale_ * (u < 0 ? -1.0 : 1.0) * std::log(1.0 - 2.0 * std::abs(u))};
  }

 private:
  double scale_;
  double width_;
};

// A toy whose output law switches at x = 1/2 for every output (a kink common to
// all outputs): y ~ U[0, 1] below 1/2, y ~ U[1/2, 1] from 1/2 on.
inline double SwitchProbability(double x, double y0, double y1) {
  return x < 0.5 ? Overlap(y0, y1, 0.0, 1.0) : 2.0 * Overlap(y0, y1, 0.5, 1.0);
}

// Cell probabilities of Beta(3, 3) (density 30 x^2 (1 - x)^2, CDF x^3 (10 - 15 x + 6 x^2)) on m cells of [0, 1].
inline std::vector<double> BetaThreeThreeCells(int m) {
  auto cdf = [](double x) { return x * x * x * (10.0 - 15.0 * x + 6.0 * x * x); };
  std::vector<double> p(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) p[static_cast<std::size_t>(i)] = cdf((i + 1.0) / m) - cdf(static_cast<double>(i) / m);
  return p;
}

inline std::vector<double> Scaled(std::vector<double> values, double factor) {
  for (double& value : values) value *= factor;
  return values;
}

inline double MaxAbsDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

inline double L1Distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

// Wasserstein-1 between two distributions on the same m cells of [0, 1].
inline double W1(const std::vector<double>& a, const std::vector<double>& b) {
  double distance = 0.0;
  double gap = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    gap += a[i] - b[i];
    distance += std::abs(gap) / static_cast<double>(a.size());
  }
  return distance;
}

// An answer drawn from Beta(3, 3) by inverting its CDF (bisection to 2^-50).
inline double DrawBetaThreeThree(RandomSource& random) {
  const double u = UniformUnit(random);
  double low = 0.0;
  double high = 1.0;
  for (int i = 0; i < 50; ++i) {
    const double x = 0.5 * (low + high);
    (x * x * x * (10.0 - 15.0 * x + 6.0 * x * x) < u ? low : high) = x;
  }
  return 0.5 * (low + high);
}

inline NumericHistogram SimulateHistogram(const NumericMechanism& mechanism, int cells, int reports, std::uint64_t seed) {
  SeededRandom random(seed);
  auto histogram = NumericHistogram::ForMechanism(mechanism, cells).value();
  for (int r = 0; r < reports; ++r) {
    REQUIRE(histogram.Add(mechanism.Perturb(DrawBetaThreeThree(random), random).value()));
  }
  return histogram;
}

}  // namespace deniable::testing

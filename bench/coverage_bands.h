// How often the numeric results' pointwise bands hold the answers' own
// values, per run: the coverage benchmark (bench/coverage.cc) and its
// fixed-seed subset in the tests (tests/cpp/core/kinds/numeric/numeric_results_coverage_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable::coverage {

using nlohmann::json;

// The share of the CDF's display points where the 95% band holds the answers' own CDF.
inline double CdfBandShare(const json& cdf, std::vector<double> answers) {
  std::sort(answers.begin(), answers.end());
  const auto& points = cdf["points"];
  int covered = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const double x = points[k].get<double>();
    const double truth = static_cast<double>(std::upper_bound(answers.begin(), answers.end(), x) - answers.begin()) /
                         static_cast<double>(answers.size());
    const bool inside = cdf["low"][k].get<double>() <= truth && truth <= cdf["high"][k].get<double>();
    covered += inside ? 1 : 0;
    if (!inside && std::getenv("COVERAGE_DEBUG_CDF")) {
      std::fprintf(stderr, "cdf miss at %.4g: truth %.4g estimate %.4g band [%.4g, %.4g]\n", x, truth,
                   cdf["value"][k].get<double>(), cdf["low"][k].get<double>(), cdf["high"][k].get<double>());
    }
  }
  return points.empty() ? NAN : static_cast<double>(covered) / static_cast<double>(points.size());
}

// The share of histogram bins whose 95% band holds the answers' own share in the bin.
inline double HistogramBandShare(const json& histogram, const std::vector<double>& answers) {
  const auto& edges = histogram["edges"];
  const std::size_t bins = edges.size() - 1;
  std::vector<double> truth(bins, 0.0);
  for (double a : answers) {
    std::size_t bin = 0;
    while (bin + 1 < bins && a >= edges[bin + 1].get<double>()) ++bin;
    truth[bin] += 1.0 / static_cast<double>(answers.size());
  }
  int covered = 0;
  for (std::size_t k = 0; k < bins; ++k) {
    covered += histogram["low"][k].get<double>() <= truth[k] + 1e-12 && truth[k] - 1e-12 <= histogram["high"][k].get<double>();
  }
  return bins == 0 ? NAN : static_cast<double>(covered) / static_cast<double>(bins);
}

// The share of density display points whose 95% band holds the answers' own
// density averaged over the window the results name (density.window: the
// half-width around each point, clipped to the range): the band's estimand.
inline double DensityBandShare(const json& density, std::vector<double> answers, NumericRange range) {
  std::sort(answers.begin(), answers.end());
  const double half_window = density["window"].get<double>();
  const auto at_most = [&](double x) {  // answers <= x; none below the range's low end
    return x < range.low ? 0.0 : static_cast<double>(std::upper_bound(answers.begin(), answers.end(), x) - answers.begin());
  };
  const auto& points = density["points"];
  int covered = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const double x = points[k].get<double>();
    const double a = std::max(range.low, x - half_window), b = std::min(range.high, x + half_window);
    // (a, b], or [a, b] at the range's low end (the CDF is 0 just below it).
    const double mass = (at_most(b) - (a <= range.low ? 0.0 : at_most(a))) / static_cast<double>(answers.size());
    const double truth = mass / (b - a);
    const bool inside = density["low"][k].get<double>() <= truth + 1e-12 && truth - 1e-12 <= density["high"][k].get<double>();
    covered += inside ? 1 : 0;
    if (!inside && std::getenv("COVERAGE_DEBUG_DENSITY")) {
      std::fprintf(stderr, "density miss at %.4g (window %.4g): truth %.4g estimate %.4g band [%.4g, %.4g]\n", x,
                   half_window, truth, density["value"][k].get<double>(), density["low"][k].get<double>(),
                   density["high"][k].get<double>());
    }
  }
  return points.empty() ? NAN : static_cast<double>(covered) / static_cast<double>(points.size());
}

}  // namespace deniable::coverage

#include "core/central/release_noise.h"

#include <algorithm>
#include <cmath>

namespace deniable {
namespace {

// log E[e^{tN}] of one discrete Laplace draw, 0 <= t < -ln a.
double LogMoment(double decay, double t) {
  return 2.0 * std::log1p(-decay) - std::log1p(-decay * std::exp(t)) - std::log1p(-decay * std::exp(-t));
}

// min over t of k log M(t) - t x: the log of the Chernoff bound on P(S >= x).
// The objective is convex in t, so a golden-section search finds it.
double LogChernoff(double decay, std::int64_t k, double x) {
  const double kn = static_cast<double>(k);
  auto objective = [&](double t) { return kn * LogMoment(decay, t) - t * x; };
  double low = 0.0, high = -std::log(decay) * (1.0 - 1e-9);
  const double golden = (std::sqrt(5.0) - 1.0) / 2.0;
  // 0.618^64 < 1e-13 of the bracket: t at that precision leaves the convex minimum exact to rounding.
  for (int step = 0; step < 64; ++step) {
    const double left = high - golden * (high - low), right = low + golden * (high - low);
    if (objective(left) < objective(right)) {
      high = right;
    } else {
      low = left;
    }
  }
  return std::min(0.0, objective((low + high) / 2.0));
}

}  // namespace

double PublishedNoiseDecay(const ReleaseRequest& request, std::int64_t sensitivity) {
  double epsilon = request.epsilon;
  if (request.method == "sreb_gca") epsilon = (1.0 - request.rho) * request.epsilon;
  if (request.method == "ahp") epsilon = request.epsilon - request.ratio * request.epsilon;
  return std::exp(-epsilon / static_cast<double>(sensitivity));
}

std::int64_t DiscreteLaplaceHalfWidth(double decay, double confidence) {
  // P(|N| > h) = 2 a^(h+1) / (1 + a): the smallest h with it <= 1 - confidence.
  const double tail = 1.0 - confidence;
  double h = std::ceil(std::log(tail * (1.0 + decay) / 2.0) / std::log(decay) - 1.0);
  h = std::max(0.0, h);
  auto tail_at = [decay](double width) { return 2.0 * std::pow(decay, width + 1.0) / (1.0 + decay); };
  while (h > 0.0 && tail_at(h - 1.0) <= tail) h -= 1.0;  // guard the rounding of the logarithms
  while (tail_at(h) > tail) h += 1.0;
  return static_cast<std::int64_t>(h);
}

double CountSamplingVariance(double value, std::int64_t respondents) {
  if (respondents <= 0) return 0.0;
  const double n = static_cast<double>(respondents);
  const double share = std::clamp(value / n, 0.0, 1.0);
  return n * share * (1.0 - share);
}

double WithSamplingHalfWidth(double noise_half_width, double sampling_variance) {
  constexpr double kZ = 1.959963984540054;  // the normal 97.5% quantile: 95% two-sided
  if (sampling_variance <= 0.0) return noise_half_width;
  const double noise = noise_half_width + 0.5;  // the continuity correction (release_noise.h)
  return std::sqrt(noise * noise + kZ * kZ * sampling_variance);
}

double NoiseSumHalfWidth(double decay, std::int64_t k, double confidence) {
  if (k <= 1) return static_cast<double>(DiscreteLaplaceHalfWidth(decay, confidence));
  // Two-sided: P(|S| >= x) <= 2 exp(LogChernoff); bisect for the x where that is 1 - confidence.
  const double target = std::log((1.0 - confidence) / 2.0);
  const double sd = std::sqrt(static_cast<double>(k) * 2.0 * decay) / (1.0 - decay);
  double low = 0.0, high = sd;
  while (LogChernoff(decay, k, high) > target) high *= 2.0;
  for (int step = 0; step < 64; ++step) {  // 2^-64 of the bracket: the bound to rounding; `high` stays conservative
    const double middle = (low + high) / 2.0;
    (LogChernoff(decay, k, middle) > target ? low : high) = middle;
  }
  return high;
}

}  // namespace deniable

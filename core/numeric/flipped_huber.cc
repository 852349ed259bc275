#include "core/numeric/flipped_huber.h"

#include <algorithm>
#include <cmath>

#include "core/numeric/gaussian_pdp.h"
#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kSqrtTwoPi = 2.5066282746310002;
constexpr double kMinHuberDelta = 1e-100;
// alpha/s is searched in [2^-60, 700]: 700 keeps e^{-alpha/s} inside PortableExp's domain.
constexpr double kMinAlphaRatio = 0x1p-60;
constexpr double kMaxAlphaRatio = 700.0;

}  // namespace

FlippedHuberNoise::FlippedHuberNoise(double scale, double alpha) : scale_(scale), alpha_(alpha) {
  const double ratio = alpha / scale;
  centre_half_ = -scale * PortableExpm1(-ratio);
  tail_factor_ = PortableExp(-0.5 * ratio) * kSqrtTwoPi * std::sqrt(alpha * scale);
  tail_mass_ = tail_factor_ * PortableNormalCdf(-std::sqrt(ratio));
  normaliser_ = 2.0 * (centre_half_ + tail_mass_);
}

double FlippedHuberNoise::Loss(double e) const {
  const double magnitude = std::fabs(e);
  if (magnitude <= alpha_) return magnitude / scale_;
  return (magnitude * magnitude + alpha_ * alpha_) / (2.0 * alpha_ * scale_);
}

namespace {

// P(e > t) with the given elementary functions (portable or std).
template <typename NormalCdf, typename Exp, typename Expm1>
double SurvivalWith(double t, double scale, double alpha, double tail_factor, double tail_mass, double normaliser,
                    NormalCdf normal_cdf, Exp exp, Expm1 expm1) {
  if (t < 0.0) return 1.0 - SurvivalWith(-t, scale, alpha, tail_factor, tail_mass, normaliser, normal_cdf, exp, expm1);
  if (t >= alpha) return tail_factor * normal_cdf(-t / std::sqrt(alpha * scale)) / normaliser;
  // Centre part over (t, alpha]: s (e^{-t/s} - e^{-alpha/s}), written with expm1 against cancellation.
  const double centre = -scale * exp(-t / scale) * expm1(-(alpha - t) / scale);
  return (tail_mass + centre) / normaliser;
}

}  // namespace

double FlippedHuberNoise::Survival(double t) const {
  return SurvivalWith(t, scale_, alpha_, tail_factor_, tail_mass_, normaliser_, PortableNormalCdf, PortableExp,
                      PortableExpm1);
}

double FlippedHuberNoise::FastSurvival(double t) const {
  return SurvivalWith(
      t, scale_, alpha_, tail_factor_, tail_mass_, normaliser_, FastNormalCdf, [](double x) { return std::exp(x); },
      [](double x) { return std::expm1(x); });
}

double FlippedHuberNoise::Mass(double z0, double z1) const {
  if (!(z0 < z1)) return 0.0;
  if (z0 >= 0.0) return FastSurvival(z0) - FastSurvival(z1);
  if (z1 <= 0.0) return FastSurvival(-z1) - FastSurvival(-z0);
  return 1.0 - FastSurvival(-z0) - FastSurvival(z1);
}

double FlippedHuberNoise::Variance() const {
  const double ratio = alpha_ / scale_;
  const double variance_scale = alpha_ * scale_;  // the tails' Gaussian variance
  // 2/Z [ int_0^alpha e^2 e^{-e/s} de + int_alpha^inf e^2 e^{-(e^2 + alpha^2)/(2 alpha s)} de ].
  const double centre =
      scale_ * scale_ * scale_ * (2.0 - std::exp(-ratio) * (ratio * ratio + 2.0 * ratio + 2.0));
  const double tail = std::exp(-0.5 * ratio) * variance_scale *
                      (alpha_ * std::exp(-0.5 * ratio) +
                       kSqrtTwoPi * std::sqrt(variance_scale) * FastNormalCdf(-std::sqrt(ratio)));
  return 2.0 * (centre + tail) / normaliser_;
}

double FlippedHuberNoise::Delta(double epsilon, double shift) const {
  // L(y) = g(y - shift) - g(y) is nonincreasing (g convex): find where it crosses epsilon.
  const auto loss_ratio = [&](double y) { return Loss(y - shift) - Loss(y); };
  double low = -(alpha_ + shift);
  for (int i = 0; i < 2000 && loss_ratio(low) <= epsilon; ++i) low *= 2.0;
  double high = 0.5 * shift;  // L = 0 there
  for (int i = 0; i < 400; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (loss_ratio(middle) > epsilon ? low : high) = middle;
  }
  // F(y*) - e^epsilon F(y* - shift), with F(y) = Survival(-y).
  const double delta = Survival(-high) - PortableExp(epsilon) * Survival(shift - high);
  return std::max(0.0, delta);
}

FlippedHuberMechanism::FlippedHuberMechanism(NumericRange range, double epsilon, double delta,
                                             FlippedHuberNoise noise, double achieved_delta)
    : NumericMechanism(range), epsilon_(epsilon), delta_(delta), noise_(noise), achieved_delta_(achieved_delta) {
  // The smallest t with 2 P(e > t) <= tail mass bounds the mass outside [a - t, b + t] for every x in [a, b].
  double low = 0.0, high = noise_.alpha() + noise_.scale();
  for (int i = 0; i < 2000 && 2.0 * noise_.Survival(high) > kFlippedHuberTailMass; ++i) high *= 2.0;
  for (int i = 0; i < 400; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (2.0 * noise_.Survival(middle) > kFlippedHuberTailMass ? low : high) = middle;
  }
  margin_ = high;
}

nlohmann::json FlippedHuberMechanism::ParamsToJson() const {
  return {{"name", name()}, {"epsilon", epsilon_}, {"delta", delta_}};
}

NumericRange FlippedHuberMechanism::output_range() const {
  return {input_range().low - margin_, input_range().high + margin_};
}

NumericRange FlippedHuberMechanism::possible_values() const {
  const double threshold = std::sqrt(noise_.alpha() / noise_.scale());
  const double bound = std::sqrt(noise_.alpha() * noise_.scale()) *
                       std::max(kGaussianSamplerBound, std::sqrt(threshold * threshold + 75.0));
  return {input_range().low - bound, input_range().high + bound};
}

double FlippedHuberMechanism::OutputProbability(double x, double y0, double y1) const {
  const auto [z0, z1] = CellAsNoiseOffsets(x, y0, y1, output_range(), 1.0);
  return noise_.Mass(z0, z1);
}

std::optional<double> FlippedHuberMechanism::UnbiasedValueVariance(double /*x*/) const {
  return noise_.Variance();
}

// |e| given |e| > alpha: sqrt(alpha s) times a standard normal conditioned beyond c = sqrt(alpha/s).
double FlippedHuberMechanism::SampleTailMagnitude(RandomSource& random) const {
  const double threshold = std::sqrt(noise_.alpha() / noise_.scale());
  const double deviation = std::sqrt(noise_.alpha() * noise_.scale());
  if (threshold < 1.0) {
    // Plain rejection: P(|z| > c) >= P(|z| > 1) ~ 0.32 per draw.
    for (;;) {
      const double z = std::fabs(SampleStandardNormal(random));
      if (z > threshold) return deviation * z;
    }
  }
  // Marsaglia's tail method: x = sqrt(c^2 - 2 ln u1), accepted with probability c/x.
  // u1 is a cell midpoint in (0, 1), so ln u1 >= -54 ln 2 and x <= sqrt(c^2 + 75).
  for (;;) {
    const double u1 = UniformUnit(random) + 0x1p-54;
    const double candidate = std::sqrt(threshold * threshold - 2.0 * PortableLog(u1));
    if (UniformUnit(random) * candidate < threshold) return deviation * candidate;
  }
}

std::vector<double> FlippedHuberMechanism::PerturbValid(double answer, RandomSource& random) const {
  const bool centre = UniformUnit(random) < noise_.CentreProbability();
  const bool negative = UniformUnit(random) < 0.5;
  double magnitude;
  if (centre) {
    // Inverse CDF of e^{-m/s} on [0, alpha]: m = -s ln(1 - w (1 - e^{-alpha/s})), w a cell midpoint in (0, 1).
    const double w = UniformUnit(random) + 0x1p-54;
    const double mass = -PortableExpm1(-noise_.alpha() / noise_.scale());
    magnitude = std::min(noise_.alpha(), -noise_.scale() * PortableLog(1.0 - w * mass));
  } else {
    magnitude = SampleTailMagnitude(random);
  }
  return {negative ? answer - magnitude : answer + magnitude};
}

Result<std::unique_ptr<const FlippedHuberMechanism>> CreateFlippedHuber(NumericRange range, double epsilon,
                                                                        double delta) {
  DENIABLE_TRY(ValidateNumericRange(range));
  DENIABLE_TRY(ValidateEpsilon(epsilon));
  if (!std::isfinite(delta) || delta < kMinHuberDelta || delta >= 1.0) {
    return MakeError("delta must be finite and in [1e-100, 1), but is " + FormatNumber(delta));
  }
  const double sensitivity = range.width();
  const double scale = sensitivity / epsilon;
  if (!std::isfinite(scale)) return MakeError("epsilon is too small for the range: the noise scale overflows");
  const auto delta_at = [&](double log_ratio) {
    return FlippedHuberNoise(scale, scale * PortableExp(log_ratio)).Delta(epsilon, sensitivity);
  };
  double low = PortableLog(kMinAlphaRatio), high = PortableLog(kMaxAlphaRatio);
  if (delta_at(high) > delta) {
    return MakeError("delta is too small for the flipped-Huber calibration at epsilon " + FormatNumber(epsilon) +
                     ": even alpha = 700 s gives delta " + FormatNumber(delta_at(high)));
  }
  if (delta_at(low) <= delta) {
    high = low;
  } else {
    for (int i = 0; i < 200; ++i) {  // delta(alpha) decreases in alpha: keep delta_at(high) <= delta
      const double middle = 0.5 * (low + high);
      if (middle == low || middle == high) break;
      (delta_at(middle) > delta ? low : high) = middle;
    }
  }
  const FlippedHuberNoise noise(scale, scale * PortableExp(high));
  std::unique_ptr<const FlippedHuberMechanism> mechanism(
      new FlippedHuberMechanism(range, epsilon, delta, noise, noise.Delta(epsilon, sensitivity)));
  DENIABLE_TRY(RequireFiniteOutputRange(*mechanism));
  return mechanism;
}

}  // namespace deniable

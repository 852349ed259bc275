#include "core/numeric/gaussian_pdp.h"

#include <cmath>

#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kInverseSqrtTwoPi = 0.3989422804014327;  // 1/sqrt(2 pi)
// Beyond |z| = 37, Phi(-|z|) < 6e-300 and e^{-z^2/2} leaves PortableExp's domain.
constexpr double kNormalCdfCutoff = 37.0;
constexpr double kMinGaussianDelta = 1e-300;

double StandardNormalDensity(double z) { return kInverseSqrtTwoPi * PortableExp(-0.5 * z * z); }

// Phi(-t) for t > 3: phi(t) / (t + 1/(t + 2/(t + 3/(t + ...)))), evaluated
// from the 400th level back (at t = 3 the truncation error is below 1e-15 relative).
double NormalLowerTail(double t) {
  double denominator = t;
  for (int k = 400; k >= 1; --k) denominator = t + k / denominator;
  return StandardNormalDensity(t) / denominator;
}

// Phi(z) - 1/2 for |z| <= 3: phi(z) (z + z^3/3 + z^5/(3*5) + ...), all terms of one sign.
double NormalCentralPart(double z) {
  const double square = z * z;
  double term = z, sum = z;
  for (int n = 1; n < 200 && std::fabs(term) > 1e-17 * std::fabs(sum); ++n) {
    term *= square / (2 * n + 1);
    sum += term;
  }
  return StandardNormalDensity(z) * sum;
}

}  // namespace

double PortableNormalCdf(double z) {
  if (std::isnan(z)) return z;
  if (z <= -kNormalCdfCutoff) return 0.0;
  if (z >= kNormalCdfCutoff) return 1.0;
  if (z < -3.0) return NormalLowerTail(-z);
  if (z > 3.0) return 1.0 - NormalLowerTail(z);
  return 0.5 + NormalCentralPart(z);
}

double FastNormalCdf(double z) { return 0.5 * std::erfc(-z * 0.7071067811865476); }

double PortableNormalQuantile(double p) {
  double low = -kNormalCdfCutoff, high = kNormalCdfCutoff;
  for (int i = 0; i < 2000; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (PortableNormalCdf(middle) < p ? low : high) = middle;
  }
  return high;
}

GaussianPdpMechanism::GaussianPdpMechanism(NumericRange range, double epsilon, double delta)
    : NumericMechanism(range), epsilon_(epsilon), delta_(delta) {
  const double z = PortableNormalQuantile(0.5 * delta);
  sigma_ = range.width() * (std::sqrt(z * z + 2.0 * epsilon) - z) / (2.0 * epsilon);
  // For x in [a, b] the mass outside [a - t, b + t] is at most 2 Phi(-t/sigma).
  margin_ = -sigma_ * PortableNormalQuantile(0.5 * kGaussianTailMass);
}

nlohmann::json GaussianPdpMechanism::ParamsToJson() const {
  return {{"name", name()}, {"epsilon", epsilon_}, {"delta", delta_}};
}

NumericRange GaussianPdpMechanism::output_range() const {
  return {input_range().low - margin_, input_range().high + margin_};
}

NumericRange GaussianPdpMechanism::possible_values() const {
  const double bound = kGaussianSamplerBound * sigma_;
  return {input_range().low - bound, input_range().high + bound};
}

double GaussianPdpMechanism::OutputProbability(double x, double y0, double y1) const {
  const auto [z0, z1] = CellAsNoiseOffsets(x, y0, y1, output_range(), sigma_);
  if (!(z0 < z1)) return 0.0;
  // Differences of the smaller tails, so cells far out keep their relative accuracy.
  if (z0 >= 0.0) return FastNormalCdf(-z0) - FastNormalCdf(-z1);
  if (z1 <= 0.0) return FastNormalCdf(z1) - FastNormalCdf(z0);
  return 1.0 - FastNormalCdf(z0) - FastNormalCdf(-z1);
}

std::optional<double> GaussianPdpMechanism::UnbiasedValueVariance(double /*x*/) const { return sigma_ * sigma_; }

double SampleStandardNormal(RandomSource& random) {
  // Marsaglia's polar method: (u, v) uniform on the disc, s = u^2 + v^2 in
  // (0, 1); u sqrt(-2 ln s / s) is standard normal. u, v are multiples of
  // 2^-52, so s >= 2^-104 is normal and PortableLog applies.
  for (;;) {
    const double u = 2.0 * UniformUnit(random) - 1.0;
    const double v = 2.0 * UniformUnit(random) - 1.0;
    const double s = u * u + v * v;
    if (s >= 1.0 || s == 0.0) continue;
    return u * std::sqrt(-2.0 * PortableLog(s) / s);
  }
}

std::vector<double> GaussianPdpMechanism::PerturbValid(double answer, RandomSource& random) const {
  return {answer + sigma_ * SampleStandardNormal(random)};
}

Result<std::unique_ptr<const GaussianPdpMechanism>> CreateGaussianPdp(NumericRange range, double epsilon,
                                                                      double delta) {
  DENIABLE_TRY(ValidateNumericRange(range));
  DENIABLE_TRY(ValidateEpsilon(epsilon));
  if (!std::isfinite(delta) || delta < kMinGaussianDelta || delta >= 1.0) {
    return MakeError("delta must be finite and in [1e-300, 1), but is " + FormatNumber(delta));
  }
  std::unique_ptr<const GaussianPdpMechanism> mechanism(new GaussianPdpMechanism(range, epsilon, delta));
  DENIABLE_TRY(RequireFiniteOutputRange(*mechanism));
  return mechanism;
}

}  // namespace deniable

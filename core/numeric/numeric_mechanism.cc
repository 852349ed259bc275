#include "core/numeric/numeric_mechanism.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/common/validation.h"

namespace deniable {

Result<std::vector<double>> NumericMechanism::Perturb(double answer, RandomSource& random) const {
  if (!std::isfinite(answer) || answer < input_.low || answer > input_.high) {
    return MakeError("answer must be a number in [" + FormatNumber(input_.low) + ", " + FormatNumber(input_.high) +
                     "], but is " + FormatNumber(answer));
  }
  return PerturbValid(answer, random);
}

std::optional<NumericMechanism::ReportMoments> NumericMechanism::report_moments() const {
  if (values_per_report() != 1 || !UnbiasedValueVariance(input_.low)) return std::nullopt;
  return ReportMoments{[](double x) { return x; },
                       [this](double x) { return x * x + UnbiasedValueVariance(x).value_or(0.0); }};
}

std::optional<double> NumericMechanism::MeanEstimateVariance(double x) const {
  if (auto variance = UnbiasedValueVariance(x)) return variance;
  const auto moments = report_moments();
  if (!moments) return std::nullopt;
  // The mean estimate (mean(y) - alpha)/beta of a linear E[y | x] = alpha + beta x.
  const double slope = (moments->mean(input_.high) - moments->mean(input_.low)) / input_.width();
  const double mean = moments->mean(x);
  return (moments->mean_square(x) - mean * mean) / (slope * slope);
}

NoiseOffsets CellAsNoiseOffsets(double x, double y0, double y1, NumericRange output, double scale) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  return {y0 <= output.low ? -kInfinity : (y0 - x) / scale, y1 >= output.high ? kInfinity : (y1 - x) / scale};
}

Status ValidateNumericRange(NumericRange range) {
  if (!std::isfinite(range.low) || !std::isfinite(range.high) || !std::isfinite(range.width()) ||
      !(range.low < range.high)) {
    return MakeError("range must be finite with low < high, but is [" + FormatNumber(range.low) + ", " +
                     FormatNumber(range.high) + "]");
  }
  const double magnitude = std::max(std::abs(range.low), std::abs(range.high));
  if (magnitude > kMaxRangeMagnitude) {
    return MakeError("range ends must lie in [-" + FormatNumber(kMaxRangeMagnitude) + ", " +
                     FormatNumber(kMaxRangeMagnitude) + "], but the range is [" + FormatNumber(range.low) + ", " +
                     FormatNumber(range.high) + "]");
  }
  // Relative to the ends too: [1e9, 1e9 + 1e-3] has few representable values.
  const double min_width = kMinRelativeRangeWidth * std::max(1.0, magnitude);
  if (range.width() < min_width) {
    return MakeError("range [" + FormatNumber(range.low) + ", " + FormatNumber(range.high) +
                     "] is too narrow: its width must be at least " + FormatNumber(kMinRelativeRangeWidth) +
                     " * max(1, |low|, |high|) = " + FormatNumber(min_width) + ", but is " +
                     FormatNumber(range.width()));
  }
  return OkStatus();
}

Status RequireFiniteOutputRange(const NumericMechanism& mechanism) {
  const NumericRange output = mechanism.output_range();
  if (!std::isfinite(output.low) || !std::isfinite(output.high) || !std::isfinite(output.width())) {
    const NumericRange input = mechanism.input_range();
    return MakeError("epsilon is too small for the range [" + FormatNumber(input.low) + ", " +
                     FormatNumber(input.high) + "]: reports would overflow");
  }
  return OkStatus();
}

}  // namespace deniable

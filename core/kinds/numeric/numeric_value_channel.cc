#include "core/kinds/numeric/numeric_value_channel.h"

#include <algorithm>
#include <cmath>

#include "core/kinds/numeric/numeric_question_kind.h"

namespace deniable {

std::unique_ptr<NumericValueChannel> NumericValueChannel::Create(const NumericMechanism& mechanism) {
  if (mechanism.values_per_report() != 1) return nullptr;
  const auto moments = mechanism.report_moments();
  if (!moments) return nullptr;
  const NumericRange range = mechanism.input_range();
  const double low = moments->mean(range.low), high = moments->mean(range.high);
  const double beta = (high - low) / range.width();
  const double alpha = low - beta * range.low;
  // report_moments promises a linear mean; check it at the middle, so a mechanism that breaks the promise
  // gets no channel rather than a biased one.
  const double middle = 0.5 * (range.low + range.high);
  const double scale = std::max({1.0, std::abs(low), std::abs(high)});
  if (!(std::abs(beta) > 0.0) || std::abs(moments->mean(middle) - (alpha + beta * middle)) > 1e-9 * scale) {
    return nullptr;
  }
  return std::unique_ptr<NumericValueChannel>(new NumericValueChannel(alpha, beta));
}

double NumericValueChannel::UnbiasedValue(const KindResponse& response) const {
  return (static_cast<const NumericResponse&>(response).values.front() - alpha_) / beta_;
}

}  // namespace deniable

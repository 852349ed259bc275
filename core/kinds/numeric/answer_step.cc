#include "core/kinds/numeric/answer_step.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"

namespace deniable {
namespace {

// Grid positions are computed from the origin, not accumulated, so decimal
// steps do not drift; a position within this share of a step of a whole
// number is that number (0.3 / 0.1 = 2.9999999999999996).
constexpr double kTolerance = 1e-6;

}  // namespace

Result<std::optional<AnswerStep>> AnswerStep::Parse(const nlohmann::json& question, NumericRange range,
                                                    const std::string& where) {
  if (!question.contains("step")) return std::optional<AnswerStep>();
  const std::string path = where + ".step";
  const auto& value = question.at("step");
  if (!value.is_number() || !std::isfinite(value.get<double>()) || !(value.get<double>() > 0.0)) {
    return MakeError(path + ": must be a number > 0 (answers are low + k * step), but is " + value.dump());
  }
  const double step = value.get<double>();
  const double steps = range.width() / step;
  if (!(steps <= static_cast<double>(kMaxAnswerSteps) + 0.5) || steps < 1.0 - kTolerance) {
    return MakeError(path + ": " + FormatNumber(step) + " must divide the range's width " + FormatNumber(range.width()) +
                     " into 1 to " + std::to_string(kMaxAnswerSteps) + " steps, but gives " + FormatNumber(steps));
  }
  const double whole = std::round(steps);
  if (std::fabs(steps - whole) > kTolerance * std::max(1.0, whole)) {
    return MakeError(path + ": " + FormatNumber(step) + " does not divide the range's width " +
                     FormatNumber(range.width()) + " into whole steps (it gives " + FormatNumber(steps) + ")");
  }
  return std::optional<AnswerStep>(AnswerStep(range.low, step, static_cast<long long>(whole)));
}

double AnswerStep::At(double k) const {
  return origin_ + std::clamp(k, 0.0, static_cast<double>(steps_)) * step_;
}

double AnswerStep::Floor(double x) const { return At(std::floor((x - origin_) / step_ + kTolerance)); }

double AnswerStep::Ceil(double x) const { return At(std::ceil((x - origin_) / step_ - kTolerance)); }

double AnswerStep::Nearest(double x) const { return At(std::round((x - origin_) / step_)); }

bool AnswerStep::OnGrid(double x) const {
  const double k = (x - origin_) / step_;
  return std::fabs(k - std::round(k)) <= kTolerance;
}

}  // namespace deniable

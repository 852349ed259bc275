// The optional "step" of a numeric question: answers are low + k * step
// (whole years, ratings in tenths). A quantile of such answers is itself a
// grid value (an atom carrying, say, 20% of the answers), while the fitted
// distribution is continuous and puts it inside the atom's cell (5.3 for a
// true 5, with an interval starting at 5.01): rounding a quantile's interval
// outwards to the grid makes it cover the atom, and its value to the nearest
// grid point keeps the value inside.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

inline constexpr long long kMaxAnswerSteps = 1000000;

class AnswerStep {
 public:
  // Absent: nullopt. Present: a finite number > 0 that divides the range's
  // width into at most kMaxAnswerSteps whole steps; `where` names the question.
  static Result<std::optional<AnswerStep>> Parse(const nlohmann::json& question, NumericRange range,
                                                 const std::string& where);

  double step() const { return step_; }
  // The grid points at or below / at or above / nearest to x (x in the range).
  double Floor(double x) const;
  double Ceil(double x) const;
  double Nearest(double x) const;
  // Within a millionth of a step of a grid point (decimal inputs such as 0.3),
  // or within the doubles' spacing where the numbers are large.
  bool OnGrid(double x) const;

 private:
  AnswerStep(double origin, double high, double step, long long steps)
      : origin_(origin), high_(high), step_(step), steps_(steps) {}
  double At(double k) const;

  double origin_;
  double high_;
  double step_;
  long long steps_;
};

}  // namespace deniable

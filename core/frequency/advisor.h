// The advisor: for k options, epsilon and n respondents, the expected standard
// error of a frequency estimate under each mechanism (PlanningFrequencyVariance:
// an option of small frequency), and a recommendation. The lowest variance
// wins; between GRR and OUE this is exactly the rule "GRR when k < 3e^eps + 2".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

struct MechanismAdvice {
  std::string mechanism;           // wire name
  std::optional<double> epsilon;   // nullopt: no finite epsilon (pure negative survey)
  double std_error;                // expected SE of one frequency (planning variance)
  double ci_half_width;            // 1.96 * std_error
  std::int64_t n_for_5_points;     // respondents needed for a +-0.05 interval
};

struct Advice {
  int options;
  double epsilon;
  std::int64_t respondents;
  std::vector<MechanismAdvice> mechanisms;
  std::string recommended;
  std::string reason;
};

Result<Advice> Advise(int options, double epsilon, std::int64_t respondents);

// The advice as JSON (GET /api/advice and the WebAssembly advise()):
// {options, epsilon, respondents, mechanisms: [{mechanism, epsilon (null: no
// finite epsilon), std_error, ci_half_width, n_for_5_points}], recommended, reason}.
nlohmann::json AdviceToJson(const Advice& advice);

}  // namespace deniable

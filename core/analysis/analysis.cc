#include "core/analysis/analysis.h"

#include "core/analysis/cross_analysis.h"
#include "core/analysis/grouped_analysis.h"
#include "core/analysis/rr_regression.h"

namespace deniable {

// Each kind of analysis registers here (one line each).
Result<std::unique_ptr<Analysis>> ParseAnalysis(const Survey& survey, const nlohmann::json& spec) {
  if (!spec.is_object()) return MakeError("analysis: must be an object");
  if (spec.contains("by")) return ParseGroupedAnalysis(survey, spec);
  if (spec.contains("cross")) return ParseCrossAnalysis(survey, spec);
  if (spec.contains("regress")) return ParseRrRegression(survey, spec);
  return MakeError("analysis: expected one of \"by\", \"cross\" or \"regress\"");
}

}  // namespace deniable

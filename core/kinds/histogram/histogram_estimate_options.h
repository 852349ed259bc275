// A histogram question's estimation options: bins the analyst asks for after
// collection, beyond the declared consumers' (digest 6.9: CHP alone cannot).
//   edges      "e0,e1,...,ek" (or a JSON array): bins [e_i, e_i+1), strictly
//              increasing inside the range, the last closed at b;
//   width      w > 0: bins [a, a + w), [a + w, a + 2w), ... up to b.
//   interval   "population" (default) or "respondents": what every interval of
//              the results is for (core/survey/interval_target.h).
// edges win when both are given (a question's own "id.edges" over a
// survey-wide width). At most kMaxCustomBins bins. Not "bin_width": numeric
// questions read that (their histogram's bins), and a survey-wide value for
// them must not turn into custom bins here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/interval_target.h"

namespace deniable {

class HistogramQuestionKind;

inline constexpr int kMaxCustomBins = 4096;

struct HistogramEstimateOptions {
  std::optional<std::vector<double>> edges;
  std::optional<double> width;
  IntervalTarget interval = IntervalTarget::kPopulation;
};

std::vector<std::string> PublicHistogramEstimateOptionNames();
// Reads the options' form (unknown names are other kinds'); values may be JSON numbers or text.
Result<HistogramEstimateOptions> ParseHistogramEstimateOptions(const nlohmann::json& options);
// Checks the options against the question's range.
Status ValidateHistogramEstimateOptions(const HistogramQuestionKind& kind, const HistogramEstimateOptions& options);
Result<nlohmann::json> CanonicalHistogramEstimateOptions(const nlohmann::json& options);
// The custom bins' edges the options ask for (empty: none).
std::vector<double> CustomEdges(const HistogramQuestionKind& kind, const HistogramEstimateOptions& options);

}  // namespace deniable

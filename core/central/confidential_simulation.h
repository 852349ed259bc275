// `deniable simulate` for a question answered in confidence: the simulated
// respondents' answers are counted exactly, as the server counts real ones,
// and the releases an admin could make are made on those counts, so that a
// researcher compares the methods on their own data before collecting.
//
// Truth entry (one of):
//   {"frequencies": [w per bin]}   answers drawn from these weights;
//   {"values": [answer, ...]}      a table's column, one answer per row (the
//                                  CLI's CSV truth; an option index for a
//                                  categorical question, a number in the range
//                                  for a histogram), shared with the other
//                                  questions reading the same rows;
// and optionally "releases": [{"method", "epsilon", "rho" | "ratio", "eta"},
// ...] (release_request.h), each an ALTERNATIVE made on the same counts at its
// own epsilon (at most the question's budget): the comparison, not a sequence
// that spends the budget. Default: SReB_GCA, DP_BASE and AHP, each at the
// whole budget. The noise comes from the simulation's seed.
//
// Compare adds "releases" (each as the results publish it, release_document.h)
// and, per release, its error against the simulated respondents' exact counts
// (what a release estimates): MRE over bins (|H - H~| / max(H, 1)), the same
// after the free consistent post-processing (Norm-Sub), the mean absolute
// error per bin, and per data consumer's view the mean absolute error of its
// bins with the coverage of the intervals it publishes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/release_document.h"
#include "core/common/result.h"
#include "core/central/answer_bins.h"
#include "core/survey/question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseConfidentialTruth(const AnswerBins& bins, double budget,
                                                             std::int64_t sensitivity, const nlohmann::json& entry,
                                                             const std::string& where);

// {"csv": FILE, "column": header or 0-based index} from the file's table
// (header first; cells are option labels or 0-based option indices) for
// questions without a numeric range (the CLI reads those columns itself):
// returns the entry with "values" instead of "csv" and "column".
Result<nlohmann::json> ConfidentialTruthFromTable(const AnswerBins& bins,
                                                  const std::vector<std::vector<std::string>>& table,
                                                  const nlohmann::json& entry, const std::string& where);

// The error table `deniable simulate` prints for a compared result.
std::string ConfidentialSimulationText(const nlohmann::json& result);

}  // namespace deniable

// The reports' export columns of a categorical mechanism's report
// (report_columns.h), shared by the kinds whose reports are one (categorical
// questions, a histogram's bins):
//   grr: one column, the reported option's index (value labels: the options);
//   oue, sue, negative: one 0/1 column per option, ".bit_<i>", as reported.
// The channel gives p and q (P(option i supported | answer i) and | answer
// j != i), GRR's k x k channel matrix, and, per option, the forced-response
// design that the binary item "the report supports option i" follows:
// rr::rrreg(design = "forced-known") with p = p - q, p1 = q, p0 = 1 - p (and,
// for a two-option GRR, the mirrored design with p = e^eps / (e^eps + 1)).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/frequency/categorical_mechanism.h"
#include "core/survey/report_columns.h"

namespace deniable {

// `labels`: one per option, in the mechanism's order. `prefix` goes before
// each suffix ("" for a question's own columns).
std::vector<ReportColumn> SupportColumns(const CategoricalMechanism& mechanism, const std::vector<std::string>& labels,
                                         const std::string& prefix = "");
// The values of a wire form the mechanism's Decode accepts (nulls if it does not).
std::vector<nlohmann::json> SupportColumnValues(const CategoricalMechanism& mechanism, const nlohmann::json& wire);
nlohmann::json SupportChannel(const CategoricalMechanism& mechanism, const std::vector<std::string>& labels);

}  // namespace deniable

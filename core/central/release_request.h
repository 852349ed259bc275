// What an administrator asks for when releasing a question answered in
// confidence: {"method": "sreb_gca" | "dp_base" | "ahp", "epsilon": e, and the
// method's parameters ("rho" for sreb_gca, default 0.5 — the best of 0.1 / 0.3
// / 0.5 in most cells of docs/publication-results.md; "ratio" and "eta" for
// ahp, DPBench's 0.85 and 0.35)}, read strictly; and running it on the
// question's exact counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/histogram_release.h"
#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

struct ReleaseRequest {
  std::string method = "sreb_gca";
  double epsilon = 1.0;
  double rho = 0.5;     // sreb_gca
  double ratio = 0.85;  // ahp
  double eta = 0.35;    // ahp
  nlohmann::json ToJson() const;  // the method and its parameters, canonical
};

// Errors name the field: "epsilon: epsilon must be finite and in [0.01, 30], but is 0".
Result<ReleaseRequest> ParseReleaseRequest(const nlohmann::json& object);

// The release of `counts` (exact, non-negative) as requested; the noise comes
// from `random` (the OS CSPRNG in production), drawn once. `sensitivity`: how
// far one record moves the counts in L1 (1: adding or removing a record; 2:
// changing one record's bin, what questions answered in confidence protect).
Result<HistogramRelease> RunRelease(const ReleaseRequest& request, const std::vector<std::int64_t>& counts,
                                    std::int64_t sensitivity, RandomSource& random);

}  // namespace deniable

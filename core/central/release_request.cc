#include "core/central/release_request.h"

#include "core/central/ahp_release.h"
#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

// A share in [low, high] (the default when absent).
Result<double> ReadShare(const nlohmann::json& object, const char* field, double fallback, double low, double high,
                         const std::string& what) {
  if (!object.contains(field)) return fallback;
  auto value = ReadFiniteNumber(object, field, "");
  if (!value) return value;
  if (*value < low || *value > high) {
    return MakeError(std::string(field) + ": must be " + what + ", but is " + FormatNumber(*value));
  }
  return value;
}

// rho and ratio split a release's epsilon between two noise draws; each draw
// needs a part whose exact discrete noise can be drawn (a part of 1e-300 of
// the budget cannot: it was a 500 before this bound).
constexpr double kSmallestSplit = 0.001;

}  // namespace

nlohmann::json ReleaseRequest::ToJson() const {
  nlohmann::json object = {{"method", method}, {"epsilon", epsilon}};
  if (method == "sreb_gca") object["rho"] = rho;
  if (method == "ahp") object["ratio"] = ratio, object["eta"] = eta;
  return object;
}

Result<ReleaseRequest> ParseReleaseRequest(const nlohmann::json& object) {
  DENIABLE_TRY(RequireObject(object, ""));
  DENIABLE_ASSIGN_OR_RETURN(auto method, ReadString(object, "method", 16, true, ""));
  ReleaseRequest request;
  request.method = method;
  if (method == "sreb_gca") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon", "rho"}, ""));
  } else if (method == "ahp") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon", "ratio", "eta"}, ""));
  } else if (method == "dp_base") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon"}, ""));
  } else {
    return MakeError("method: must be \"sreb_gca\", \"dp_base\" or \"ahp\", but is \"" + method + "\"");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, ReadFiniteNumber(object, "epsilon", ""));
  if (auto valid = ValidateEpsilon(epsilon); !valid) return MakeError("epsilon: " + valid.error());
  request.epsilon = epsilon;
  const std::string split = "in [0.001, 0.999] (it splits epsilon between two noise draws, each needing at least 0.1% of it)";
  DENIABLE_ASSIGN_OR_RETURN(auto rho, ReadShare(object, "rho", 0.5, kSmallestSplit, 1.0 - kSmallestSplit, split));
  request.rho = rho;
  DENIABLE_ASSIGN_OR_RETURN(auto ratio, ReadShare(object, "ratio", 0.85, kSmallestSplit, 1.0 - kSmallestSplit, split));
  request.ratio = ratio;
  auto eta = ReadShare(object, "eta", 0.35, 0.0, 1.0, "in [0, 1)");
  if (eta && *eta >= 1.0) return MakeError("eta: must be in [0, 1), but is 1");
  if (!eta) return MakeError(eta.error());
  request.eta = *eta;
  return request;
}

Result<HistogramRelease> RunRelease(const ReleaseRequest& request, const std::vector<std::int64_t>& counts,
                                    std::int64_t sensitivity, RandomSource& random) {
  if (request.method == "sreb_gca") {
    return ReleaseSrebGca(counts, {request.epsilon, request.rho, 1.0, sensitivity}, random);
  }
  if (request.method == "ahp") {
    return ReleaseAhp(counts, {request.epsilon, request.ratio, request.eta, sensitivity}, random);
  }
  return ReleaseDpBase(counts, request.epsilon, sensitivity, random);
}

}  // namespace deniable

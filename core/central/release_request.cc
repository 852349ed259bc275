#include "core/central/release_request.h"

#include "core/central/ahp_release.h"
#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

Result<double> ReadProbabilityLike(const nlohmann::json& object, const char* field, double fallback, bool open_low,
                                   const std::string& what) {
  if (!object.contains(field)) return fallback;
  auto value = ReadFiniteNumber(object, field, "");
  if (!value) return value;
  if ((open_low ? *value <= 0.0 : *value < 0.0) || *value >= 1.0) {
    return MakeError(std::string(field) + ": must be " + what + ", but is " + FormatNumber(*value));
  }
  return value;
}

}  // namespace

nlohmann::json ReleaseRequest::ToJson() const {
  nlohmann::json object = {{"method", method}, {"epsilon", epsilon}};
  if (method == "sreb_gca") object["rho"] = rho;
  if (method == "ahp") object["ratio"] = ratio, object["eta"] = eta;
  return object;
}

Result<ReleaseRequest> ParseReleaseRequest(const nlohmann::json& object) {
  DENIABLE_TRY(RequireObject(object, ""));
  auto method = ReadString(object, "method", 16, true, "");
  if (!method) return MakeError(method.error());
  ReleaseRequest request;
  request.method = *method;
  if (*method == "sreb_gca") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon", "rho"}, ""));
  } else if (*method == "ahp") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon", "ratio", "eta"}, ""));
  } else if (*method == "dp_base") {
    DENIABLE_TRY(RejectUnknownFields(object, {"method", "epsilon"}, ""));
  } else {
    return MakeError("method: must be \"sreb_gca\", \"dp_base\" or \"ahp\", but is \"" + *method + "\"");
  }
  auto epsilon = ReadFiniteNumber(object, "epsilon", "");
  if (!epsilon) return MakeError(epsilon.error());
  if (auto valid = ValidateEpsilon(*epsilon); !valid) return MakeError("epsilon: " + valid.error());
  request.epsilon = *epsilon;
  auto rho = ReadProbabilityLike(object, "rho", 0.5, true, "in (0, 1)");
  if (!rho) return MakeError(rho.error());
  request.rho = *rho;
  auto ratio = ReadProbabilityLike(object, "ratio", 0.85, true, "in (0, 1)");
  if (!ratio) return MakeError(ratio.error());
  request.ratio = *ratio;
  auto eta = ReadProbabilityLike(object, "eta", 0.35, false, "in [0, 1)");
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

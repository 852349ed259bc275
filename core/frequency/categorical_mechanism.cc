#include "core/frequency/categorical_mechanism.h"

#include "core/frequency/grr.h"
#include "core/frequency/negative_survey.h"
#include "core/frequency/unary_encoding.h"
#include "core/common/validation.h"

namespace deniable {

std::string CategoricalKindName(CategoricalKind kind) {
  switch (kind) {
    case CategoricalKind::kGrr: return "grr";
    case CategoricalKind::kOue: return "oue";
    case CategoricalKind::kSue: return "sue";
    case CategoricalKind::kNegativeSurvey: return "negative";
  }
  return "unknown";
}

Result<CategoricalKind> ParseCategoricalKind(const std::string& name) {
  for (auto kind : {CategoricalKind::kGrr, CategoricalKind::kOue, CategoricalKind::kSue,
                    CategoricalKind::kNegativeSurvey}) {
    if (CategoricalKindName(kind) == name) return kind;
  }
  return MakeError("unknown mechanism \"" + name + "\" (expected one of grr, oue, sue, negative)");
}

Result<Support> CategoricalMechanism::Perturb(int answer, RandomSource& random) const {
  if (auto status = ValidateIntInRange(answer, 0, options() - 1, "answer"); !status) {
    return MakeError(status.error());
  }
  return PerturbValid(answer, random);
}

nlohmann::json SupportToIndices(const Support& support) {
  auto indices = nlohmann::json::array();
  for (std::size_t i = 0; i < support.size(); ++i) {
    if (support[i]) indices.push_back(static_cast<int>(i));
  }
  return indices;
}

Support IndicesToSupport(const std::vector<int>& indices, int options) {
  Support support(static_cast<std::size_t>(options), 0);
  for (int index : indices) support[static_cast<std::size_t>(index)] = 1;
  return support;
}

namespace {

constexpr int kMaxOptions = 4096;

Status ValidateCommon(const CategoricalParams& params) {
  if (auto s = ValidateIntInRange(params.options, 2, kMaxOptions, "number of options"); !s) return s;
  if (params.kind != CategoricalKind::kNegativeSurvey) {
    if (!params.epsilon) return MakeError("epsilon is required for " + CategoricalKindName(params.kind));
    if (params.reported_options != 1) {
      return MakeError("reported_options applies only to the negative survey");
    }
  }
  if (params.epsilon) return ValidateEpsilon(*params.epsilon);
  return OkStatus();
}

}  // namespace

Result<std::unique_ptr<const CategoricalMechanism>> CreateCategoricalMechanism(const CategoricalParams& params) {
  if (auto status = ValidateCommon(params); !status) return MakeError(status.error());
  switch (params.kind) {
    case CategoricalKind::kGrr:
      return std::unique_ptr<const CategoricalMechanism>(new GrrMechanism(params));
    case CategoricalKind::kOue:
    case CategoricalKind::kSue:
      return std::unique_ptr<const CategoricalMechanism>(new UnaryEncodingMechanism(params));
    case CategoricalKind::kNegativeSurvey:
      return CreateNegativeSurvey(params);
  }
  return MakeError("unknown mechanism");
}

}  // namespace deniable

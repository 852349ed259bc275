#include "core/analysis/regression_variables.h"

#include <cmath>

#include "core/frequency/frequency_estimator.h"

namespace deniable {

Result<RegressionVariable> ParseOpenCovariate(const Survey& survey, const nlohmann::json& field,
                                              const std::string& where, RegressionCovariate& described) {
  if (!field.is_string()) return MakeError(where + ": must be a question id");
  const std::string id = field.get<std::string>();
  const auto index = survey.QuestionIndex(id);
  if (!index) return MakeError(where + ": no question " + QuotedId(id) + " in this survey");
  const QuestionKind& kind = *survey.questions[*index].kind;
  if (kind.trust() != Trust::kOpen) {
    return MakeError(where + ": question " + QuotedId(id) + " is not asked openly (covariates must be open questions)");
  }
  described.id = id;
  if (const CategoryChannel* channel = kind.category_channel()) {
    described.levels = channel->category_labels();
    return RegressionVariable{*index, channel, nullptr};
  }
  if (const ValueChannel* channel = kind.value_channel()) return RegressionVariable{*index, nullptr, channel};
  return MakeError(where + ": question " + QuotedId(id) + " is neither categorical nor numeric");
}

const KindResponse* ResponseAt(const Report& report, std::size_t index) {
  return index < report.responses.size() ? report.responses[index].get() : nullptr;
}

std::optional<double> ReadCovariate(const Report& report, const RegressionVariable& covariate) {
  const KindResponse* response = ResponseAt(report, covariate.index);
  if (response == nullptr) return std::nullopt;
  if (covariate.categories != nullptr) {
    const auto category = covariate.categories->ExactCategory(*response);
    return category ? std::optional<double>(static_cast<double>(*category)) : std::nullopt;
  }
  const auto value = covariate.values->ExactValue(*response);
  return value && std::isfinite(*value) ? value : std::nullopt;
}

nlohmann::json CoefficientJson(const std::string& term, double estimate, std::optional<double> se) {
  if (!se) {
    return {{"term", term}, {"estimate", estimate}, {"std_error", nullptr}, {"ci_low", nullptr}, {"ci_high", nullptr}};
  }
  return {{"term", term},
          {"estimate", estimate},
          {"std_error", *se},
          {"ci_low", estimate - kZ95 * *se},
          {"ci_high", estimate + kZ95 * *se}};
}

}  // namespace deniable

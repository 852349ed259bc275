// Analyses checked against the truth in simulations (`deniable simulate
// --analysis SPEC`): each is computed twice, on the simulated reports as the
// server would, and on the simulated respondents' true answers as if every
// question had been asked openly (the survey's "open twin": each categorical
// question asked openly with its options, each numeric one with its range;
// questions of other kinds are left out of it). The twin's result is the
// truth: the respondents' own shares, cells and means, and for a regression
// the non-private fit on the true answers. The comparison pairs every
// estimate of the private result with the truth's at the same place in the
// document, and counts how often the private intervals hold it.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/analysis/analysis.h"
#include "core/common/result.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable {

// The survey with every categorical and numeric question asked openly.
Result<Survey> OpenTwin(const Survey& survey);

// {"estimates", "intervals", "covered", "coverage" (null without intervals),
//  "mean_abs_error", "max_abs_error"}: every object of `estimate` holding
// "ci_low", "ci_high" and a value ("estimate", "frequency" or "value") is
// compared with the value at the same place in `truth`.
nlohmann::json CompareWithTruth(const nlohmann::json& estimate, const nlohmann::json& truth);

class AnalysisCheck {
 public:
  // `options`: the private analysis's estimation options. The intervals are
  // checked against these respondents' true values, so their target should
  // be "respondents" (the default here); population intervals over-cover them.
  static Result<std::unique_ptr<AnalysisCheck>> Create(const Survey& survey, const nlohmann::json& spec,
                                                       const nlohmann::json& options);
  void Add(const nlohmann::json& answers, const Report& report);
  // {"analysis", "result", "truth", "comparison"}.
  nlohmann::json Compare() const;

 private:
  AnalysisCheck() = default;
  Survey twin_;
  nlohmann::json spec_, options_;
  std::unique_ptr<Analysis> private_, truth_;
};

// `deniable simulate`'s lines for a check.
std::string AnalysisCheckText(const nlohmann::json& check);

}  // namespace deniable

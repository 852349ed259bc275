// A question's condition ("show_if"): the question is shown, answered and
// reported only when an earlier question asked openly has given one of the
// named answers:
//   {"question": "smoker", "any_of": ["Yes"]}             (a categorical question asked openly)
//   {"question": "age", "at_least": 18, "at_most": 30}   (a numeric question asked openly; either bound may go)
// Only questions asked openly ("privacy": "open", sent as given) may be named:
// whether a follow-up is answered is visible in the report, so a condition on
// a randomised or confidential answer would reveal that answer. A hidden
// question is a skipped one: not in the report, not in its n.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

struct Survey;

struct Condition {
  std::string question;   // the earlier open question's id
  std::size_t index = 0;  // its position in the survey
  // A categorical question: the options (indices, in the definition's order,
  // and their labels) whose answer shows the question.
  std::vector<std::size_t> any_of;
  std::vector<std::string> any_of_labels;
  // A numeric question: the inclusive bounds its answer must lie within.
  std::optional<double> at_least;
  std::optional<double> at_most;

  bool on_options() const { return !any_of.empty(); }
};

// The question object's "show_if" checked against the questions before it
// (`earlier`: the survey parsed so far; `questions`: the definition's whole
// list, to say that a named question comes later). nullopt without one.
// `where` is the question's path ("questions[2]"); errors add ".show_if...".
Result<std::optional<Condition>> ParseCondition(const nlohmann::json& question, const std::string& where,
                                                const Survey& earlier, const nlohmann::json& questions);

// The canonical JSON form: parsing it again gives the same condition.
nlohmann::json ConditionToJson(const Condition& condition);

// Whether the condition holds for these answers ({<question id>: <answer as
// given>}: the true answers on the device, or a report's responses, where
// open answers are sent as given). An absent or null answer (the named
// question skipped, or itself hidden) hides the question.
bool ConditionHolds(const Condition& condition, const nlohmann::json& answers);

// In words, for the results: `smoker is "Yes" or "Sometimes"`, `age is between 18 and 30`.
std::string DescribeCondition(const Condition& condition);

}  // namespace deniable

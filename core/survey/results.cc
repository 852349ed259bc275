#include "core/survey/results.h"

#include <algorithm>

#include "core/central/release_document.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

// A question answered in confidence publishes its releases, nothing else.
// Its intervals are for the target the question's options ask for.
nlohmann::json LedgerOf(const ConfidentialAnswers& confidential, const Question& question,
                        const QuestionLedgers& ledgers, const nlohmann::json& options) {
  const auto found = ledgers.find(question.id);
  const ReleaseLedger empty(confidential.budget());
  const auto read = ReadIntervalTarget(options);  // checked by ValidateEstimateOptions
  const IntervalTarget target = read ? *read : IntervalTarget::kPopulation;
  return LedgerDocument(found == ledgers.end() ? empty : found->second, confidential.layout(), target);
}

nlohmann::json QuestionResult(const Question& question, const KindAggregate& aggregate, std::int64_t respondents,
                              const nlohmann::json& options, const std::function<bool()>& cancelled,
                              const QuestionLedgers& ledgers, const ParallelFor& parallel) {
  const nlohmann::json own_options = OptionsForQuestion(options, question.id);
  auto estimate = question.kind->EstimateInParallel(aggregate, own_options, cancelled, parallel);
  if (!estimate) return {{"id", question.id}, {"type", question.kind->type()}, {"error", estimate.error()}};
  nlohmann::json result = std::move(estimate).value();
  result["id"] = question.id;
  result["text"] = question.text;
  result["type"] = question.kind->type();
  if (const ConfidentialAnswers* confidential = question.kind->confidential()) {
    result["ledger"] = LedgerOf(*confidential, question, ledgers, own_options);
  }
  if (!question.required) {
    result["required"] = false;
    result["skipped"] = respondents - aggregate.n();
  }
  if (question.show_if) {
    // Asked only of some respondents: its n counts those it was asked of (and who answered).
    result["show_if"] = ConditionToJson(*question.show_if);
    result["asked_only_when"] = DescribeCondition(*question.show_if);
  }
  return result;
}

}  // namespace

nlohmann::json OptionsForQuestion(const nlohmann::json& options, const std::string& question_id) {
  nlohmann::json own = nlohmann::json::object();
  if (!options.is_object()) return own;
  for (const auto& [name, value] : options.items()) {
    if (name.find('.') == std::string::npos) own[name] = value;
  }
  const std::string prefix = question_id + ".";
  for (const auto& [name, value] : options.items()) {
    if (name.rfind(prefix, 0) == 0) own[name.substr(prefix.size())] = value;
  }
  return own;
}

Status ValidateEstimateOptions(const Survey& survey, const nlohmann::json& options) {
  for (const auto& [name, value] : options.items()) {
    const auto dot = name.find('.');
    if (dot == std::string::npos) continue;
    const std::string id = name.substr(0, dot);
    const bool known = std::any_of(survey.questions.begin(), survey.questions.end(),
                                   [&id](const Question& question) { return question.id == id; });
    if (!known) return MakeError(name + ": the survey has no question \"" + id + "\"");
  }
  for (const Question& question : survey.questions) {
    if (auto target = ReadIntervalTarget(OptionsForQuestion(options, question.id)); !target) {
      return MakeError("question \"" + question.id + "\": " + target.error());
    }
    if (auto status = question.kind->ValidateEstimateOptions(OptionsForQuestion(options, question.id)); !status) {
      return MakeError("question \"" + question.id + "\": " + status.error());
    }
  }
  return OkStatus();
}

nlohmann::json PublicStatesToJson(const Survey& survey, const SurveyAggregate& aggregate) {
  nlohmann::json states = nlohmann::json::object();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    if (auto state = survey.questions[q].kind->PublicState(aggregate.question(q))) {
      states[survey.questions[q].id] = std::move(*state);
    }
  }
  return {{"survey", survey.id}, {"version", survey.version}, {"questions", states}};
}

nlohmann::json WithPublicStates(const Survey& survey, const SurveyAggregate& aggregate, nlohmann::json answers) {
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const std::string& id = survey.questions[q].id;
    if (!answers.contains(id) || !answers[id].is_object()) continue;
    if (auto state = survey.questions[q].kind->PublicState(aggregate.question(q))) answers[id]["state"] = std::move(*state);
  }
  return answers;
}

bool ResultsNeedEstimation(const Survey& survey, const SurveyAggregate& aggregate) {
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    if (survey.questions[q].kind->NeedsEstimation(aggregate.question(q))) return true;
  }
  return false;
}

nlohmann::json SurveyResultsToJson(const Survey& survey, const SurveyAggregate& aggregate,
                                   const nlohmann::json& options, const std::function<bool()>& cancelled,
                                   const QuestionLedgers& ledgers, const ParallelFor& parallel) {
  auto questions = nlohmann::json::array();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    questions.push_back(
        QuestionResult(survey.questions[q], aggregate.question(q), aggregate.respondents(), options, cancelled, ledgers, parallel));
  }
  const auto total = TotalEpsilon(survey);
  nlohmann::json document = {{"survey", survey.id},
                             {"version", survey.version},
                             {"title", survey.title},
                             {"respondents", aggregate.respondents()},
                             {"total_epsilon", total ? nlohmann::json(*total) : nlohmann::json(nullptr)},
                             {"questions", questions}};
  if (!total) {
    document["total_epsilon_note"] = "no formal epsilon: at least one question uses a mechanism without one (the pure "
                                     "negative survey or the published RVNS)";
  }
  return document;
}

}  // namespace deniable

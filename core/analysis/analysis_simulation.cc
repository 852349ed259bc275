#include "core/analysis/analysis_simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/seeded_random.h"

namespace deniable {
namespace {

// The question asked openly, or null when its kind has no open form.
nlohmann::json OpenQuestionDefinition(const Question& question, const nlohmann::json& canonical) {
  nlohmann::json open = {{"id", question.id}, {"text", question.text}, {"privacy", "open"}};
  if (canonical.contains("required")) open["required"] = canonical.at("required");
  const std::string type = canonical.value("type", "");
  if (type == "categorical") {
    open["type"] = "categorical";
    open["options"] = canonical.at("options");
    return open;
  }
  if (type == "numeric") {
    open["type"] = "numeric";
    open["range"] = canonical.at("range");
    return open;
  }
  return nullptr;
}

struct Tally {
  std::int64_t estimates = 0, intervals = 0, covered = 0;
  double total_error = 0.0, max_error = 0.0;
};

void Walk(const nlohmann::json& estimate, const nlohmann::json& truth, Tally& tally) {
  if (estimate.is_array() && truth.is_array()) {
    for (std::size_t i = 0; i < std::min(estimate.size(), truth.size()); ++i) Walk(estimate[i], truth[i], tally);
    return;
  }
  if (!estimate.is_object() || !truth.is_object()) return;
  for (const char* value : {"estimate", "frequency", "value"}) {
    if (!estimate.contains(value) || !estimate.at(value).is_number() || !truth.contains(value) ||
        !truth.at(value).is_number()) {
      continue;
    }
    const double target = truth.at(value).get<double>(), error = std::fabs(estimate.at(value).get<double>() - target);
    ++tally.estimates;
    tally.total_error += error;
    tally.max_error = std::max(tally.max_error, error);
    const auto low = estimate.value("ci_low", nlohmann::json()), high = estimate.value("ci_high", nlohmann::json());
    if (low.is_number() && high.is_number()) {
      ++tally.intervals;
      tally.covered += low.get<double>() <= target && target <= high.get<double>() ? 1 : 0;
    }
    break;
  }
  for (const auto& [key, child] : estimate.items()) {
    if (key != "analysis" && truth.contains(key)) Walk(child, truth.at(key), tally);
  }
}

}  // namespace

Result<Survey> OpenTwin(const Survey& survey) {
  nlohmann::json definition = SurveyToJson(survey);
  auto questions = nlohmann::json::array();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    auto open = OpenQuestionDefinition(survey.questions[q], definition.at("questions")[q]);
    if (!open.is_null()) questions.push_back(std::move(open));
  }
  if (questions.empty()) return MakeError("no categorical or numeric question to compare with");
  definition["questions"] = questions;
  return ParseSurvey(definition);
}

nlohmann::json CompareWithTruth(const nlohmann::json& estimate, const nlohmann::json& truth) {
  Tally tally;
  Walk(estimate, truth, tally);
  return {{"estimates", tally.estimates},
          {"intervals", tally.intervals},
          {"covered", tally.covered},
          {"coverage", tally.intervals == 0 ? nlohmann::json() : nlohmann::json(double(tally.covered) / tally.intervals)},
          {"mean_abs_error", tally.estimates == 0 ? nlohmann::json() : nlohmann::json(tally.total_error / tally.estimates)},
          {"max_abs_error", tally.estimates == 0 ? nlohmann::json() : nlohmann::json(tally.max_error)}};
}

Result<std::unique_ptr<AnalysisCheck>> AnalysisCheck::Create(const Survey& survey, const nlohmann::json& spec,
                                                             const nlohmann::json& options) {
  std::unique_ptr<AnalysisCheck> check(new AnalysisCheck());
  auto twin = OpenTwin(survey);
  if (!twin) return MakeError("analysis " + spec.dump() + ": " + twin.error());
  check->twin_ = std::move(twin).value();
  DENIABLE_ASSIGN_OR_RETURN(auto analysis, ParseAnalysis(survey, spec));
  auto truth = ParseAnalysis(check->twin_, spec);
  if (!truth) return MakeError("analysis " + spec.dump() + " has no truth to compare with: " + truth.error());
  check->spec_ = spec;
  check->options_ = options.is_object() ? options : nlohmann::json::object();
  if (!check->options_.contains("interval")) check->options_["interval"] = "respondents";
  check->private_ = std::move(analysis);
  check->truth_ = std::move(truth).value();
  return check;
}

void AnalysisCheck::Add(const nlohmann::json& answers, const Report& report) {
  private_->Add(report);
  nlohmann::json open_answers = nlohmann::json::object();
  for (const auto& question : twin_.questions) {
    if (answers.contains(question.id) && !answers.at(question.id).is_null()) {
      open_answers[question.id] = answers.at(question.id);
    }
  }
  SeededRandom unused(0);  // open answers are sent as given: nothing is drawn
  auto wire = PerturbAnswers(twin_, open_answers, unused);
  if (!wire) return;
  if (auto parsed = ParseReport(twin_, *wire)) truth_->Add(*parsed);
}

nlohmann::json AnalysisCheck::Compare() const {
  auto result = private_->Estimate(options_, nullptr);
  auto truth = truth_->Estimate({{"interval", "respondents"}}, nullptr);
  nlohmann::json check = {{"analysis", spec_},
                          {"result", result ? *result : nlohmann::json{{"error", result.error()}}},
                          {"truth", truth ? *truth : nlohmann::json{{"error", truth.error()}}}};
  check["comparison"] = result && truth ? CompareWithTruth(*result, *truth) : nlohmann::json();
  return check;
}

std::string AnalysisCheckText(const nlohmann::json& check) {
  std::string text = "analysis " + check.at("analysis").dump() + "\n";
  if (check.at("result").contains("error")) return text + "  error: " + check.at("result").at("error").get<std::string>() + "\n";
  if (check.at("truth").contains("error")) return text + "  no truth: " + check.at("truth").at("error").get<std::string>() + "\n";
  const auto& c = check.at("comparison");
  char line[300];
  std::snprintf(line, sizeof line,
                "  %lld estimates against the respondents' true values: mean abs error %.4g, max %.4g; "
                "95%% intervals (%s) hold the truth in %lld of %lld (%.1f%%)\n",
                static_cast<long long>(c.at("estimates").get<std::int64_t>()),
                c.at("mean_abs_error").is_number() ? c.at("mean_abs_error").get<double>() : NAN,
                c.at("max_abs_error").is_number() ? c.at("max_abs_error").get<double>() : NAN,
                check.at("result").value("interval_for", nlohmann::json::object()).value("target", "?").c_str(),
                static_cast<long long>(c.at("covered").get<std::int64_t>()),
                static_cast<long long>(c.at("intervals").get<std::int64_t>()),
                c.at("coverage").is_number() ? 100 * c.at("coverage").get<double>() : NAN);
  return text + line;
}

}  // namespace deniable

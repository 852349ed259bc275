#include "core/survey/simulation.h"

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/common/json_fields.h"
#include "core/common/seeded_random.h"
#include "core/survey/aggregate.h"
#include "core/survey/interval_target.h"
#include "core/survey/report.h"
#include "core/survey/results.h"

namespace deniable {
namespace {

// A question's simulated population: its kind's sampler, how often it is
// skipped, and the table whose rows it shares ("" when drawn on its own).
struct QuestionTruth {
  std::unique_ptr<TruthSampler> sampler;
  double skip_rate = 0.0;
  std::string table;
};

Result<std::string> ReadTable(const nlohmann::json& entry, const std::string& where) {
  if (!entry.is_object() || !entry.contains("table")) return std::string();
  const auto& table = entry.at("table");
  if (!table.is_string() || table.get<std::string>().empty()) {
    return MakeError(JoinPath(where, "table") + ": must be the name of a table (a non-empty string)");
  }
  return table.get<std::string>();
}

// Every truth sharing a table has one answer per row of it, the same number of rows.
Status CheckTables(const Survey& survey, const std::vector<QuestionTruth>& truths) {
  std::map<std::string, std::size_t> first;  // table -> the first question reading it
  for (std::size_t q = 0; q < truths.size(); ++q) {
    if (truths[q].table.empty()) continue;
    const std::string where = "truth." + survey.questions[q].id;
    const std::size_t rows = truths[q].sampler->rows();
    if (rows == 0) return MakeError(where + ".table: this truth is a distribution, not rows of a table");
    const auto [it, added] = first.emplace(truths[q].table, q);
    const std::size_t other_rows = truths[it->second].sampler->rows();
    if (!added && other_rows != rows) {
      return MakeError(where + ": " + std::to_string(rows) + " rows, but truth." + survey.questions[it->second].id +
                       " has " + std::to_string(other_rows) + " rows of the same table \"" + truths[q].table + "\"");
    }
  }
  return OkStatus();
}

Result<double> ReadSkipRate(const Question& question, const nlohmann::json& entry, const std::string& where) {
  if (!entry.is_object() || !entry.contains("skip_rate")) return 0.0;
  const std::string path = JoinPath(where, "skip_rate");
  if (question.required) return MakeError(path + ": only an optional question (\"required\": false) can be skipped");
  const auto& rate = entry.at("skip_rate");
  if (!rate.is_number() || !std::isfinite(rate.get<double>()) || rate.get<double>() < 0.0 || rate.get<double>() >= 1.0) {
    return MakeError(path + ": must be a number in [0, 1), but is " + rate.dump());
  }
  return rate.get<double>();
}

Result<std::vector<QuestionTruth>> ParseTruth(const Survey& survey, const nlohmann::json& truth) {
  DENIABLE_TRY(RequireObject(truth, "truth"));
  std::vector<QuestionTruth> truths;
  for (const auto& question : survey.questions) {
    const std::string where = "truth." + question.id;
    if (!truth.contains(question.id)) return MakeError(where + ": missing (every question needs a truth)");
    nlohmann::json entry = truth.at(question.id);
    DENIABLE_ASSIGN_OR_RETURN(auto skip_rate, ReadSkipRate(question, entry, where));
    DENIABLE_ASSIGN_OR_RETURN(auto table, ReadTable(entry, where));
    if (entry.is_object()) {
      entry.erase("skip_rate");
      entry.erase("table");
    }
    DENIABLE_ASSIGN_OR_RETURN(auto sampler, question.kind->ParseTruth(entry, where));
    truths.push_back({std::move(sampler), skip_rate, table});
  }
  DENIABLE_TRY(CheckTables(survey, truths));
  for (const auto& item : truth.items()) {
    if (!survey.QuestionIndex(item.key())) return MakeError("truth." + item.key() + ": no question with this id");
  }
  return truths;
}

// One simulated respondent's true answers (a skipped question has none): one
// row of each shared table, drawn uniformly (with replacement) first, in the
// tables' name order, so every question reading a table answers from that
// row. The skip draw is made only for questions with a skip rate, so the
// random stream of a survey without optional questions or tables is as it
// always was. Questions hidden by their condition ("show_if") are then left out.
Result<nlohmann::json> DrawAnswers(const Survey& survey, std::vector<QuestionTruth>& truths, RandomSource& random) {
  std::map<std::string, std::size_t> row_of;  // each table's rows, then the row drawn
  for (const QuestionTruth& truth : truths) {
    if (!truth.table.empty()) row_of.emplace(truth.table, truth.sampler->rows());
  }
  for (auto& [table, row] : row_of) row = static_cast<std::size_t>(UniformBelow(random, row));
  nlohmann::json answers = nlohmann::json::object();
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    if (truths[q].skip_rate > 0.0 && UniformUnit(random) < truths[q].skip_rate) continue;
    DENIABLE_ASSIGN_OR_RETURN(auto answer, truths[q].table.empty() ? truths[q].sampler->Draw(random)
                                                                   : truths[q].sampler->DrawRow(row_of.at(truths[q].table), random));
    answers[survey.questions[q].id] = std::move(answer);
  }
  // A question whose condition the drawn open answers do not meet is not
  // asked (in order, so a question hidden in turn hides its own follow-ups);
  // its draw is made all the same, so the stream stays the same either way.
  for (const auto& question : survey.questions) {
    if (!QuestionShown(question, answers)) answers.erase(question.id);
  }
  return answers;
}

}  // namespace

Result<nlohmann::json> Simulate(const Survey& survey, const nlohmann::json& truth, const SimulationOptions& options) {
  if (options.respondents < 1 || options.respondents > 100000000) {
    return MakeError("respondents must be between 1 and 100000000, but is " + std::to_string(options.respondents));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto parsed_truth, ParseTruth(survey, truth));
  std::vector<QuestionTruth> truths = std::move(parsed_truth);
  for (const auto& question : survey.questions) {
    // What the intervals are for (interval_target.h): every question reads it.
    if (auto target = ReadIntervalTarget(OptionsForQuestion(options.estimate, question.id)); !target) {
      return MakeError("question " + question.id + ": " + target.error());
    }
    if (auto valid = question.kind->ValidateEstimateOptions(options.estimate); !valid) {
      return MakeError("question " + question.id + ": " + valid.error());
    }
  }
  SeededRandom random(options.seed);
  SurveyAggregate aggregate(survey);
  for (std::int64_t r = 0; r < options.respondents; ++r) {
    DENIABLE_ASSIGN_OR_RETURN(auto answers, DrawAnswers(survey, truths, random));
    const nlohmann::json stated = WithPublicStates(survey, aggregate, std::move(answers));
    DENIABLE_ASSIGN_OR_RETURN(auto report, PerturbAnswers(survey, stated, random));
    auto parsed = ParseReport(survey, report);  // the server's validation, exactly
    if (!parsed) return MakeError("internal: a simulated report failed validation: " + parsed.error());
    if (options.on_report) {
      if (auto sent = options.on_report(report); !sent) {
        return MakeError("report " + std::to_string(r + 1) + " of " + std::to_string(options.respondents) + ": " +
                         sent.error());
      }
    }
    if (options.on_respondent) options.on_respondent(stated, *parsed);
    aggregate.Add(*parsed);
    if (options.progress && (r + 1) % options.progress_every == 0) options.progress(r + 1);
  }
  auto document = SurveyResultsToJson(survey, aggregate, options.estimate);
  document["seed"] = options.seed;
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    document["questions"][q].update(truths[q].sampler->Compare(document["questions"][q]));
  }
  return document;
}

}  // namespace deniable

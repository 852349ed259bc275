#include "core/analysis/grouped_analysis.h"

#include <cmath>
#include <map>
#include <utility>

#include "core/analysis/question_lookup.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/open/open_privacy.h"
#include "core/survey/interval_target.h"
#include "core/survey/question_kind.h"

namespace deniable {
namespace {

// Groups of 1 to kSmallCellLimit - 1 respondents are not published (open_privacy.h).
bool Hidden(std::int64_t count) { return count > 0 && count < kSmallCellLimit; }

nlohmann::json Count(std::int64_t count) { return Hidden(count) ? nlohmann::json("<5") : nlohmann::json(count); }

// A count hidden by HiddenCounts: "<5" when small, "hidden" when hidden so that a small one cannot be worked out.
nlohmann::json ShownCount(std::int64_t count, bool hidden) {
  if (!hidden) return count;
  return Hidden(count) ? "<5" : "hidden";
}

using RowKey = std::pair<std::string, std::string>;  // (label, measure)

std::map<RowKey, CsvRow> RowsByKey(const std::vector<CsvRow>& rows) {
  std::map<RowKey, CsvRow> keyed;
  for (const CsvRow& row : rows) keyed.emplace(RowKey{row.label, row.measure}, row);
  return keyed;
}

// One group's row against the reference's: the difference and, with both standard errors, its interval.
nlohmann::json Difference(const std::string& group, const CsvRow& row, const CsvRow& reference) {
  const double difference = row.estimate.get<double>() - reference.estimate.get<double>();
  nlohmann::json entry = {{"group", group},          {"label", row.label}, {"measure", row.measure},
                          {"estimate", difference}, {"std_error", nullptr}, {"ci_low", nullptr},
                          {"ci_high", nullptr},      {"note", nullptr}};
  if (row.std_error.is_number() && reference.std_error.is_number()) {
    const double a = row.std_error.get<double>(), b = reference.std_error.get<double>();
    const double se = std::sqrt(a * a + b * b);
    entry["std_error"] = se;
    entry["ci_low"] = difference - kZ95 * se;
    entry["ci_high"] = difference + kZ95 * se;
  } else {
    entry["note"] = "no standard error in both groups: no interval for the difference";
  }
  return entry;
}

}  // namespace

Result<std::unique_ptr<Analysis>> ParseGroupedAnalysis(const Survey& survey, const nlohmann::json& spec) {
  for (const auto& [field, value] : spec.items()) {
    if (field != "by" && field != "question" && field != "reference") {
      return MakeError("analysis." + field + ": unknown field (a breakdown has \"by\", \"question\" and \"reference\")");
    }
  }
  if (!spec.contains("question")) return MakeError("analysis.question: required field is missing");
  DENIABLE_ASSIGN_OR_RETURN(auto by, LookUpQuestion(survey, spec.at("by"), "analysis.by"));
  DENIABLE_ASSIGN_OR_RETURN(auto question, LookUpQuestion(survey, spec.at("question"), "analysis.question"));
  const deniable::Question& by_question = survey.questions[by];
  const CategoryChannel* channel = by_question.kind->category_channel();
  if (by_question.kind->trust() != Trust::kOpen || !channel) {
    return MakeError("analysis.by: question " + DescribeQuestion(by_question) +
                     " is not a categorical question asked openly, so its groups are not known exactly (cross it "
                     "with {\"cross\": [...]} instead)");
  }
  if (by == question) return MakeError("analysis.question: the same question as analysis.by");
  std::optional<std::size_t> reference;
  if (spec.contains("reference")) {
    const auto labels = channel->category_labels();
    const nlohmann::json& value = spec.at("reference");
    for (std::size_t c = 0; c < labels.size(); ++c) {
      if (value.is_string() && value.get<std::string>() == labels[c]) reference = c;
    }
    if (!reference) return MakeError("analysis.reference: must be one of the options of \"" + by_question.id +
                                     "\", but is " + value.dump());
  }
  return std::unique_ptr<Analysis>(new GroupedAnalysis(
      {by, by_question.id, by_question.kind},
      {question, survey.questions[question].id, survey.questions[question].kind}, reference));
}

GroupedAnalysis::GroupedAnalysis(Question by, Question question, std::optional<std::size_t> reference)
    : by_(std::move(by)), question_(std::move(question)), channel_(by_.kind->category_channel()),
      reference_(reference), respondents_(channel_->categories(), 0) {
  for (std::size_t c = 0; c < channel_->categories(); ++c) groups_.push_back(question_.kind->NewAggregate());
}

void GroupedAnalysis::Add(const Report& report) {
  ++n_;
  const auto& by = report.responses[by_.index];
  const auto group = by ? channel_->ExactCategory(*by) : std::nullopt;
  if (!group) {
    ++not_answered_;
    return;
  }
  ++respondents_[*group];
  if (const auto& response = report.responses[question_.index]) groups_[*group]->Add(*response);
}

nlohmann::json GroupedAnalysis::Spec() const {
  nlohmann::json spec = {{"by", by_.id}, {"question", question_.id}};
  if (reference_) spec["reference"] = channel_->category_labels()[*reference_];
  return spec;
}

Result<nlohmann::json> GroupedAnalysis::Estimate(const nlohmann::json& options,
                                                 const std::function<bool()>& cancelled) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  if (auto status = question_.kind->ValidateEstimateOptions(options); !status) return MakeError(status.error());
  const std::vector<std::string> labels = channel_->category_labels();
  nlohmann::json result = {{"analysis", Spec()},
                           {"n", n_},
                           {"interval_for", IntervalForJson(target)},
                           {"by", {{"id", by_.id}, {"labels", labels}}},
                           {"question", question_.id},
                           {"not_answered", Count(not_answered_)},
                           {"groups", nlohmann::json::array()},
                           {"differences", {{"reference", nullptr}, {"rows", nlohmann::json::array()}}},
                           {"warning", nullptr}};
  std::vector<std::optional<std::vector<CsvRow>>> rows(labels.size());
  bool any_hidden = false;
  // Small groups, and one more where the total minus the shown ones would give a small one away
  // (HiddenCounts), by the open question's counts and by the answers to the question.
  std::vector<std::int64_t> answered_counts;
  for (const auto& group : groups_) answered_counts.push_back(group->n());
  const std::vector<bool> hidden_respondents = HiddenCounts(respondents_), hidden_answered = HiddenCounts(answered_counts);
  for (std::size_t g = 0; g < labels.size(); ++g) {
    const std::int64_t answered = groups_[g]->n();
    const bool hidden = hidden_respondents[g] || hidden_answered[g];
    any_hidden = any_hidden || hidden;
    nlohmann::json group = {{"label", labels[g]},
                            {"respondents", ShownCount(respondents_[g], hidden_respondents[g])},
                            {"n", ShownCount(answered, hidden)},
                            {"result", nullptr}};
    if (!hidden && answered > 0) {
      auto estimate = question_.kind->Estimate(*groups_[g], options, cancelled);
      if (!estimate && estimate.error_code() == ErrorCode::kCancelled) return estimate.failure();
      if (estimate) {
        rows[g] = question_.kind->CsvRows(*estimate);
        group["result"] = std::move(estimate).value();
      } else {
        group["result"] = {{"error", estimate.error()}};
      }
    }
    result["groups"].push_back(std::move(group));
  }
  std::optional<std::size_t> reference = reference_;
  if (!reference) {
    for (std::size_t g = 0; g < rows.size() && !reference; ++g) {
      if (rows[g]) reference = g;
    }
  }
  if (reference && rows[*reference]) {
    result["differences"]["reference"] = labels[*reference];
    const auto keyed = RowsByKey(*rows[*reference]);
    for (std::size_t g = 0; g < rows.size(); ++g) {
      if (g == *reference || !rows[g]) continue;
      for (const CsvRow& row : *rows[g]) {
        const auto found = keyed.find({row.label, row.measure});
        if (found == keyed.end() || !row.estimate.is_number() || !found->second.estimate.is_number()) continue;
        result["differences"]["rows"].push_back(Difference(labels[g], row, found->second));
      }
    }
  } else if (reference_) {
    result["warning"] = "the reference group \"" + labels[*reference_] + "\" has no results: no differences";
  }
  if (any_hidden) {
    const std::string hidden = "groups of fewer than 5 respondents are hidden";
    result["warning"] = result["warning"].is_null() ? hidden + "." : result["warning"].get<std::string>() + "; " + hidden + ".";
  }
  return result;
}

std::vector<CsvRow> GroupedAnalysis::CsvRows(const nlohmann::json& result) const {
  std::vector<CsvRow> rows;
  for (const auto& group : result.at("groups")) {
    const auto& estimate = group.at("result");
    if (!estimate.is_object() || estimate.contains("error")) continue;
    for (CsvRow row : question_.kind->CsvRows(estimate)) {
      if (row.n.is_null()) row.n = group.at("n");
      row.variables.insert(row.variables.begin(), {by_.id, group.at("label").get<std::string>()});
      rows.push_back(std::move(row));
    }
  }
  const auto& differences = result.at("differences");
  for (const auto& difference : differences.at("rows")) {
    CsvRow row{difference.at("label").get<std::string>(), "difference_" + difference.at("measure").get<std::string>(),
               difference.at("estimate"), difference.at("std_error"), difference.at("ci_low"), difference.at("ci_high"),
               nullptr, nullptr};
    row.variables = {{by_.id, difference.at("group").get<std::string>()},
                     {by_.id + ".reference", differences.at("reference").get<std::string>()}};
    rows.push_back(std::move(row));
  }
  return rows;
}

std::unique_ptr<Analysis> GroupedAnalysis::Clone() const {
  auto copy = std::make_unique<GroupedAnalysis>(by_, question_, reference_);
  copy->n_ = n_;
  copy->not_answered_ = not_answered_;
  copy->respondents_ = respondents_;
  for (std::size_t g = 0; g < groups_.size(); ++g) copy->groups_[g] = groups_[g]->Clone();
  return copy;
}

}  // namespace deniable

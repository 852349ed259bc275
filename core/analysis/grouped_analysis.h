// A question's results broken down by an open categorical question (analysis.h:
// {"by": "<open question>", "question": "<any question>"(, "reference": "<option of by>")}).
//
// Each option of the by-question is a group: the respondents who gave it
// (their answers are exact: ExactCategory). Each group has its own aggregate
// of the question, of the question's own kind (KindAggregate: mergeable, size
// independent of n), and its own results from the kind's own Estimate: its n,
// estimates, intervals and the kind's warnings for small n. So a breakdown
// works for every kind (categorical, numeric, histogram, block, ...).
//
// Differences: each group against the reference group (the "reference" option,
// else the first group shown), for every (label, measure) row of the kind's
// CSV rows (QuestionKind::CsvRows) with an estimate in both: the difference,
// and when both rows have a standard error, its standard error
// sqrt(se_1^2 + se_2^2) (the groups are disjoint sets of respondents,
// randomised independently: independent) and the 95% interval
// difference +- 1.96 se, for what the groups' intervals are for
// ("interval_for"). Rows without a standard error in either group get the
// difference with no interval and a note. Against the reference only, so the
// rows grow with the groups, not with their pairs.
//
// Small groups are hidden: a group of 1 to 4 respondents (of the by-question,
// or who answered the question) shows "n": "<5" and no results (the issue:
// small combinations of open answers are easy to pick out).
//
// Results:
//   {"analysis": {"by", "question"(, "reference")}, "n": reports counted, "interval_for": {...},
//    "by": {"id", "labels"}, "question": "<id>", "not_answered": reports without an answer to "by",
//    "groups": [{"label", "respondents": n of the group or "<5", "n": answered the question or "<5",
//                "result": the kind's results (null when hidden or empty)}],
//    "differences": {"reference": label or null,
//                    "rows": [{"group", "label", "measure", "estimate", "std_error", "ci_low", "ci_high", "note"}]},
//    "warning": null or sentences}
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/survey/answer_channel.h"

namespace deniable {

Result<std::unique_ptr<Analysis>> ParseGroupedAnalysis(const Survey& survey, const nlohmann::json& spec);

class GroupedAnalysis final : public Analysis {
 public:
  struct Question {
    std::size_t index;  // in the survey
    std::string id;
    std::shared_ptr<const QuestionKind> kind;
  };
  // `reference`: the reference group's category, if the spec names one.
  GroupedAnalysis(Question by, Question question, std::optional<std::size_t> reference);
  void Add(const Report& report) override;
  std::int64_t n() const override { return n_; }
  Result<nlohmann::json> Estimate(const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;

 private:
  nlohmann::json Spec() const;

  Question by_, question_;
  const CategoryChannel* channel_;  // by's
  std::optional<std::size_t> reference_;
  std::int64_t n_ = 0, not_answered_ = 0;
  std::vector<std::int64_t> respondents_;  // per group: answered by
  std::vector<std::unique_ptr<KindAggregate>> groups_;
};

}  // namespace deniable

// Mergeable sufficient statistics of a survey: per question, its kind's
// aggregate (question_kind.h), which counts the respondents who answered it;
// and the number of reports. Estimation reads only these, so its cost does
// not grow with the number of reports. Not thread-safe: the server guards it,
// and independent aggregates combine with Merge.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/common/result.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace deniable {

class SurveyAggregate {
 public:
  explicit SurveyAggregate(const Survey& survey);
  // From its parts, one aggregate per question of its kind (aggregate_format.h reads them from a blob).
  SurveyAggregate(std::int64_t respondents, std::vector<std::unique_ptr<KindAggregate>> questions)
      : respondents_(respondents), questions_(std::move(questions)) {}
  SurveyAggregate(const SurveyAggregate& other);
  SurveyAggregate& operator=(const SurveyAggregate& other);
  SurveyAggregate(SurveyAggregate&&) = default;
  SurveyAggregate& operator=(SurveyAggregate&&) = default;

  void Add(const Report& report);  // the report must come from ParseReport for this survey
  // Whether every response may be counted now (KindAggregate::Admits); the
  // error names the question.
  Status Admits(const Survey& survey, const Report& report) const;
  // Whether Admits refuses the report because a question has collected all
  // it will (KindAggregate::Complete: a finished model), not because of a
  // state that moved on: the server answers it "model_complete".
  bool RefusedAsComplete(const Report& report) const;
  // Admits for reports counted together in this order (a batch committed at
  // once): each is judged as if the ones before it that were admitted had
  // been added, so two reports checked apart cannot both take a model
  // round's last place. Only the aggregates of questions with a public state
  // (QuestionKind::PublicState: the ones whose admission depends on what was
  // counted) are copied for that.
  std::vector<Status> AdmitInOrder(const Survey& survey, const std::vector<const Report*>& reports) const;
  Status Merge(const SurveyAggregate& other);
  std::int64_t respondents() const { return respondents_; }
  std::size_t size() const { return questions_.size(); }
  // Question q's aggregate, of its kind's type.
  const KindAggregate& question(std::size_t q) const { return *questions_[q]; }

 private:
  std::int64_t respondents_ = 0;
  std::vector<std::unique_ptr<KindAggregate>> questions_;
};

}  // namespace deniable

#include "core/aggregate.h"

namespace deniable {

SurveyAggregate::SurveyAggregate(const Survey& survey) {
  for (const auto& question : survey.questions) {
    questions_.push_back({0, std::vector<std::int64_t>(question.options.size(), 0)});
  }
}

void SurveyAggregate::Add(const Report& report) {
  ++respondents_;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    auto& aggregate = questions_[q];
    ++aggregate.n;
    const auto& support = report.supports[q];
    for (std::size_t i = 0; i < support.size(); ++i) aggregate.support_counts[i] += support[i];
  }
}

Status SurveyAggregate::Merge(const SurveyAggregate& other) {
  // Check every shape before touching any state, so a failed merge changes nothing.
  if (other.questions_.size() != questions_.size()) return MakeError("cannot merge aggregates of different surveys");
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (other.questions_[q].support_counts.size() != questions_[q].support_counts.size()) {
      return MakeError("cannot merge aggregates: question " + std::to_string(q) + " has a different option count");
    }
  }
  respondents_ += other.respondents_;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    questions_[q].n += other.questions_[q].n;
    for (std::size_t i = 0; i < questions_[q].support_counts.size(); ++i) {
      questions_[q].support_counts[i] += other.questions_[q].support_counts[i];
    }
  }
  return OkStatus();
}

}  // namespace deniable

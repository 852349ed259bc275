#include "core/aggregate.h"

namespace deniable {

SurveyAggregate::SurveyAggregate(const Survey& survey) {
  for (const auto& question : survey.questions) {
    QuestionAggregate aggregate{0, std::vector<std::int64_t>(question.options.size(), 0), std::nullopt};
    // The mechanism factories guarantee a finite output range, so this cannot fail.
    if (question.is_numeric()) aggregate.histogram = *NumericHistogram::ForMechanism(*question.numeric_mechanism);
    questions_.push_back(std::move(aggregate));
  }
}

void SurveyAggregate::Add(const Report& report) {
  ++respondents_;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    auto& aggregate = questions_[q];
    ++aggregate.n;
    if (aggregate.histogram) {
      // ParseReport checked every value is finite, which is all Add requires.
      (void)aggregate.histogram->Add(report.values[q]);
      continue;
    }
    const auto& support = report.supports[q];
    for (std::size_t i = 0; i < support.size(); ++i) aggregate.support_counts[i] += support[i];
  }
}

Status SurveyAggregate::Merge(const SurveyAggregate& other) {
  // Check every shape before touching any state, so a failed merge changes nothing.
  if (other.questions_.size() != questions_.size()) return MakeError("cannot merge aggregates of different surveys");
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (other.questions_[q].support_counts.size() != questions_[q].support_counts.size() ||
        other.questions_[q].histogram.has_value() != questions_[q].histogram.has_value()) {
      return MakeError("cannot merge aggregates: question " + std::to_string(q) + " has a different shape");
    }
    const auto& mine = questions_[q].histogram;
    const auto& theirs = other.questions_[q].histogram;
    if (mine && (mine->range().low != theirs->range().low || mine->range().high != theirs->range().high ||
                 mine->cells() != theirs->cells())) {
      return MakeError("cannot merge aggregates: question " + std::to_string(q) + " has a different histogram");
    }
  }
  respondents_ += other.respondents_;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    questions_[q].n += other.questions_[q].n;
    if (questions_[q].histogram) (void)questions_[q].histogram->Merge(*other.questions_[q].histogram);
    for (std::size_t i = 0; i < questions_[q].support_counts.size(); ++i) {
      questions_[q].support_counts[i] += other.questions_[q].support_counts[i];
    }
  }
  return OkStatus();
}

}  // namespace deniable

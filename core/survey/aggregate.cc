#include "core/survey/aggregate.h"

namespace deniable {

SurveyAggregate::SurveyAggregate(const Survey& survey) {
  for (const auto& question : survey.questions) questions_.push_back(question.kind->NewAggregate());
}

SurveyAggregate::SurveyAggregate(const SurveyAggregate& other) : respondents_(other.respondents_) {
  for (const auto& question : other.questions_) questions_.push_back(question->Clone());
}

SurveyAggregate& SurveyAggregate::operator=(const SurveyAggregate& other) {
  if (this != &other) *this = SurveyAggregate(other);
  return *this;
}

void SurveyAggregate::Add(const Report& report) {
  ++respondents_;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (report.responses[q]) questions_[q]->Add(*report.responses[q]);  // null: skipped
  }
}

Status SurveyAggregate::Admits(const Survey& survey, const Report& report) const {
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (!report.responses[q]) continue;
    if (auto admitted = questions_[q]->Admits(*report.responses[q]); !admitted) {
      return MakeError("questions." + survey.questions[q].id + ": " + admitted.error());
    }
  }
  return OkStatus();
}

bool SurveyAggregate::RefusedAsComplete(const Report& report) const {
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (report.responses[q] && questions_[q]->Complete() && !questions_[q]->Admits(*report.responses[q])) return true;
  }
  return false;
}

std::vector<Status> SurveyAggregate::AdmitInOrder(const Survey& survey, const std::vector<const Report*>& reports) const {
  // Copies of the stateful questions' aggregates, which earlier reports move.
  std::vector<std::unique_ptr<KindAggregate>> preview(questions_.size());
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    if (survey.questions[q].kind->PublicState(*questions_[q])) preview[q] = questions_[q]->Clone();
  }
  std::vector<Status> admitted;
  admitted.reserve(reports.size());
  for (const Report* report : reports) {
    Status status = OkStatus();
    for (std::size_t q = 0; q < questions_.size() && status; ++q) {
      if (!report->responses[q]) continue;
      const KindAggregate& judge = preview[q] ? *preview[q] : *questions_[q];
      if (auto admits = judge.Admits(*report->responses[q]); !admits) {
        status = MakeError("questions." + survey.questions[q].id + ": " + admits.error());
      }
    }
    if (status) {
      for (std::size_t q = 0; q < questions_.size(); ++q) {
        if (preview[q] && report->responses[q]) preview[q]->Add(*report->responses[q]);
      }
    }
    admitted.push_back(std::move(status));
  }
  return admitted;
}

Status SurveyAggregate::Merge(const SurveyAggregate& other) {
  if (other.questions_.size() != questions_.size()) return MakeError("cannot merge aggregates of different surveys");
  // Merge into copies first, so a failed merge changes nothing.
  std::vector<std::unique_ptr<KindAggregate>> merged;
  for (std::size_t q = 0; q < questions_.size(); ++q) {
    merged.push_back(questions_[q]->Clone());
    if (auto status = merged.back()->Merge(*other.questions_[q]); !status) {
      return MakeError("cannot merge aggregates: question " + std::to_string(q) + " has " + status.error());
    }
  }
  questions_ = std::move(merged);
  respondents_ += other.respondents_;
  return OkStatus();
}

}  // namespace deniable

#include "core/analysis/open_combinations.h"

#include <map>
#include <vector>

#include "core/kinds/open/open_privacy.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

struct OpenQuestion {
  std::size_t index;
  std::string id;
  const CategoryChannel* channel;
};

class OpenCombinations final : public Analysis {
 public:
  std::unique_ptr<Analysis> Clone() const override { return std::make_unique<OpenCombinations>(*this); }
  explicit OpenCombinations(std::vector<OpenQuestion> questions) : questions_(std::move(questions)) {}

  void Add(const Report& report) override {
    std::vector<std::size_t> combination;
    for (const auto& question : questions_) {
      const auto* response = report.responses[question.index].get();
      if (!response) return;  // skipped: not in any combination of all the questions
      combination.push_back(*question.channel->ExactCategory(*response));
    }
    ++counts_[combination];
    ++n_;
  }
  std::int64_t n() const override { return n_; }

  Result<nlohmann::json> Estimate(const nlohmann::json& options, const std::function<bool()>& /*cancelled*/) const override {
    DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
    double possible = 1.0;
    auto ids = nlohmann::json::array();
    for (const auto& question : questions_) {
      possible *= static_cast<double>(question.channel->categories());
      ids.push_back(question.id);
    }
    std::int64_t small = 0, in_small = 0;
    for (const auto& [combination, count] : counts_) {
      if (count < kSmallCellLimit) ++small, in_small += count;
    }
    nlohmann::json warning = nullptr;
    if (small > 0) {
      warning = std::to_string(small) + " combination" + (small == 1 ? " " : "s ") + "of the open answers " +
                (small == 1 ? "is" : "are") + " shared by fewer than " + std::to_string(kSmallCellLimit) +
                " respondents (" + std::to_string(in_small) + (in_small == 1 ? " person" : " people") + " in all): breakdowns and cross-tabs hide them, but anyone who knows a respondent's open "
                "answers may single them out in the reports.";
    }
    return nlohmann::json{{"analysis", {{"combinations", "open"}}},
                          {"n", n_},
                          {"questions", ids},
                          {"combinations_possible", possible},
                          {"combinations_seen", counts_.size()},
                          {"small_combinations", small},
                          {"respondents_in_small", in_small},
                          {"interval_for", IntervalForJson(target)},
                          {"warning", warning}};
  }

  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override {
    std::vector<CsvRow> rows;
    for (const char* measure : {"combinations_possible", "combinations_seen", "small_combinations", "respondents_in_small"}) {
      rows.push_back({"", measure, result.at(measure), nullptr, nullptr, nullptr, nullptr, nullptr});
    }
    return rows;
  }

 private:
  std::vector<OpenQuestion> questions_;
  std::map<std::vector<std::size_t>, std::int64_t> counts_;
  std::int64_t n_ = 0;
};

}  // namespace

Result<std::unique_ptr<Analysis>> ParseOpenCombinations(const Survey& survey, const nlohmann::json& spec) {
  if (spec.size() != 1 || spec.at("combinations") != "open") {
    return MakeError("analysis.combinations: must be \"open\" (the open questions' combinations), alone");
  }
  std::vector<OpenQuestion> questions;
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const auto& kind = *survey.questions[q].kind;
    if (kind.trust() != Trust::kOpen || !kind.category_channel()) continue;
    questions.push_back({q, survey.questions[q].id, kind.category_channel()});
  }
  if (questions.empty()) return MakeError("analysis.combinations: the survey has no categorical question asked openly");
  return std::unique_ptr<Analysis>(std::make_unique<OpenCombinations>(std::move(questions)));
}

}  // namespace deniable

#include "core/analysis/cross_analysis.h"

#include <algorithm>
#include <cmath>

#include "core/analysis/question_lookup.h"
#include "core/frequency/consistent_joint.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/open/open_privacy.h"
#include "core/frequency/norm_sub.h"
#include "core/survey/interval_target.h"
#include "core/survey/question_kind.h"

namespace deniable {
namespace {


// EM's work budget (multiply-adds, about a second): its rounds are capped to fit patterns x cells.
constexpr double kEmWork = 5e8;


std::vector<std::size_t> Digits(std::size_t cell, const std::vector<std::size_t>& sizes) {
  std::vector<std::size_t> digits(sizes.size());
  for (std::size_t j = sizes.size(); j-- > 0;) {
    digits[j] = cell % sizes[j];
    cell /= sizes[j];
  }
  return digits;
}

nlohmann::json Number(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// The product of the margins, mixed with 1% of the uniform table so that no cell starts at 0.
std::vector<double> ProductStart(const std::vector<std::vector<double>>& margins, const std::vector<std::size_t>& sizes,
                                 std::size_t cells) {
  std::vector<double> start(cells);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const auto digits = Digits(cell, sizes);
    double product = 1.0;
    for (std::size_t j = 0; j < sizes.size(); ++j) product *= margins[j][digits[j]];
    start[cell] = 0.99 * product + 0.01 / static_cast<double>(cells);
  }
  return start;
}

}  // namespace

Result<std::unique_ptr<Analysis>> ParseCrossAnalysis(const Survey& survey, const nlohmann::json& spec) {
  for (const auto& [field, value] : spec.items()) {
    if (field != "cross") return MakeError("analysis." + field + ": unknown field (a cross-tab has only \"cross\")");
  }
  const nlohmann::json& list = spec.at("cross");
  if (!list.is_array() || list.size() < 2 || list.size() > 3) {
    return MakeError("analysis.cross: must be a list of 2 or 3 question ids, but is " + list.dump());
  }
  std::vector<CrossAnalysis::Crossed> questions;
  std::size_t cells = 1;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "analysis.cross[" + std::to_string(i) + "]";
    DENIABLE_ASSIGN_OR_RETURN(auto index, LookUpQuestion(survey, list[i], where));
    const Question& question = survey.questions[index];
    for (const auto& earlier : questions) {
      if (earlier.index == index) return MakeError(where + ": \"" + question.id + "\" is named twice");
    }
    const CategoryChannel* channel = question.kind->category_channel();
    if (!channel) {
      return MakeError(where + ": question " + DescribeQuestion(question) +
                       " has no categories to cross (categorical questions, histograms with a leaf level, and open "
                       "questions have)");
    }
    cells *= channel->categories();
    questions.push_back({index, question.id, question.kind, channel, question.kind->trust() == Trust::kOpen});
  }
  if (cells > kMaxCrossCells) {
    return MakeError("analysis.cross: these questions make " + std::to_string(cells) + " cells, more than " +
                     std::to_string(kMaxCrossCells));
  }
  return std::unique_ptr<Analysis>(new CrossAnalysis(std::move(questions)));
}

CrossAnalysis::CrossAnalysis(std::vector<Crossed> questions)
    : questions_(std::move(questions)), patterns_(Sizes()) {
  sum_.assign(patterns_.cells(), 0.0);
  sum_squares_.assign(patterns_.cells(), 0.0);
  std::size_t open_combinations = 1;
  for (const Crossed& q : questions_) {
    marginal_sum_.emplace_back(q.channel->categories(), 0.0);
    marginal_squares_.emplace_back(q.channel->categories(), 0.0);
    if (q.open) open_combinations *= q.channel->categories();
  }
  open_counts_.assign(open_combinations, 0);
}

std::vector<std::size_t> CrossAnalysis::Sizes() const {
  std::vector<std::size_t> sizes;
  for (const Crossed& q : questions_) sizes.push_back(q.channel->categories());
  return sizes;
}

std::size_t CrossAnalysis::OpenCombination(std::size_t cell) const {
  const auto digits = Digits(cell, patterns_.sizes());
  std::size_t combination = 0;
  for (std::size_t j = 0; j < questions_.size(); ++j) {
    if (questions_[j].open) combination = combination * questions_[j].channel->categories() + digits[j];
  }
  return combination;
}

void CrossAnalysis::Add(const Report& report) {
  std::vector<std::vector<double>> indicators, likelihoods;
  for (const Crossed& q : questions_) {
    const auto& response = report.responses[q.index];
    if (!response) return;  // a crossed question skipped: not in the table
    indicators.push_back(q.channel->UnbiasedIndicators(*response));
    likelihoods.push_back(q.channel->Likelihood(*response));
  }
  ++n_;
  for (std::size_t j = 0; j < questions_.size(); ++j) {
    for (std::size_t c = 0; c < indicators[j].size(); ++c) {
      marginal_sum_[j][c] += indicators[j][c];
      marginal_squares_[j][c] += indicators[j][c] * indicators[j][c];
    }
  }
  std::vector<double> product{1.0};  // the outer product, first question slowest
  for (const auto& z : indicators) {
    std::vector<double> next;
    next.reserve(product.size() * z.size());
    for (double a : product) {
      for (double b : z) next.push_back(a * b);
    }
    product = std::move(next);
  }
  for (std::size_t cell = 0; cell < product.size(); ++cell) {
    sum_[cell] += product[cell];
    sum_squares_[cell] += product[cell] * product[cell];
  }
  std::size_t combination = 0;  // exact for open questions: their indicators are 0/1
  for (std::size_t j = 0; j < questions_.size(); ++j) {
    if (!questions_[j].open) continue;
    const auto& z = indicators[j];
    combination = combination * z.size() + static_cast<std::size_t>(std::max_element(z.begin(), z.end()) - z.begin());
  }
  ++open_counts_[combination];
  patterns_.Add(likelihoods);
}

namespace {

struct Unbiased {
  double estimate = NAN;
  double std_error = NAN;  // NaN: no interval (fewer than 2 respondents)
};

// One cell (or marginal entry) from its sum and sum of squares over n respondents (header: the two variances).
Unbiased FromSums(double sum, double squares, double n, IntervalTarget target) {
  Unbiased cell;
  if (n <= 0.0) return cell;
  cell.estimate = sum / n;
  if (n < 2.0) return cell;
  const double variance = target == IntervalTarget::kPopulation
                              ? std::max(0.0, squares - n * cell.estimate * cell.estimate) / (n * (n - 1.0))
                              : std::max(0.0, squares - sum) / (n * n);
  cell.std_error = std::sqrt(variance);
  return cell;
}

std::string Names(const std::vector<CrossAnalysis::Crossed>& questions) {
  std::string names;
  for (const auto& q : questions) names += (names.empty() ? "" : ", ") + q.id;
  return names;
}

}  // namespace

Result<nlohmann::json> CrossAnalysis::Estimate(const nlohmann::json& options,
                                               const std::function<bool()>& cancelled) const {
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  const std::vector<std::size_t> sizes = patterns_.sizes();
  const std::size_t cells = patterns_.cells();
  const double n = static_cast<double>(n_);
  nlohmann::json result = {{"analysis", {{"cross", nlohmann::json::array()}}},
                           {"n", n_},
                           {"interval_for", IntervalForJson(target)},
                           {"questions", nlohmann::json::array()},
                           {"cells", nlohmann::json::array()},
                           {"marginals", nlohmann::json::array()},
                           {"consistent_method", nullptr},
                           {"warning", nullptr}};
  for (const Crossed& q : questions_) {
    result["analysis"]["cross"].push_back(q.id);
    result["questions"].push_back({{"id", q.id}, {"labels", q.channel->category_labels()}, {"open", q.open}});
  }
  if (n_ == 0) {
    result["warning"] = "no respondent answered all of " + Names(questions_) + ": no cross-tabulation";
    return result;
  }
  // Each question's margin among these respondents: Norm-Sub of its unbiased marginal.
  std::vector<std::vector<double>> margins;
  for (std::size_t j = 0; j < questions_.size(); ++j) {
    std::vector<double> unbiased;
    nlohmann::json marginal = {{"id", questions_[j].id}, {"frequency", nlohmann::json::array()},
                               {"std_error", nlohmann::json::array()}, {"consistent", nlohmann::json::array()}};
    for (std::size_t c = 0; c < sizes[j]; ++c) unbiased.push_back(marginal_sum_[j][c] / n);
    margins.push_back(NormSub(unbiased, 1.0));
    std::vector<std::int64_t> counts;  // an open question's exact counts (HiddenCounts: small ones and one more)
    for (std::size_t c = 0; c < sizes[j]; ++c) counts.push_back(std::llround(marginal_sum_[j][c]));
    const std::vector<bool> hidden_counts = HiddenCounts(counts);
    for (std::size_t c = 0; c < sizes[j]; ++c) {
      const Unbiased entry = FromSums(marginal_sum_[j][c], marginal_squares_[j][c], n, target);
      const bool hidden = questions_[j].open && hidden_counts[c];
      marginal["frequency"].push_back(hidden ? nlohmann::json(nullptr) : Number(entry.estimate));
      marginal["std_error"].push_back(hidden ? nlohmann::json(nullptr) : Number(entry.std_error));
      marginal["consistent"].push_back(hidden ? nlohmann::json(nullptr) : Number(margins[j][c]));
    }
    result["marginals"].push_back(std::move(marginal));
  }
  const double work = static_cast<double>(std::max<std::size_t>(1, patterns_.patterns() * cells));
  const int max_rounds = static_cast<int>(std::clamp(kEmWork / work, 20.0, static_cast<double>(kMaxProductEmRounds)));
  DENIABLE_ASSIGN_OR_RETURN(auto fit,
                            FitProductChannelEm(patterns_, ProductStart(margins, sizes, cells), cancelled, max_rounds));
  const std::vector<int> int_sizes(sizes.begin(), sizes.end());
  const std::vector<double> consistent = FitMargins(fit.table, int_sizes, margins);
  result["consistent_method"] = {{"em_rounds", fit.rounds},
                                 {"converged", fit.converged},
                                 {"patterns", patterns_.patterns()}};
  std::vector<std::string> warnings;
  if (!fit.converged) {
    warnings.push_back("the consistent table's EM stopped after " + std::to_string(fit.rounds) +
                       " steps, before converging");
  }
  bool any_hidden = false;
  const std::vector<bool> hidden_combinations = HiddenCounts(open_counts_);
  std::vector<std::vector<std::string>> labels;
  for (const Crossed& q : questions_) labels.push_back(q.channel->category_labels());
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const auto digits = Digits(cell, sizes);
    nlohmann::json entry = {{"labels", nlohmann::json::array()}};
    for (std::size_t j = 0; j < sizes.size(); ++j) entry["labels"].push_back(labels[j][digits[j]]);
    const bool hidden = hidden_combinations[OpenCombination(cell)];
    any_hidden = any_hidden || hidden;
    const Unbiased u = FromSums(sum_[cell], sum_squares_[cell], n, target);
    const bool has_interval = !hidden && std::isfinite(u.std_error);
    const double low = u.estimate - kZ95 * u.std_error, high = u.estimate + kZ95 * u.std_error;
    entry["estimate"] = hidden ? nlohmann::json(nullptr) : Number(u.estimate);
    entry["std_error"] = has_interval ? Number(u.std_error) : nlohmann::json(nullptr);
    entry["ci_low"] = has_interval ? Number(low) : nlohmann::json(nullptr);
    entry["ci_high"] = has_interval ? Number(high) : nlohmann::json(nullptr);
    entry["consistent"] = hidden ? nlohmann::json(nullptr) : Number(consistent[cell]);
    entry["consistent_ci_low"] =
        has_interval ? Number(std::min(std::clamp(low, 0.0, 1.0), consistent[cell])) : nlohmann::json(nullptr);
    entry["consistent_ci_high"] =
        has_interval ? Number(std::max(std::clamp(high, 0.0, 1.0), consistent[cell])) : nlohmann::json(nullptr);
    entry["hidden"] = hidden;
    result["cells"].push_back(std::move(entry));
  }
  if (any_hidden) {
    warnings.push_back("cells whose combination of open answers has fewer than 5 respondents are hidden");
  }
  if (n_ < 2) warnings.push_back("one respondent: no interval");
  if (!warnings.empty()) {
    std::string text;
    for (const auto& w : warnings) text += (text.empty() ? "" : "; ") + w;
    result["warning"] = text + ".";
  }
  return result;
}

std::vector<CsvRow> CrossAnalysis::CsvRows(const nlohmann::json& result) const {
  std::vector<CsvRow> rows;
  for (const auto& cell : result.at("cells")) {
    CsvRow row{"", "joint_share", cell.at("estimate"), cell.at("std_error"), cell.at("ci_low"), cell.at("ci_high"),
               cell.at("consistent"), nullptr};
    row.n = result.at("n");
    for (std::size_t j = 0; j < questions_.size(); ++j) {
      row.variables.emplace_back(questions_[j].id, cell.at("labels")[j].get<std::string>());
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace deniable

#include "core/analysis/rr_regression.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/channel_logit_fit.h"
#include "core/analysis/profile_predictions.h"
#include "core/analysis/regression_design.h"
#include "core/analysis/regression_variables.h"
#include "core/analysis/rr_predictor.h"
#include "core/frequency/frequency_estimator.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

using Variable = RegressionVariable;

Result<Variable> ParseOutcome(const Survey& survey, const nlohmann::json& spec) {
  const auto& field = spec.at("regress");
  if (!field.is_string()) return MakeError("analysis.regress: must be a question id");
  const std::string id = field.get<std::string>();
  const auto index = survey.QuestionIndex(id);
  if (!index) return MakeError("analysis.regress: no question " + QuotedId(id) + " in this survey");
  const QuestionKind& kind = *survey.questions[*index].kind;
  const CategoryChannel* channel = kind.category_channel();
  // An open outcome is the ordinary (non-private) logistic regression: the
  // identity channel. That is the truth `deniable simulate --analysis`
  // compares with (the survey's open twin).
  if (kind.trust() == Trust::kCentral || channel == nullptr) {
    return MakeError("analysis.regress: question " + QuotedId(id) +
                     " is not a randomised (or open) categorical question; a regression's outcome must be one (or "
                     "an open numeric question with a randomised yes/no predictor)");
  }
  if (channel->categories() < 2 || channel->categories() > kMaxOutcomeLevels) {
    return MakeError("analysis.regress: question " + QuotedId(id) + " has " + std::to_string(channel->categories()) +
                     " categories; a regression takes 2 to " + std::to_string(kMaxOutcomeLevels));
  }
  return Variable{*index, channel, nullptr};
}

nlohmann::json CoefficientsToJson(const ChannelLogitFit& fit, const RegressionDesign& design,
                                  const std::vector<std::string>& levels) {
  auto list = nlohmann::json::array();
  const Eigen::Index p = fit.coefficients.rows();
  for (Eigen::Index d = 0; d < fit.coefficients.cols(); ++d) {
    for (Eigen::Index j = 0; j < p; ++j) {
      std::optional<double> se;
      if (fit.covariance.size() > 0) se = std::sqrt(fit.covariance(d * p + j, d * p + j));
      nlohmann::json coefficient = {{"outcome_level", levels[static_cast<std::size_t>(d + 1)]}};
      coefficient.update(CoefficientJson(design.terms[static_cast<std::size_t>(j)], fit.coefficients(j, d), se));
      list.push_back(coefficient);
    }
  }
  return list;
}

// The sentence stating why a fit has no intervals, or "".
std::string FitProblem(const ChannelLogitFit& fit) {
  if (fit.at_boundary) {
    return "no finite maximum: the fitted share of an outcome level goes to 0 or 1 for some respondents (e.g. a "
           "group whose reports show no more of a level than the randomisation alone gives), so a coefficient is "
           "unbounded and no interval is shown; merge small groups or collect more reports";
  }
  if (!fit.converged) return "the fit did not converge in " + std::to_string(fit.iterations) + " iterations; no interval is shown";
  if (fit.covariance.size() == 0) return "the information matrix is singular at the maximum; no interval is shown";
  return "";
}

std::string Join(const std::vector<std::string>& sentences) {
  std::string text;
  for (const auto& sentence : sentences) {
    if (sentence.empty()) continue;
    text += (text.empty() ? "" : "; ") + sentence;
  }
  return text;
}

class RrRegression final : public Analysis {
 public:
  std::unique_ptr<Analysis> Clone() const override { return std::make_unique<RrRegression>(*this); }
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override { return RegressionCsvRows(result); }
  RrRegression(nlohmann::json spec, Variable outcome, std::vector<Variable> covariates,
               std::vector<RegressionCovariate> described)
      : spec_(std::move(spec)),
        outcome_(outcome),
        covariates_(std::move(covariates)),
        described_(std::move(described)),
        levels_(outcome.categories->category_labels()) {}

  void Add(const Report& report) override {
    ++added_;
    std::vector<double> values;
    for (const Variable& covariate : covariates_) {
      const auto value = ReadCovariate(report, covariate);
      if (!value) {
        ++dropped_;
        return;
      }
      values.push_back(*value);
    }
    const KindResponse* response = ResponseAt(report, outcome_.index);
    if (response == nullptr) {
      ++dropped_;
      return;
    }
    const std::vector<double> likelihood = outcome_.categories->Likelihood(*response);
    likelihoods_.insert(likelihoods_.end(), likelihood.begin(), likelihood.end());
    values_.insert(values_.end(), values.begin(), values.end());
  }

  std::int64_t n() const override { return added_; }

  Result<nlohmann::json> Estimate(const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override {
    DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
    const Eigen::Index n = static_cast<Eigen::Index>(likelihoods_.size() / levels_.size());
    const Eigen::MatrixXd values = CovariateValues(n);
    const RegressionDesign design = BuildRegressionDesign(described_, values);
    const std::int64_t parameters = design.x.cols() * static_cast<std::int64_t>(levels_.size() - 1);
    if (n < kRespondentsPerParameter * parameters) {
      return MakeError("analysis: the model has " + std::to_string(parameters) + " parameters and needs at least " +
                       std::to_string(kRespondentsPerParameter * parameters) +
                       " respondents who answered every question it uses; " + std::to_string(n) + " did (" +
                       std::to_string(dropped_) + " dropped)");
    }
    ChannelLogitProblem problem{design.x, OutcomeLikelihoods(n)};
    auto fit = FitChannelLogit(problem, cancelled);
    if (!fit) return fit.error_code() == ErrorCode::kCancelled ? fit.failure() : MakeError("analysis.on: " + fit.error());
    std::string profile_note;
    nlohmann::json predictions = ProfilePredictions(design, described_, values, *fit, levels_, profile_note);
    std::vector<std::string> warnings = {FitProblem(*fit)};
    warnings.insert(warnings.end(), design.notes.begin(), design.notes.end());
    warnings.push_back(profile_note);
    nlohmann::json result = {
        {"analysis", spec_},
        {"model", levels_.size() == 2 ? "logistic" : "multinomial logit"},
        {"n", n},
        {"dropped", dropped_},
        {"outcome", {{"question", spec_["regress"]}, {"levels", levels_}, {"reference", levels_[0]}}},
        {"coefficients", CoefficientsToJson(*fit, design, levels_)},
        {"predictions", predictions},
        {"log_likelihood", fit->log_likelihood},
        {"converged", fit->converged && !fit->at_boundary},
        {"iterations", fit->iterations},
        {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
        {"warning", Join(warnings).empty() ? nlohmann::json() : nlohmann::json(Join(warnings))}};
    if (target == IntervalTarget::kRespondents) {
      result["note"] = "a regression's intervals are for the population's model (maximum likelihood over "
                       "respondents drawn from it); there is no interval for these respondents only";
    }
    return result;
  }

 private:
  Eigen::MatrixXd CovariateValues(Eigen::Index n) const {
    const Eigen::Index columns = static_cast<Eigen::Index>(covariates_.size());
    Eigen::MatrixXd values(n, columns);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < columns; ++j) values(i, j) = values_[static_cast<std::size_t>(i * columns + j)];
    }
    return values;
  }

  Eigen::MatrixXd OutcomeLikelihoods(Eigen::Index n) const {
    const Eigen::Index k = static_cast<Eigen::Index>(levels_.size());
    Eigen::MatrixXd likelihood(n, k);
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index c = 0; c < k; ++c) likelihood(i, c) = likelihoods_[static_cast<std::size_t>(i * k + c)];
    }
    return likelihood;
  }

  nlohmann::json spec_;
  Variable outcome_;
  std::vector<Variable> covariates_;
  std::vector<RegressionCovariate> described_;
  std::vector<std::string> levels_;
  // Per respondent kept: the outcome's likelihood row and the covariates' values.
  std::vector<double> likelihoods_, values_;
  std::int64_t added_ = 0, dropped_ = 0;
};


// An open numeric outcome with a randomised predictor is rr's rrreg.predictor.
bool OpenNumericOutcome(const Survey& survey, const nlohmann::json& spec) {
  if (!spec["regress"].is_string()) return false;
  const auto index = survey.QuestionIndex(spec["regress"].get<std::string>());
  if (!index) return false;
  const QuestionKind& kind = *survey.questions[*index].kind;
  return kind.trust() == Trust::kOpen && kind.value_channel() != nullptr;
}

}  // namespace

Result<std::unique_ptr<Analysis>> ParseRrRegression(const Survey& survey, const nlohmann::json& spec) {
  if (OpenNumericOutcome(survey, spec)) return ParseRrPredictor(survey, spec);
  DENIABLE_ASSIGN_OR_RETURN(auto outcome, ParseOutcome(survey, spec));
  if (!spec.contains("on") || !spec["on"].is_array()) {
    return MakeError("analysis.on: must be an array of open question ids (may be empty)");
  }
  std::vector<Variable> covariates;
  std::vector<RegressionCovariate> described;
  std::set<std::string> seen = {spec["regress"].get<std::string>()};
  for (std::size_t j = 0; j < spec["on"].size(); ++j) {
    const std::string where = "analysis.on[" + std::to_string(j) + "]";
    RegressionCovariate covariate;
    DENIABLE_ASSIGN_OR_RETURN(auto variable, ParseOpenCovariate(survey, spec["on"][j], where, covariate));
    if (!seen.insert(covariate.id).second) return MakeError(where + ": question " + QuotedId(covariate.id) + " is used twice");
    covariates.push_back(variable);
    described.push_back(covariate);
  }
  nlohmann::json canonical = {{"regress", spec["regress"]}, {"on", spec["on"]}};
  return std::unique_ptr<Analysis>(
      std::make_unique<RrRegression>(std::move(canonical), outcome, std::move(covariates), std::move(described)));
}

}  // namespace deniable

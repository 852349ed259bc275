#include "core/analysis/rr_predictor.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/analysis/regression_design.h"
#include "core/analysis/regression_variables.h"
#include "core/analysis/rr_predictor_fit.h"
#include "core/analysis/rr_regression.h"
#include "core/frequency/frequency_estimator.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

struct Parsed {
  RegressionVariable outcome, predictor;
  std::string predictor_id;
  std::vector<std::string> predictor_levels;
  std::vector<RegressionVariable> covariates;
  std::vector<RegressionCovariate> described;
};

// The first question in "on": a yes/no question, randomised (or open: the
// non-private fit, the truth of the survey's open twin in simulations).
Status ParsePredictor(const Survey& survey, const nlohmann::json& field, Parsed& parsed) {
  const std::string where = "analysis.on[0]";
  if (!field.is_string()) return MakeError(where + ": must be a question id");
  const std::string id = field.get<std::string>();
  const auto index = survey.QuestionIndex(id);
  if (!index) return MakeError(where + ": no question " + QuotedId(id) + " in this survey");
  const QuestionKind& kind = *survey.questions[*index].kind;
  const CategoryChannel* channel = kind.category_channel();
  if (kind.trust() == Trust::kCentral || channel == nullptr || channel->categories() != 2) {
    return MakeError(where + ": question " + QuotedId(id) +
                     " is not a randomised yes/no question (with an open numeric outcome, the first question in "
                     "\"on\" is the randomised predictor, with two options)");
  }
  parsed.predictor = {*index, channel, nullptr};
  parsed.predictor_id = id;
  parsed.predictor_levels = channel->category_labels();
  return OkStatus();
}

Result<Parsed> Parse(const Survey& survey, const nlohmann::json& spec) {
  Parsed parsed;
  const std::string outcome = spec["regress"].get<std::string>();
  parsed.outcome = {*survey.QuestionIndex(outcome), nullptr,
                    survey.questions[*survey.QuestionIndex(outcome)].kind->value_channel()};
  if (!spec.contains("on") || !spec["on"].is_array() || spec["on"].empty()) {
    return MakeError("analysis.on: must be an array of question ids, the first a randomised yes/no question (the "
                     "outcome " + QuotedId(outcome) + " is asked openly)");
  }
  DENIABLE_TRY(ParsePredictor(survey, spec["on"][0], parsed));
  std::set<std::string> seen = {outcome, parsed.predictor_id};
  for (std::size_t j = 1; j < spec["on"].size(); ++j) {
    const std::string where = "analysis.on[" + std::to_string(j) + "]";
    RegressionCovariate covariate;
    DENIABLE_ASSIGN_OR_RETURN(auto variable, ParseOpenCovariate(survey, spec["on"][j], where, covariate));
    if (!seen.insert(covariate.id).second) return MakeError(where + ": question " + QuotedId(covariate.id) + " is used twice");
    parsed.covariates.push_back(variable);
    parsed.described.push_back(covariate);
  }
  return parsed;
}

class RrPredictor final : public Analysis {
 public:
  std::unique_ptr<Analysis> Clone() const override { return std::make_unique<RrPredictor>(*this); }
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override { return RegressionCsvRows(result); }
  RrPredictor(nlohmann::json spec, Parsed parsed) : spec_(std::move(spec)), parsed_(std::move(parsed)) {}

  void Add(const Report& report) override {
    ++added_;
    std::vector<double> values;
    for (const RegressionVariable& covariate : parsed_.covariates) {
      const auto value = ReadCovariate(report, covariate);
      if (!value) return void(++dropped_);
      values.push_back(*value);
    }
    const auto y = ReadCovariate(report, parsed_.outcome);
    const KindResponse* answer = ResponseAt(report, parsed_.predictor.index);
    if (!y || answer == nullptr) return void(++dropped_);
    const std::vector<double> likelihood = parsed_.predictor.categories->Likelihood(*answer);
    likelihoods_.insert(likelihoods_.end(), likelihood.begin(), likelihood.end());
    values_.insert(values_.end(), values.begin(), values.end());
    outcomes_.push_back(*y);
  }

  std::int64_t n() const override { return added_; }

  Result<nlohmann::json> Estimate(const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override {
    DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
    const Eigen::Index n = static_cast<Eigen::Index>(outcomes_.size());
    const Eigen::Index columns = static_cast<Eigen::Index>(parsed_.covariates.size());
    const Eigen::MatrixXd values = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        values_.data(), n, columns);
    const RegressionDesign design = BuildRegressionDesign(parsed_.described, values);
    const Eigen::Index p = design.x.cols();
    const std::int64_t parameters = 2 * p + 2;
    if (n < kRespondentsPerParameter * parameters) {
      return MakeError("analysis: the model has " + std::to_string(parameters) + " parameters and needs at least " +
                       std::to_string(kRespondentsPerParameter * parameters) +
                       " respondents who answered every question it uses; " + std::to_string(n) + " did (" +
                       std::to_string(dropped_) + " dropped)");
    }
    PredictorProblem problem{design.x, Eigen::Map<const Eigen::VectorXd>(outcomes_.data(), n),
                             Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor>>(
                                 likelihoods_.data(), n, 2)};
    auto fit = FitPredictor(problem, cancelled);
    if (!fit) return fit.error_code() == ErrorCode::kCancelled ? fit.failure() : MakeError("analysis.on: " + fit.error());
    std::vector<std::string> warnings;
    if (!fit->converged) warnings.push_back("the fit did not converge in " + std::to_string(fit->iterations) + " iterations; no interval is shown");
    else if (fit->covariance.size() == 0) warnings.push_back("the information matrix is singular at the maximum; no interval is shown");
    warnings.insert(warnings.end(), design.notes.begin(), design.notes.end());
    std::string warning;
    for (const auto& sentence : warnings) warning += (warning.empty() ? "" : "; ") + sentence;
    nlohmann::json result = {
        {"analysis", spec_},
        {"model", "linear with a randomised predictor"},
        {"n", n},
        {"dropped", dropped_},
        {"outcome", {{"question", spec_["regress"]}}},
        {"predictor", {{"question", PredictorId()}, {"levels", parsed_.predictor_levels}}},
        {"coefficients", Coefficients(*fit, design)},
        {"sigma", Sigma(*fit, p)},
        {"log_likelihood", fit->log_likelihood},
        {"converged", fit->converged},
        {"iterations", fit->iterations},
        {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
        {"warning", warning.empty() ? nlohmann::json() : nlohmann::json(warning)}};
    if (target == IntervalTarget::kRespondents) {
      result["note"] = "a regression's intervals are for the population's model (maximum likelihood over "
                       "respondents drawn from it); there is no interval for these respondents only";
    }
    return result;
  }

 private:
  const std::string& PredictorId() const { return parsed_.predictor_id; }

  static std::optional<double> Se(const PredictorFit& fit, Eigen::Index index) {
    if (fit.covariance.size() == 0) return std::nullopt;
    return std::sqrt(fit.covariance(index, index));
  }

  nlohmann::json Coefficients(const PredictorFit& fit, const RegressionDesign& design) const {
    const Eigen::Index p = design.x.cols();
    auto list = nlohmann::json::array();
    auto add = [&](const std::string& equation, const std::string& term, Eigen::Index index) {
      nlohmann::json coefficient = {{"equation", equation}};
      coefficient.update(CoefficientJson(term, fit.parameters(index), Se(fit, index)));
      list.push_back(coefficient);
    };
    add("outcome", "(intercept)", p);
    add("outcome", PredictorId() + "=" + parsed_.predictor_levels[1], PredictorEffectIndex(p));
    for (Eigen::Index j = 1; j < p; ++j) add("outcome", design.terms[static_cast<std::size_t>(j)], p + 1 + j);
    for (Eigen::Index j = 0; j < p; ++j) add("answer", design.terms[static_cast<std::size_t>(j)], j);
    return list;
  }

  static nlohmann::json Sigma(const PredictorFit& fit, Eigen::Index p) {
    const double log_sigma = fit.parameters(2 * p + 1);
    const auto se = Se(fit, 2 * p + 1);
    if (!se) return {{"estimate", std::exp(log_sigma)}, {"ci_low", nullptr}, {"ci_high", nullptr}};
    return {{"estimate", std::exp(log_sigma)},
            {"ci_low", std::exp(log_sigma - kZ95 * *se)},
            {"ci_high", std::exp(log_sigma + kZ95 * *se)}};
  }

  nlohmann::json spec_;
  Parsed parsed_;
  std::vector<double> likelihoods_, values_, outcomes_;
  std::int64_t added_ = 0, dropped_ = 0;
};

}  // namespace

Result<std::unique_ptr<Analysis>> ParseRrPredictor(const Survey& survey, const nlohmann::json& spec) {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, Parse(survey, spec));
  nlohmann::json canonical = {{"regress", spec["regress"]}, {"on", spec["on"]}};
  return std::unique_ptr<Analysis>(std::make_unique<RrPredictor>(std::move(canonical), std::move(parsed)));
}

}  // namespace deniable

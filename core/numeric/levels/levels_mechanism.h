// Privacy levels by answer range (seed 003: Hao, Wu and Wan, "Hierarchical
// Aggregation for Numerical Data under Local Differential Privacy", Sensors
// 2023): the numeric mechanism "levels".
//
// Definition: {"name": "levels", "boundaries": [b_1, ..., b_{m-1}],
// "epsilons": [e_1, ..., e_m], "variant": "paper" | "bounded"}: the range cut
// into m intervals, one epsilon each, in any order (level_partition.h).
//
// Client (LHP, lhp_channel.h): the answer's level by GRR, and a +-1 bit with
// P(+1) = (1 + v)/2 kept by randomised response at the REPORTED level's budget.
//   "paper":   level GRR at the true level's epsilon, bit at the reported
//              level's epsilon, as published. Its epsilon is NOT the paper's
//              claim max(eps_t): the pair <level, bit> is exactly
//              ExactLevelsPrivacy(...).epsilon-LDP (8.07 for the paper's
//              budgets 5..1), and that is the epsilon this mechanism states.
//   "bounded": level GRR at eps_t - eps_min, bit at eps_min: every pair of
//              answers in levels t, t' is max(eps_t, eps_t')-indistinguishable
//              (the paper's graded claim, now true), so the report is
//              max(eps)-LDP; the price is that every bit is as noisy as the
//              strictest level's (digest §6.10 (a)).
//
// The report is ONE number that names the pair: level d and bit s are sent as
// y = (a + b)/2 + s C(eps_d) (b - a)/2, C(e) = (e^e + 1)/(e^e - 1) (2k
// distinct values, since levels have distinct epsilons). For the paper
// variant that is the calibrated bit, unbiased for the answer. The server
// counts each value exactly (report_atoms) and estimates the mean by HierA
// (hiera_estimator.h); the generic distribution estimators use the law below.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/levels/level_partition.h"
#include "core/numeric/levels/levels_privacy.h"
#include "core/numeric/levels/lhp_channel.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

enum class LevelsVariant { kPaper, kBounded };

class LevelsMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "levels"; }
  // The exact epsilon of the whole report (never the paper's claim).
  std::optional<double> epsilon() const override { return privacy_.epsilon; }
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override;
  double OutputProbability(double x, double y0, double y1) const override;
  // A levels report's second moment depends on the answer's level, not a
  // polynomial in it: the linear moment estimates do not apply.
  std::optional<ReportMoments> report_moments() const override { return std::nullopt; }
  std::vector<double> report_atoms() const override { return atoms_; }
  nlohmann::json Describe() const override;
  // HierA's mean and the levels' shares from the exact counts of report_atoms(), as a results section.
  Result<nlohmann::json> EstimateFromAtoms(const std::vector<std::int64_t>& counts,
                                           const AtomEstimateOptions& options) const;

  const LevelPartition& partition() const { return partition_; }
  const LhpChannel& channel() const { return channel_; }
  const LevelsPrivacy& privacy() const { return privacy_; }
  LevelsVariant variant() const { return variant_; }
  // The index in report_atoms() of level d's report with bit s (+1 or -1).
  int AtomIndex(int level, int bit) const;
  // The per-respondent variance of HierA's unclamped mean with reuse mu, in
  // data units squared (digest §3.6): Var(C_d bit | x) plus, for mu > 1, the
  // conversions' (1/mu^2) sum_d P(d | t) sum_j (C_j^2 - C_d^2).
  double MeanVariance(double x, int reuse = 1) const;
  std::optional<double> MeanEstimateVariance(double x) const override { return MeanVariance(x); }
  // The mean's error against the alternatives at equal exact epsilon (levels_advice.h).
  std::optional<nlohmann::json> Advice(std::int64_t respondents) const;

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const LevelsMechanism>> CreateLevels(NumericRange, std::vector<double>,
                                                                      std::vector<double>, LevelsVariant);
  LevelsMechanism(LevelPartition partition, LevelsVariant variant);

  double Denormalise(double v) const;  // [-1, 1] -> [a, b] units (centre + v * half width)

  LevelPartition partition_;
  LevelsVariant variant_;
  LhpChannel channel_;
  LevelsPrivacy privacy_;
  std::vector<double> atoms_;
};

Result<std::unique_ptr<const LevelsMechanism>> CreateLevels(NumericRange range, std::vector<double> boundaries,
                                                             std::vector<double> epsilons,
                                                             LevelsVariant variant = LevelsVariant::kPaper);

// Reads {"name":"levels","boundaries":[...],"epsilons":[...],"variant":...} strictly.
Result<std::unique_ptr<const LevelsMechanism>> ParseLevelsParams(const nlohmann::json& mechanism_object,
                                                                  NumericRange range, const std::string& where);

std::string LevelsVariantName(LevelsVariant variant);

// A mechanism's own estimates from the exact counts of its report_atoms()
// (levels: HierA's mean and the levels' shares), as a results section; an
// error for mechanisms without one. Estimation code calls these two rather
// than a virtual of NumericMechanism (numeric_mechanism.h says why).
Result<nlohmann::json> MechanismEstimateFromAtoms(const NumericMechanism& mechanism,
                                                  const std::vector<std::int64_t>& counts,
                                                  const NumericMechanism::AtomEstimateOptions& options);
// A mechanism's own design advice for `respondents` (levels: its mean's error
// against the alternatives at equal true epsilon); nullopt for the others.
std::optional<nlohmann::json> MechanismAdvice(const NumericMechanism& mechanism, std::int64_t respondents);

}  // namespace deniable

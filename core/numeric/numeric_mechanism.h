// The client-side interface of every numeric mechanism: an answer x in [a, b]
// becomes a report of one or more real values.
//
// Server-side estimation only needs, per mechanism, the probability that ONE
// reported value lands in an interval given the input (OutputProbability):
// from it the estimators build cell-integrated transition matrices over fine
// histograms (numeric_histogram.h), so every distribution estimator (EM/EMS,
// the RVNS paper's KDE + SQP) works for every mechanism. Mechanisms whose
// reports are unbiased for x (Laplace, Duchi, Piecewise, Hybrid) also expose that.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/survey/interval_target.h"

namespace deniable {

struct NumericRange {
  double low;
  double high;
  double width() const { return high - low; }
};

class NumericMechanism {
 public:
  explicit NumericMechanism(NumericRange input) : input_(input) {}
  virtual ~NumericMechanism() = default;
  NumericMechanism(const NumericMechanism&) = delete;
  NumericMechanism& operator=(const NumericMechanism&) = delete;

  // The wire name ("rvns", "laplace", "duchi", "piecewise", "hybrid", "square_wave").
  virtual std::string name() const = 0;
  // The LDP epsilon of a whole report; nullopt means no finite epsilon.
  virtual std::optional<double> epsilon() const = 0;
  // The parameters as they appear in a survey definition's "mechanism" object.
  virtual nlohmann::json ParamsToJson() const = 0;

  NumericRange input_range() const { return input_; }
  // Where reported values can land. For mechanisms with unbounded outputs
  // (Laplace) a documented range that holds all but a negligible mass; values
  // outside it are clamped into its end cells by the aggregate.
  virtual NumericRange output_range() const = 0;
  // Where a genuine report's values can lie: what report validation accepts.
  // output_range() unless the mechanism can report beyond it (Laplace).
  virtual NumericRange possible_values() const { return output_range(); }
  // How many values one report carries (RVNS: k; others: 1).
  virtual int values_per_report() const { return 1; }

  // Perturbs one answer (validated: finite and in [a, b]) with the injected randomness.
  Result<std::vector<double>> Perturb(double answer, RandomSource& random) const;

  // P(one reported value in [y0, y1) | input x), exact (closed form where the
  // mechanism has one). For RVNS this is the marginal of each of the k values.
  // End cells: y0 <= output_range().low counts as -infinity and
  // y1 >= output_range().high as +infinity, so cells whose outer edges are the
  // range's ends sum to exactly 1 (they hold Laplace's tails and Duchi's report
  // at output_range().high).
  virtual double OutputProbability(double x, double y0, double y1) const = 0;

  // If each reported value is an unbiased estimate of x, its variance given x
  // (Laplace, Duchi, Piecewise, Hybrid); nullopt for the others.
  virtual std::optional<double> UnbiasedValueVariance(double /*x*/) const { return std::nullopt; }

  // Capability: E[y | x] and E[y^2 | x] of one reported value, for mechanisms
  // with one value per report where they are polynomials in x of degree 1 and
  // 2 (then the answers' mean and mean square are linear in the reports' mean
  // and mean square: report_moments.h). By default derived from
  // UnbiasedValueVariance (E[y|x] = x, E[y^2|x] = x^2 + Var(y|x)); Square Wave
  // gives its own; empty for RVNS.
  struct ReportMoments {
    std::function<double(double x)> mean;
    std::function<double(double x)> mean_square;
  };
  virtual std::optional<ReportMoments> report_moments() const;

  // Capability: the density of one reported value at y given the answer x,
  // for mechanisms with a closed form that the RVNS paper's KDE + SQP
  // estimator needs (RVNS); empty for the others.
  virtual std::function<double(double x, double y)> transition_density() const { return {}; }

  // Capability: the variance, per respondent with answer x, of the
  // mechanism's own unbiased estimate of the answers' mean (in data units
  // squared): Var(y | x) for unbiased reports, (Var(y | x))/beta^2 for a
  // linear E[y | x] = alpha + beta x (Square Wave), the levels mechanism's
  // HierA; nullopt without one (RVNS). For the advisors.
  virtual std::optional<double> MeanEstimateVariance(double x) const;

  // Capability: the finitely many values a report can take, ascending, for
  // mechanisms whose reports are discrete (levels: a level and a bit, 2k
  // values). The aggregate then counts each one exactly, and a report must be
  // one of them. Empty for the others.
  virtual std::vector<double> report_atoms() const { return {}; }
  // Capability: the mechanism's own facts for the page, the privacy statement
  // and the results (levels: its intervals, budgets, report values in words
  // and exact pair epsilons); null for the others.
  virtual nlohmann::json Describe() const { return nullptr; }
  // The options of a mechanism's own estimates from the exact counts of its
  // report_atoms() (MechanismEstimateFromAtoms, levels/levels_mechanism.h).
  // That capability and a mechanism's own design advice (MechanismAdvice) are
  // deliberately not virtual here: every mechanism's vtable is linked into the
  // respondent's WebAssembly module, which never estimates.
  struct AtomEstimateOptions {
    int reuse = 1;       // levels: the paper's mu
    bool clamp = false;  // levels: the paper's clamp of debiased counts
    IntervalTarget target = IntervalTarget::kPopulation;  // what the intervals are for
  };

 protected:
  virtual std::vector<double> PerturbValid(double answer, RandomSource& random) const = 0;

 private:
  NumericRange input_;
};

// A question's answer range: finite ends with low < high and a finite width,
// both ends within +-kMaxRangeMagnitude (1e9) and a width of at least
// kMinRelativeRangeWidth * max(1, |low|, |high|) (core/common/validation.h), so the
// estimators' grids stay well represented.
// "range must be finite with low < high, but is [5, 1]".
Status ValidateNumericRange(NumericRange range);

// For mechanisms that add noise to x (Laplace, Gaussian-pDP, Flipped Huber):
// the cell [y0, y1) as standardised noise offsets (y - x) / scale, where a cell
// edge at or beyond an end of `output` becomes -/+ infinity, because the
// histogram's end cells collect the noise's tails.
struct NoiseOffsets {
  double low;
  double high;
};
NoiseOffsets CellAsNoiseOffsets(double x, double y0, double y1, NumericRange output, double scale);

// For factories: rejects parameters whose output range overflows a double
// (an epsilon so small, or a range so wide, that reports would be infinite).
Status RequireFiniteOutputRange(const NumericMechanism& mechanism);

}  // namespace deniable

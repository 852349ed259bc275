// The RVNS paper's reconstruction (Jiang et al., seed 004, Algorithm 2,
// eqs. 5-11), with the fixes of the digest (/work/shared/seeds/004-rvns-digest.md
// §4, §7.6, P6-P14). Server only: it needs NLopt (SLSQP).
//
// 1. G: a Gaussian KDE of the reported values (eqs. 5-6), evaluated at the m
//    output points y_j (centres of m equal cells over the histogram's range).
//    It is BINNED: the values are the histogram's cell centres weighted by
//    their counts, so its cost is O(m * cells) whatever n is. Bandwidth
//    (the paper gives none; this is MATLAB ksdensity's rule, digest §4.3):
//    h = (MAD / 0.6745) (4 / (3 N))^(1/5), N = number of values, with the
//    median and MAD of the histogram read as a piecewise-uniform density, and
//    h at least one histogram cell width (below it binning would dominate).
//    Boundary correction (P11): by reflection at a and b, i.e. every value y
//    also contributes kernels at 2a - y and 2b - y, which removes the edge
//    spikes of the plain KDE. G is then normalised to a probability mass vector.
// 2. P (eqs. 7-8, P6-P8): P[j][i] = p(x_i, y_j) Δy for input cell centres x_i
//    (cell-centre grid, P13), then every column normalised to sum 1. Δy thus
//    cancels, and P maps input cell masses u_i = v_i Δx (Σ u = 1) to output
//    masses that also sum to 1: the two KL arguments are on the same scale
//    (P7). Without the normalisation f is not even the noise-free minimiser (P8).
// 3. Minimise over input masses u (P12 floors both vectors at 1e-15):
//      F(u) = KL(G ‖ P u) + KL(P u ‖ G) + λ R(u)
//           = Σ_j (ĝ_j - G_j) ln(ĝ_j / G_j) + λ R(u),   ĝ = P u,
//    subject to Σ u_i = 1 (the paper's eq. 10, Σ v_i Δz = 1) and u_i >= 0.
//    The paper's upper bound v_i <= 1 is wrong for narrow ranges (P14); in
//    masses the bound u_i <= 1 is implied by the other two constraints, so it is
//    kept only as a box for the solver and can never bind.
//    Regularisation: the paper's "L1(V)" (Σ |v_i|) is constant under these
//    constraints and its unit-weight "L2(V)" (Σ v_i²) pulls the estimate to the
//    uniform density rather than smoothing it (§4.5, P10, §7.6). Both are
//    replaced by a roughness penalty
//      R(u) = m^3 Σ_i (u_i+1 - u_i)^2  =  m (b - a)^2 Σ_i (v_i+1 - v_i)^2,
//    the discrete ∫ φ'(t)^2 dt of the density φ rescaled to [0, 1], so a given
//    λ means the same smoothness for every range and grid. Default λ =
//    kDefaultKdeSqpSmoothness (chosen on simulated RVNS data, see its comment).
// 4. Solver: NLopt's SLSQP (NLOPT_LD_SLSQP, the SQP of the paper), analytic
//    gradient P^T (ln(ĝ/G) + 1 - G/ĝ) + λ ∇R (digest §4.6), start at the
//    uniform density, stop on relative change of u or F below
//    `relative_tolerance` or after `max_evaluations`. The result is clipped
//    at 0 and renormalised (the equality constraint holds to solver round-off).
//    On noise-free input G = P f with λ = 0, f is the exact minimiser (F = 0)
//    and the solver reaches it (tests).
// Cost: the KDE O(m * cells), P O(m^2) density calls, SLSQP O(m^3) per
// iteration (its dense quasi-Newton QP, digest §6) with more iterations as m
// grows. Measured on RVNS reports (d = 2, k = 3, n = 50,000): m = 100 0.04 s,
// 200 0.85 s, 300 5.1 s, 500 71 s; 1000 had not finished after 19 minutes.
// Use m <= 200 and re-bin for display (distribution_summary.h); EMS handles
// m = 1000.
// Work budget (SqpSettings.budget, work_budget.h): each objective evaluation
// is charged SqpWorkPerEvaluation(m) units before it runs: its two matrix
// products, 2 m^2, plus SLSQP's dense step, 3 m^3 (measured in results: at
// m = 200 an evaluation with its share of SLSQP took about 6 ms, where an EM
// map step takes about 0.45 ns per unit; at m = 1000, 2 s); when the budget refuses, the solver is
// stopped (NLopt FORCED_STOP) and the best feasible point evaluated so far is
// the result (work_budget_exhausted, or cancelled, set).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/distribution/numeric_histogram.h"
#include "core/common/result.h"
#include "core/distribution/transition_matrix.h"
#include "core/common/work_budget.h"

namespace deniable {

// p(x, y): the density of one reported value at y for the answer x
// (RvnsMechanism::TransitionDensity for RVNS).
using TransitionDensity = std::function<double(double x, double y)>;

// λ of the roughness penalty, chosen on simulated RVNS reports: chi-square(2)
// truncated to [0, 10], d in {1, 2, 4}, k in {1, 3, 10}, m = 100, n = 50,000
// and 500,000, λ in {1e-8, 1e-7, 3e-7, 1e-6, 3e-6, 1e-5} (and 0, 3e-5 ... 1e-2
// at n = 50,000). With λ = 1e-6 the W1 error was within 25% of the best λ in
// all 18 settings (the best in 5); λ = 0 was 1.25 to 2.1 times worse than
// λ = 1e-6, and λ >= 1e-4 over-smooths (the estimators' report has the table).
inline constexpr double kDefaultKdeSqpSmoothness = 1e-6;
inline constexpr int kDefaultKdeSqpPoints = 100;
inline constexpr int kMaxKdeSqpPoints = 1000;
inline constexpr int kDefaultSqpMaxEvaluations = 3000;
inline constexpr double kDefaultSqpRelativeTolerance = 1e-12;

struct SqpSettings {
  int max_evaluations = kDefaultSqpMaxEvaluations;           // >= 1
  double relative_tolerance = kDefaultSqpRelativeTolerance;  // > 0: NLopt ftol_rel and xtol_rel
  WorkBudget* budget = nullptr;                              // not owned; null: unlimited
};

// The work units one objective evaluation is charged on m points (see above).
std::int64_t SqpWorkPerEvaluation(int points);

struct KdeSqpOptions {
  int points = kDefaultKdeSqpPoints;             // m, 2..kMaxKdeSqpPoints (practical up to ~200)
  double smoothness = kDefaultKdeSqpSmoothness;  // λ >= 0
  double bandwidth = 0.0;                        // h > 0, or 0 for the rule above
  bool reflect = true;                           // boundary-corrected KDE
  SqpSettings solver;
};

// MAD-based Silverman bandwidth of the values in a histogram (counts over
// equal cells of `range`, non-negative), floored at one cell width (also the
// result when all counts are 0).
double SilvermanMadBandwidth(NumericRange range, const std::vector<double>& counts);

// The binned Gaussian KDE of the histogram's values at `points` (a density per
// unit of y; with reflection it integrates to 1 over the range, up to the mass
// reflected twice, negligible when h << b - a). bandwidth > 0; counts not all 0.
std::vector<double> BinnedGaussianKde(NumericRange range, const std::vector<double>& counts,
                                      const std::vector<double>& points, double bandwidth, bool reflect);

// The paper's point-evaluated, column-normalised transition matrix: input
// cells = m equal cells of `input`, outputs = m equal cells of `output`,
// entries p(x_i, y_j) at the cell centres.
Result<TransitionMatrix> PointTransitionMatrix(const TransitionDensity& density, NumericRange input,
                                               NumericRange output, int points);

struct SymmetricKlFit {
  std::vector<double> probabilities;  // input cell masses u, >= 0, sum 1
  double objective = 0.0;             // F at the result
  int evaluations = 0;
  std::string solver_status;  // NLopt's result name, e.g. "XTOL_REACHED"; "FORCED_STOP" when the budget stopped it
  bool work_budget_exhausted = false;
  bool cancelled = false;
};

// Step 3 alone: minimise F over u for a target mass vector G (one entry per
// output cell of `transition`, non-negative, normalised here to sum 1).
Result<SymmetricKlFit> MinimiseSymmetricKl(const TransitionMatrix& transition, const std::vector<double>& target,
                                           double smoothness, const SqpSettings& settings = {});

struct KdeSqpResult {
  std::vector<double> probabilities;  // m input cell masses over the input range, sum 1
  double bandwidth = 0.0;             // the KDE bandwidth used
  double objective = 0.0;
  int evaluations = 0;
  std::string solver_status;
  bool work_budget_exhausted = false;
  bool cancelled = false;
};

// The whole pipeline from histogram counts over `output` (the mechanism's output range).
Result<KdeSqpResult> EstimateKdeSqp(NumericRange output, const std::vector<double>& counts, NumericRange input,
                                    const TransitionDensity& density, const KdeSqpOptions& options = {});
Result<KdeSqpResult> EstimateKdeSqp(const NumericHistogram& histogram, NumericRange input,
                                    const TransitionDensity& density, const KdeSqpOptions& options = {});

}  // namespace deniable

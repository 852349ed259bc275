// RVNS, the real-value negative survey (Jiang et al., seed 004; digest
// /work/shared/seeds/004-rvns-digest.md): an answer x in [a, b] is hidden in
// a "forbidden window" [L, R] of width d that contains x, placed at a uniform
// offset and kept inside [a, b]; the report is k values drawn uniformly from
// [a, L) ∪ (R, b]. Nothing within the window, in particular x itself, is ever
// reported.
//
// The sampler is the digest's corrected version (§3.3), not the paper's
// Algorithm 1, whose branches are broken. The window's lower end L is uniform
// on [max(a, x - d), min(x, b - d)]: that single formula is the three cases
// d1 = x - L ~ U[0, d] (middle), U[0, x - a] (left boundary) and
// d2 = R - x ~ U[0, b - x] (right boundary). Each value's density is then
// exactly the paper's eqs. 2-4 (digest §3.4, §4.2), with c = 1/(b - a - d).
// Requires 0 < d <= (b - a)/2 (digest C4: beyond it eqs. 2-4 do not integrate to 1).
//
// Window modes: kShared draws one window for all k values (the paper);
// kFreshPerValue draws a new window per value. Each value has the same
// marginal density either way, so estimation is identical; in shared mode
// the k values are dependent given x (digest §5, W4).
//
// Privacy. The published RVNS (gamma = 0) has NO finite epsilon: the band
// around a boundary answer is never reported (digest §5, W3), and the paper's
// k ln(4d/delta) is not a bound (docs/rvns-privacy.md). The bounded variant
// replaces each value, independently with probability gamma, by a uniform
// draw on [a, b]. Every value's density then lies in
// [gamma/(b-a), (1-gamma)c + gamma/(b-a)], in both window modes every joint
// density of the k values lies between the k-th powers of those bounds, so
//     epsilon = k ln(1 + (1 - gamma)(b - a) / (gamma (b - a - d))),
// attained (tight) in both modes by x = a against x = b with every value in
// [a, a + d]. Derivation: docs/rvns-privacy.md.
//
// Randomness: only UniformUnit and Bernoulli, so one seed gives the same
// report natively and in WebAssembly.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

inline constexpr int kMaxRvnsValues = 100;

struct RvnsParams {
  enum class WindowMode { kShared, kFreshPerValue };
  NumericRange range;                // [a, b]
  double window;                     // d, in (0, (b - a)/2]
  int values;                        // k, in 1..kMaxRvnsValues
  WindowMode mode;                   // one window per report (the paper) or per value
  double uniform_probability = 0.0;  // gamma in [0, 1); 0 = the published RVNS (no finite epsilon)
};

// The wire names of the window modes: "shared" and "fresh".
std::string RvnsWindowModeName(RvnsParams::WindowMode mode);

// The closed window [low, high] a value avoided. It is the respondent's
// secret and is never sent; it is exposed for tests and audits only.
struct RvnsWindow {
  double low;
  double high;
};

// One reported value and how it was made.
struct RvnsValue {
  double value;
  RvnsWindow window;  // the window drawn for this value (the same for all values in shared mode)
  bool uniform;       // true if the value is the gamma-replacement uniform draw on [a, b]
};

class RvnsMechanism final : public NumericMechanism {
 public:
  std::string name() const override { return "rvns"; }
  std::optional<double> epsilon() const override;
  nlohmann::json ParamsToJson() const override;
  NumericRange output_range() const override { return params_.range; }
  int values_per_report() const override { return params_.values; }
  double OutputProbability(double x, double y0, double y1) const override;
  std::function<double(double x, double y)> transition_density() const override {
    return [this](double x, double y) { return TransitionDensity(x, y); };
  }

  const RvnsParams& params() const { return params_; }

  // The density of one reported value at y given the answer x:
  // (1 - gamma) p(x, y) + gamma/(b - a), with p from eqs. 2-4 (digest §4.2).
  // 0 outside [a, b], and 0 for x outside [a, b] or NaN.
  double TransitionDensity(double x, double y) const;

  // The report together with the windows it avoided: the same draws, in the
  // same order, as Perturb. For tests and audits; the windows must never be sent.
  Result<std::vector<RvnsValue>> PerturbExplained(double answer, RandomSource& random) const;

 protected:
  std::vector<double> PerturbValid(double answer, RandomSource& random) const override;

 private:
  friend Result<std::unique_ptr<const RvnsMechanism>> CreateRvns(const RvnsParams& params);
  explicit RvnsMechanism(const RvnsParams& params);

  std::vector<RvnsValue> Explain(double x, RandomSource& random) const;
  RvnsWindow DrawWindow(double x, RandomSource& random) const;
  double DrawOutsideWindow(const RvnsWindow& window, RandomSource& random) const;
  double DrawUniform(RandomSource& random) const;
  // p(x, y) of eqs. 2-4, without the uniform mixture.
  double WindowDensity(double x, double y) const;
  // The mean, over the window's random placement for answer x, of |[y0, y1] ∩ window|.
  double MeanWindowOverlap(double x, double y0, double y1) const;

  RvnsParams params_;
  double outside_density_;  // c = 1/(b - a - d): the density of a value drawn outside the window
};

// Validates every parameter, then builds the mechanism; an invalid mechanism
// cannot exist. Messages name the field: "window must be in (0, (b-a)/2] = (0, 5], but is 6".
Result<std::unique_ptr<const RvnsMechanism>> CreateRvns(const RvnsParams& params);

// Reads a survey's mechanism object
//   {"name":"rvns","window":d,"values":k,"window_mode":"shared"|"fresh","uniform_probability":gamma}
// strictly (window, values and window_mode required; uniform_probability
// optional, default 0; unknown fields rejected); errors start with `where`.
Result<std::unique_ptr<const RvnsMechanism>> ParseRvnsParams(const nlohmann::json& mechanism_object,
                                                            NumericRange range, const std::string& where);

// The gamma at which RVNS with these (range, window, values) has exactly the
// given total epsilon > 0: the inverse of the epsilon formula,
//   gamma = r / (e^(epsilon/k) - 1 + r),  r = (b - a)/(b - a - d).
// For a survey designer choosing epsilon first; parameters must be valid.
double RvnsUniformProbabilityForEpsilon(double epsilon, NumericRange range, double window, int values);

}  // namespace deniable

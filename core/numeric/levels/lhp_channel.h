// The law of one LHP report (seed 003, Algorithm 3): the true level t is
// reported as d by generalised randomised response with budget alpha_t, and
// the answer's +-1 bit (P(+1) = (1 + v)/2) is kept with probability
// p_d = e^beta_d/(e^beta_d + 1), beta_d the budget of the REPORTED level d,
// because the server, which sees only d, must know which p to debias with.
//
// The paper uses alpha = beta = the levels' epsilons. The bounded variant
// (levels_mechanism.h) uses other budgets; both are this one channel.
#pragma once

#include <vector>

namespace deniable {

class LhpChannel {
 public:
  // One budget per level for the level's GRR and for the bit (>= 0; a level
  // budget of 0 reports the level uniformly at random).
  LhpChannel(std::vector<double> level_budgets, std::vector<double> bit_budgets);

  int levels() const { return static_cast<int>(level_budgets_.size()); }
  const std::vector<double>& level_budgets() const { return level_budgets_; }
  const std::vector<double>& bit_budgets() const { return bit_budgets_; }

  // P(reported level d | true level t).
  double LevelProbability(int t, int d) const;
  // P(bit = +1 | normalised answer v, reported level d) = (1 + v c_d)/2.
  double PlusProbability(double v, int d) const;
  // P(d, bit | v in level t); bit is +1 or -1.
  double ReportProbability(double v, int t, int d, int bit) const;
  // p_d, the bit's keep probability at reported level d.
  double KeepProbability(int d) const;
  // c_d = 2 p_d - 1 = tanh(beta_d / 2): E[bit | v, d] = c_d v.
  double BitContrast(int d) const { return contrast_[static_cast<std::size_t>(d)]; }
  // C_d = 1/c_d: calibrated bits C_d * bit are unbiased for v.
  double Calibration(int d) const { return 1.0 / BitContrast(d); }

 private:
  std::vector<double> level_budgets_;
  std::vector<double> bit_budgets_;
  std::vector<double> keep_level_;   // e^alpha_t / (e^alpha_t + k - 1)
  std::vector<double> other_level_;  // 1 / (e^alpha_t + k - 1)
  std::vector<double> contrast_;
};

// C(eps) = (e^eps + 1)/(e^eps - 1) = 1 + 2/(e^eps - 1), computed portably
// (the same double natively and in WebAssembly).
double HarmonyCalibration(double epsilon);

}  // namespace deniable

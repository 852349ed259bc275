#include "core/common/student_t.h"

#include <cmath>

namespace deniable {

double StudentTCentralProbability(double t, int df) {
  const double theta = std::atan(std::fabs(t) / std::sqrt(static_cast<double>(df)));
  const double c2 = std::cos(theta) * std::cos(theta);
  const double s = std::sin(theta);
  if (df % 2 == 0) {  // sin(theta) (1 + 1/2 c^2 + 1.3/(2.4) c^4 + ... up to c^(df-2))
    double term = 1.0, sum = 1.0;
    for (int k = 2; k <= df - 2; k += 2) {
      term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
      sum += term;
    }
    return s * sum;
  }
  // (2/pi) (theta + sin cos (1 + 2/3 c^2 + 2.4/(3.5) c^4 + ... up to c^(df-3))), the sum absent for df = 1.
  double inner = 0.0;
  if (df > 1) {
    double term = 1.0;
    inner = 1.0;
    for (int k = 3; k <= df - 2; k += 2) {
      term *= c2 * static_cast<double>(k - 1) / static_cast<double>(k);
      inner += term;
    }
  }
  const double pi = std::acos(-1.0);
  return 2.0 / pi * (theta + s * std::cos(theta) * inner);
}

double StudentTTwoSidedQuantile(double coverage, int df) {
  double low = 0.0, high = 1.0;
  while (StudentTCentralProbability(high, df) < coverage) high *= 2.0;
  while (high - low > 1e-10 * high) {
    const double middle = 0.5 * (low + high);
    (StudentTCentralProbability(middle, df) < coverage ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

}  // namespace deniable

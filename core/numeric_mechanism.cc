#include "core/numeric_mechanism.h"

#include <cmath>

#include "core/validation.h"

namespace deniable {

Result<std::vector<double>> NumericMechanism::Perturb(double answer, RandomSource& random) const {
  if (!std::isfinite(answer) || answer < input_.low || answer > input_.high) {
    return MakeError("answer must be a number in [" + FormatNumber(input_.low) + ", " + FormatNumber(input_.high) +
                     "], but is " + FormatNumber(answer));
  }
  return PerturbValid(answer, random);
}

}  // namespace deniable

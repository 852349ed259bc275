#include "core/numeric/numeric_mechanism_factory.h"

#include "core/numeric/duchi.h"
#include "core/numeric/hybrid.h"
#include "core/common/json_fields.h"
#include "core/numeric/laplace.h"
#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/piecewise.h"
#include "core/numeric/rvns.h"
#include "core/numeric/square_wave.h"

namespace deniable {
namespace {

template <typename Mechanism>
Result<std::shared_ptr<const NumericMechanism>> Shared(Result<std::unique_ptr<const Mechanism>> made) {
  if (!made) return MakeError(made.error());
  return std::shared_ptr<const NumericMechanism>(std::move(made).value());
}

}  // namespace

Result<std::shared_ptr<const NumericMechanism>> ParseNumericMechanism(const nlohmann::json& object,
                                                                      NumericRange range, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(object, "name", 32, true, where));
  if (name == "rvns") return Shared(ParseRvnsParams(object, range, where));
  if (name == "laplace") return Shared(ParseLaplaceParams(object, range, where));
  if (name == "duchi") return Shared(ParseDuchiParams(object, range, where));
  if (name == "piecewise") return Shared(ParsePiecewiseParams(object, range, where));
  if (name == "hybrid") return Shared(ParseHybridParams(object, range, where));
  if (name == "square_wave") return Shared(ParseSquareWaveParams(object, range, where));
  if (name == "levels") return Shared(ParseLevelsParams(object, range, where));
  return MakeError(where + ".name: unknown numeric mechanism \"" + name +
                   "\" (expected one of rvns, laplace, duchi, piecewise, hybrid, square_wave, levels)");
}

nlohmann::json NumericPrivacyToJson(const NumericMechanism& mechanism) {
  if (mechanism.epsilon()) {
    nlohmann::json privacy = {{"epsilon", *mechanism.epsilon()}};
    if (auto details = mechanism.Describe(); !details.is_null()) privacy["details"] = std::move(details);
    return privacy;
  }
  return {{"epsilon", nullptr},
          {"note", "no formal epsilon: the published RVNS never reports values inside a window around the answer, "
                   "so some reports rule answers out with certainty (set uniform_probability > 0 for a finite "
                   "epsilon)"}};
}

}  // namespace deniable

// The client half of a "choose all that apply" question
// (multiple_question_kind.h): options 0..k-1 (2 to 64), at most max_choices
// (m, default k) of them chosen, and the set mechanism (set_mechanism.h)
// that randomises the chosen set, as a set, into one report. The answer is an
// array of option indices ([] chooses none; null skips the question).
//
//   {"type": "multiple", "options": [...], "max_choices": 3,
//    "mechanism": {"name": "optimized_bits" | "symmetric_bits" | "padding_sampling",
//                  "epsilon": 2, "padding": l (padding_sampling only, default m)}}
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/multiple/set_mechanism.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class MultipleClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "multiple";
  static KindClientEntry Entry();
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  const std::vector<std::string>& options() const { return options_; }
  int max_choices() const { return mechanism_->params().max_choices; }
  const SetMechanism& mechanism() const { return *mechanism_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return mechanism_->params().epsilon; }
  // {"epsilon": e, "guarantee": what e covers (the whole set) and how each option's report spends it}.
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  // {"max_choices", "p", "q"}: the report's own probabilities (per bit, or grr's over k + l), and "padding".
  nlohmann::json PageSummary() const override;

 protected:
  MultipleClient(std::vector<std::string> options, std::shared_ptr<const SetMechanism> mechanism)
      : options_(std::move(options)), mechanism_(std::move(mechanism)) {}

  std::vector<std::string> options_;
  std::shared_ptr<const SetMechanism> mechanism_;
};

// What the question's epsilon guarantees, in words.
std::string SetGuarantee(const SetMechanism& mechanism);

}  // namespace deniable

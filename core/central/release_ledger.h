// A question's publication budget and the releases paid from it. Releases of
// one question compose sequentially, so what is spent is the sum of their
// epsilons; a release that would take the sum past the budget is refused with
// a message that says what is spent and what is left. The ledger is stored
// with the releases (ToJson / FromJson, strict), so it survives restarts;
// core has no clock or storage: the caller supplies the time and persists it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/release_request.h"
#include "core/common/result.h"

namespace deniable {

struct LedgerRelease {
  std::string id;           // "r1", "r2", ... in order
  ReleaseRequest request;   // method, epsilon, parameters
  std::string created_at;   // as the caller gives it (ISO 8601 UTC)
  std::int64_t respondents = 0;
  std::int64_t sensitivity = 1;                 // of the counts to one record (release_request.h)
  std::vector<double> values;                   // published, bin order (raw: post-processing is on read)
  std::vector<std::vector<std::size_t>> groups; // the public partition (members publish one value)
};

class ReleaseLedger {
 public:
  explicit ReleaseLedger(double budget) : budget_(budget) {}

  double budget() const { return budget_; }
  double spent() const;
  double left() const;
  const std::vector<LedgerRelease>& releases() const { return releases_; }

  // Whether a release of `epsilon` fits: "a release of epsilon 0.5 would exceed
  // this question's budget of 1: 0.8 is spent, 0.2 is left".
  Status CanSpend(double epsilon) const;
  // Adds a release whose epsilon fits (its id is assigned here); the release's
  // values are given, already drawn.
  Result<const LedgerRelease*> Add(LedgerRelease release);

  // {"budget", "spent", "left", "releases": [{"id", "method", "epsilon", "parameters", "created_at",
  //  "respondents", "sensitivity", "values", "groups"}]}
  nlohmann::json ToJson() const;
  static Result<ReleaseLedger> FromJson(const nlohmann::json& json);

 private:
  double budget_;
  std::vector<LedgerRelease> releases_;
};

// The ledgers of a survey's questions answered in confidence, by question id.
using QuestionLedgers = std::map<std::string, ReleaseLedger>;

}  // namespace deniable

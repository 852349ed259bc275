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

// A release the admin asked for at a chosen count: made (by the server) once
// the question has `at_respondents` answers. Its epsilon is reserved from the
// budget when it is scheduled, so it can never be refused later.
struct ScheduledRelease {
  std::string id;  // "s1", "s2", ... in order
  ReleaseRequest request;
  std::int64_t at_respondents = 0;
  std::string scheduled_at;
};

class ReleaseLedger {
 public:
  explicit ReleaseLedger(double budget) : budget_(budget) {}

  double budget() const { return budget_; }
  double spent() const;
  // Held for scheduled releases.
  double reserved() const;
  double left() const;
  const std::vector<LedgerRelease>& releases() const { return releases_; }
  const std::vector<ScheduledRelease>& scheduled() const { return scheduled_; }

  // Whether a release of `epsilon` fits: "a release of epsilon 0.5 would exceed
  // this question's budget of 1: 0.8 is spent, 0.2 is left" (and what is
  // reserved, when something is).
  Status CanSpend(double epsilon) const;
  // Adds a release whose epsilon fits (its id is assigned here); the release's
  // values are given, already drawn.
  Result<const LedgerRelease*> Add(LedgerRelease release);

  // Reserves a release for when the question has `at_respondents` answers.
  Result<const ScheduledRelease*> Schedule(ScheduledRelease scheduled);
  // The scheduled releases due at `respondents` answers, in order.
  std::vector<ScheduledRelease> Due(std::int64_t respondents) const;
  // Makes the scheduled release `id` (its reservation becomes the release).
  Result<const LedgerRelease*> Fulfil(const std::string& id, LedgerRelease release);
  // Cancels a scheduled release: its reservation returns to the budget.
  Status Cancel(const std::string& id);

  // {"budget", "spent", "reserved", "left", "releases": [{"id", "request", "created_at", "respondents",
  //  "sensitivity", "values", "groups"}], "scheduled": [{"id", "request", "at_respondents", "scheduled_at"}]}
  nlohmann::json ToJson() const;
  static Result<ReleaseLedger> FromJson(const nlohmann::json& json);

 private:
  double budget_;
  std::vector<LedgerRelease> releases_;
  std::vector<ScheduledRelease> scheduled_;
  int scheduled_serial_ = 0;  // ids are never reused, even after a cancellation
};

// The ledgers of a survey's questions answered in confidence, by question id.
using QuestionLedgers = std::map<std::string, ReleaseLedger>;

}  // namespace deniable

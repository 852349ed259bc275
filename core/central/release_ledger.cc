#include "core/central/release_ledger.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"

namespace deniable {
namespace {

// Sums of decimal epsilons are not exact in binary (0.1 + 0.2 + 0.7 > 1 by
// 2e-16): a release that fills the budget exactly must still fit.
constexpr double kBudgetTolerance = 1e-9;

std::string Shown(double value) { return FormatNumber(std::round(value * 1e9) / 1e9); }

bool IsNumberArray(const nlohmann::json& value) {
  return value.is_array() && std::all_of(value.begin(), value.end(), [](const auto& x) { return x.is_number(); });
}

bool IsGroupList(const nlohmann::json& value) {
  return value.is_array() && std::all_of(value.begin(), value.end(), [](const auto& group) {
           return group.is_array() &&
                  std::all_of(group.begin(), group.end(), [](const auto& x) { return x.is_number_unsigned(); });
         });
}

}  // namespace

double ReleaseLedger::spent() const {
  double total = 0.0;
  for (const auto& release : releases_) total += release.request.epsilon;
  return total;
}

double ReleaseLedger::reserved() const {
  double total = 0.0;
  for (const auto& item : scheduled_) total += item.request.epsilon;
  return total;
}

double ReleaseLedger::left() const { return std::max(0.0, budget_ - spent() - reserved()); }

Status ReleaseLedger::CanSpend(double epsilon) const {
  if (spent() + reserved() + epsilon > budget_ * (1.0 + kBudgetTolerance)) {
    const std::string held = reserved() > 0.0 ? ", " + Shown(reserved()) + " is reserved by scheduled releases" : "";
    return MakeError("a release of epsilon " + Shown(epsilon) + " would exceed this question's budget of " +
                     Shown(budget_) + ": " + Shown(spent()) + " is spent" + held + ", " + Shown(left()) + " is left");
  }
  return OkStatus();
}

Result<const ScheduledRelease*> ReleaseLedger::Schedule(ScheduledRelease scheduled) {
  DENIABLE_TRY(CanSpend(scheduled.request.epsilon));
  if (scheduled.at_respondents < 1) return MakeError("at_respondents must be at least 1");
  scheduled.id = "s" + std::to_string(++scheduled_serial_);
  scheduled_.push_back(std::move(scheduled));
  return &scheduled_.back();
}

std::vector<ScheduledRelease> ReleaseLedger::Due(std::int64_t respondents) const {
  std::vector<ScheduledRelease> due;
  for (const auto& item : scheduled_) {
    if (item.at_respondents <= respondents) due.push_back(item);
  }
  return due;
}

Result<const LedgerRelease*> ReleaseLedger::Fulfil(const std::string& id, LedgerRelease release) {
  const auto found = std::find_if(scheduled_.begin(), scheduled_.end(), [&](const auto& item) { return item.id == id; });
  if (found == scheduled_.end()) return MakeError("no scheduled release \"" + id + "\"");
  const ScheduledRelease reservation = *found;
  scheduled_.erase(found);
  release.request = reservation.request;
  auto added = Add(std::move(release));
  if (!added) scheduled_.push_back(reservation);  // cannot happen: the reservation made room for it
  return added;
}

Status ReleaseLedger::Cancel(const std::string& id) {
  const auto found = std::find_if(scheduled_.begin(), scheduled_.end(), [&](const auto& item) { return item.id == id; });
  if (found == scheduled_.end()) return MakeError("no scheduled release \"" + id + "\"");
  scheduled_.erase(found);
  return OkStatus();
}

Result<const LedgerRelease*> ReleaseLedger::Add(LedgerRelease release) {
  DENIABLE_TRY(CanSpend(release.request.epsilon));
  release.id = "r" + std::to_string(releases_.size() + 1);
  releases_.push_back(std::move(release));
  return &releases_.back();
}

nlohmann::json ReleaseLedger::ToJson() const {
  nlohmann::json releases = nlohmann::json::array();
  for (const auto& release : releases_) {
    releases.push_back({{"id", release.id},
                        {"request", release.request.ToJson()},
                        {"created_at", release.created_at},
                        {"respondents", release.respondents},
                        {"sensitivity", release.sensitivity},
                        {"values", release.values},
                        {"groups", release.groups}});
  }
  nlohmann::json scheduled = nlohmann::json::array();
  for (const auto& item : scheduled_) {
    scheduled.push_back({{"id", item.id},
                         {"request", item.request.ToJson()},
                         {"at_respondents", item.at_respondents},
                         {"scheduled_at", item.scheduled_at}});
  }
  return {{"budget", budget_},      {"spent", spent()},       {"reserved", reserved()},
          {"left", left()},         {"releases", releases},   {"scheduled", scheduled},
          {"scheduled_serial", scheduled_serial_}};
}

Result<ReleaseLedger> ReleaseLedger::FromJson(const nlohmann::json& json) {
  if (!json.is_object() || !json.contains("budget") || !json.at("budget").is_number() ||
      !json.contains("releases") || !json.at("releases").is_array()) {
    return MakeError("a ledger must be {\"budget\", \"releases\": [...]}");
  }
  ReleaseLedger ledger(json.at("budget").get<double>());
  for (const auto& item : json.at("releases")) {
    if (!item.is_object() || !item.contains("request") || !item.contains("values") || !item.contains("groups") ||
        !IsNumberArray(item.at("values")) || !IsGroupList(item.at("groups"))) {
      return MakeError("a stored release must have its request, values and groups");
    }
    auto request = ParseReleaseRequest(item.at("request"));
    if (!request) return MakeError("a stored release's request: " + request.error());
    LedgerRelease release;
    release.request = *request;
    release.created_at = item.value("created_at", std::string());
    release.respondents = item.value("respondents", std::int64_t{0});
    if (!item.contains("sensitivity") || !item.at("sensitivity").is_number_integer() ||
        item.at("sensitivity").get<std::int64_t>() < 1) {
      return MakeError("a stored release must have its sensitivity (a positive integer)");
    }
    release.sensitivity = item.at("sensitivity").get<std::int64_t>();
    release.values = item.at("values").get<std::vector<double>>();
    release.groups = item.at("groups").get<std::vector<std::vector<std::size_t>>>();
    auto added = ledger.Add(std::move(release));
    if (!added) return MakeError("the stored releases exceed the budget: " + added.error());
  }
  if (json.contains("scheduled")) {
    if (!json.at("scheduled").is_array()) return MakeError("a ledger's scheduled releases must be an array");
    for (const auto& item : json.at("scheduled")) {
      if (!item.is_object() || !item.contains("request") || !item.contains("at_respondents") ||
          !item.at("at_respondents").is_number_integer() || !item.contains("id") || !item.at("id").is_string()) {
        return MakeError("a stored scheduled release must have its id, request and at_respondents");
      }
      auto request = ParseReleaseRequest(item.at("request"));
      if (!request) return MakeError("a stored scheduled release's request: " + request.error());
      if (auto fits = ledger.CanSpend(request->epsilon); !fits) {
        return MakeError("the stored releases exceed the budget: " + fits.error());
      }
      ledger.scheduled_.push_back({item.at("id").get<std::string>(), *request, item.at("at_respondents").get<std::int64_t>(),
                                   item.value("scheduled_at", std::string())});
    }
  }
  ledger.scheduled_serial_ = json.value("scheduled_serial", static_cast<int>(ledger.scheduled_.size()));
  return ledger;
}

}  // namespace deniable

// Schema 5 (d5c125b), and the tables schema 4 gained without a new number.
//
// survey_status and deleted_surveys (579fe08, released as schema 4): whether
// a survey accepts reports (closed by the admin, or from a closing time), and
// the ids of deleted surveys (never reused: old links and codes must not
// reach a new survey). IF NOT EXISTS: a schema 4 database has them or not.
//
// A model question (linear_regression) trains K chains, 8 unless its
// definition says otherwise. A model stored before schema 5 trained one: its
// definition gets "chains": 1, so its stored rounds replay as trained
// (replayed as 8 chains, every round after the first would be judged against
// another state than the one its respondents computed with).
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/storage/sqlite_migrations.h"

namespace deniable::server {
namespace {

Result<std::vector<std::pair<std::string, std::string>>> ModelsWithoutChains(SqliteDatabase& db) {
  DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select, db.Prepare("SELECT id, definition FROM surveys"));
  std::vector<std::pair<std::string, std::string>> updates;
  for (;;) {
    DENIABLE_ASSIGN_OR_RETURN(const bool row, select.Step());
    if (!row) return updates;
    auto definition = nlohmann::json::parse(select.ColumnText(1), nullptr, false);
    if (definition.is_discarded() || !definition.contains("questions") || !definition["questions"].is_array()) continue;
    bool changed = false;
    for (auto& question : definition["questions"]) {
      if (question.is_object() && question.value("type", "") == "linear_regression" && !question.contains("chains")) {
        question["chains"] = 1;
        changed = true;
      }
    }
    if (changed) updates.emplace_back(select.ColumnText(0), definition.dump());
  }
}

Status DeclareOneChainForStoredModels(SqliteDatabase& db) {
  DENIABLE_ASSIGN_OR_RETURN(const auto updates, ModelsWithoutChains(db));
  for (const auto& [id, definition] : updates) {
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement update, db.Prepare("UPDATE surveys SET definition = ?2 WHERE id = ?1"));
    update.BindText(1, id);
    update.BindText(2, definition);
    DENIABLE_TRY(update.Step());
  }
  return OkStatus();
}

}  // namespace

const SqliteMigration kSqliteMigration0005 = {5, "survey status, deleted ids, one chain for stored models", R"sql(
CREATE TABLE IF NOT EXISTS survey_status (
  survey_id TEXT PRIMARY KEY,
  closed INTEGER NOT NULL DEFAULT 0,
  closes_at TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deleted_surveys (
  survey_id TEXT PRIMARY KEY,
  deleted_at TEXT NOT NULL
) WITHOUT ROWID;
)sql", DeclareOneChainForStoredModels};

}  // namespace deniable::server

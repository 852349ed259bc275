// Schema 7 (issue 31): each survey's aggregate is stored, in shards
// (storage.h, "aggregates shared by nodes"), extended in the same transaction
// as the reports, so that a server starts from the shards instead of reading
// every report, and several nodes can share one. SQLite has one node: shard 0.
//
// survey_aggregates  (survey_id, shard) -> version (commits that extended the
//                    shard), blob (core SerializeSurveyAggregate) and through
//                    (the rowid of the last report the blob counts: a large
//                    blob is rewritten at most once a second, and a start-up
//                    counts the reports after it; storage.h, AggregateShard)
//
// The shards of an existing file are built here, once, by counting its
// stored reports through core ParseReport in insertion order, as a start-up
// did before (a report that no longer validates is left out, as it was
// then); version 1 for a survey with reports, no row for one without.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/survey/aggregate.h"
#include "core/survey/aggregate_format.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "server/storage/sqlite_migrations.h"

namespace deniable::server {
namespace {

Status BuildShardsFromReports(SqliteDatabase& db) {
  std::map<std::string, Survey> surveys;
  std::map<std::string, SurveyAggregate> aggregates;
  std::map<std::string, long long> through;  // per survey, the rowid of its last report read
  {
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select, db.Prepare("SELECT id, definition FROM surveys"));
    for (;;) {
      DENIABLE_ASSIGN_OR_RETURN(const bool row, select.Step());
      if (!row) break;
      // A definition that no longer parses is the start-up's error to report; it gets no shard here.
      auto survey = ParseSurveyText(select.ColumnText(1));
      if (!survey) continue;
      const std::string id = select.ColumnText(0);
      aggregates.emplace(id, SurveyAggregate(*survey));
      surveys.emplace(id, std::move(survey).value());
    }
  }
  {
    DENIABLE_ASSIGN_OR_RETURN(SqliteStatement select,
                              db.Prepare("SELECT survey_id, body, rowid FROM reports ORDER BY rowid"));
    for (;;) {
      DENIABLE_ASSIGN_OR_RETURN(const bool row, select.Step());
      if (!row) break;
      const auto found = surveys.find(select.ColumnText(0));
      if (found == surveys.end()) continue;
      through[found->first] = select.ColumnInt(2);
      auto document = nlohmann::json::parse(select.ColumnText(1), nullptr, false);
      if (document.is_discarded()) continue;
      if (auto report = ParseReport(found->second, document)) aggregates.at(found->first).Add(*report);
    }
  }
  DENIABLE_ASSIGN_OR_RETURN(
      SqliteStatement insert,
      db.Prepare("INSERT OR REPLACE INTO survey_aggregates (survey_id, shard, version, blob, through) "
                 "VALUES (?1, 0, 1, ?2, ?3)"));
  for (const auto& [id, aggregate] : aggregates) {
    if (aggregate.respondents() == 0) continue;
    insert.Reset();
    insert.BindText(1, id);
    insert.BindText(2, SerializeSurveyAggregate(surveys.at(id), aggregate));
    insert.BindInt(3, through.at(id));
    DENIABLE_TRY(insert.Step());
  }
  return OkStatus();
}

}  // namespace

const SqliteMigration kSqliteMigration0007 = {7, "survey aggregates, in shards, built from the stored reports", R"sql(
CREATE TABLE IF NOT EXISTS survey_aggregates (
  survey_id TEXT NOT NULL,
  shard INTEGER NOT NULL,
  version INTEGER NOT NULL,
  blob TEXT NOT NULL,
  through INTEGER NOT NULL,
  PRIMARY KEY (survey_id, shard)
) WITHOUT ROWID;
)sql", BuildShardsFromReports};

}  // namespace deniable::server

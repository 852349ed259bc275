#include "server/app/server_app.h"

#include "server/api/release_handlers.h"

#include <cstdio>
#include <iostream>
#include <memory>

#include "core/common/os_random.h"
#include "server/surveys/admin_token.h"
#include "server/api/api_context.h"
#include "server/base/file_util.h"
#include "server/api/release_handlers.h"
#include "server/http/http_adapter.h"
#include "server/surveys/report_writer.h"
#include "server/api/routes.h"
#include "server/base/shutdown_signals.h"
#include "server/http/static_files.h"
#include "server/storage/pg_connection.h"
#include "server/storage/postgres_storage.h"
#include "server/storage/sqlite_storage.h"
#include "server/storage/storage.h"
#include "server/surveys/survey_catalog.h"
#include "server/surveys/survey_registry.h"

namespace deniable::server {
namespace {

int StartupError(const std::string& message) {
  std::cerr << "deniable serve: " << message << std::endl;
  return 1;
}

// Creates the demo survey from its file unless a survey with its id exists
// (or existed: a deleted id is never reused).
Status LoadDemoSurvey(const std::string& path, Storage& storage, SurveyRegistry& registry) {
  auto text = ReadFileText(path);
  if (!text) return MakeError("--demo: " + text.error());
  auto survey = ParseSurveyText(*text);
  if (!survey) return MakeError("--demo " + path + ": invalid survey: " + survey.error());
  const std::string id = survey->id;
  auto created = CreateSurvey(storage, registry, std::move(survey).value());
  if (!created) return MakeError("--demo: " + created.error());
  std::cout << (created->outcome == CreateOutcome::kCreated  ? "demo survey \"" + id + "\" created from " + path
                : created->outcome == CreateOutcome::kExists ? "demo survey \"" + id + "\" already exists"
                                                              : "demo survey \"" + id + "\" was deleted: its id is not used again")
            << std::endl;
  return OkStatus();
}

struct DataDirectory {
  std::unique_ptr<Storage> storage;
  std::unique_ptr<AdminToken> admin_token;
};

Result<DataDirectory> OpenDataDirectory(const std::string& data_dir, const std::string& database_url) {
  if (!database_url.empty()) {
    // PostgreSQL: everything the nodes share is in the database; the data directory is not used.
    DENIABLE_ASSIGN_OR_RETURN(std::unique_ptr<Storage> storage, OpenStorage(data_dir, database_url));
    OsRandom random;
    DENIABLE_ASSIGN_OR_RETURN(AdminToken token, AdminToken::LoadOrCreate(*storage, random));
    return DataDirectory{std::move(storage), std::make_unique<AdminToken>(std::move(token))};
  }
  DENIABLE_TRY(EnsureDirectory(data_dir));
  if (IsOpenToOthers(data_dir)) {
    std::cerr << "warning: the data directory " << data_dir
              << " can be read or entered by other users (its mode allows group or others); "
                 "the database files are private (0600), but run 'chmod 700 "
              << data_dir << "' to keep even their names private" << std::endl;
  }
  DENIABLE_ASSIGN_OR_RETURN(std::unique_ptr<Storage> storage, OpenStorage(data_dir));
  OsRandom random;
  DENIABLE_ASSIGN_OR_RETURN(AdminToken token, AdminToken::LoadOrCreate(*storage, random));
  return DataDirectory{std::move(storage), std::make_unique<AdminToken>(std::move(token))};
}

Status LoadSurveys(const ServeOptions& options, Storage& storage, SurveyRegistry& registry) {
  DENIABLE_ASSIGN_OR_RETURN(auto summary, LoadCatalog(storage, registry, std::cerr));
  std::cout << "loaded " << summary.surveys << " survey(s) and " << summary.reports << " report(s) from "
            << StoreLocation(options.data_dir, options.database_url) << std::endl;
  for (const std::string& file : options.demo_files) DENIABLE_TRY(LoadDemoSurvey(file, storage, registry));
  // Scheduled releases whose count was reached just before a stop.
  for (const auto& entry : registry.All()) RunDueReleases(storage, *entry);
  return OkStatus();
}

void AnnounceWebDirectory(const StaticFiles& pages) {
  if (pages.available()) {
    std::cout << "serving pages from " << pages.web_dir() << std::endl;
  } else {
    std::cout << "warning: no web pages at " << pages.web_dir()
              << " (run `npm run build`); pages answer 503, the API works" << std::endl;
  }
}

int Serve(const ServeOptions& options, DataDirectory& data, SurveyRegistry& registry) {
  ReportWriter writer(*data.storage);
  ApiContext context{registry, *data.storage, writer, *data.admin_token};
  const StaticFiles pages(options.web_dir.empty() ? DefaultWebDirectory() : options.web_dir);
  std::vector<Route> routes = ApiRoutes(context);
  for (auto& route : PageRoutes(pages)) routes.push_back(std::move(route));
  HttpServer http(routes, HttpServerOptions{options.host, options.port, options.access_log});
  auto port = http.Bind();
  if (!port) return StartupError(port.error());
  AnnounceWebDirectory(pages);
  std::cout << "admin token: " << data.admin_token->value() << "\n"
            << "listening on http://" << options.host << ":" << *port << std::endl;
  {
    ShutdownSignals signals([&http](int) { http.Stop(); });
    http.Serve();
  }
  std::cout << "shutting down: committing queued reports" << std::endl;
  writer.Stop();
  std::cout << "stopped" << std::endl;
  return 0;
}

}  // namespace

Result<std::unique_ptr<Storage>> OpenStorage(const std::string& data_dir, const std::string& database_url) {
  if (!database_url.empty()) {
    DENIABLE_ASSIGN_OR_RETURN(auto storage, PostgresStorage::Open(database_url));
    return std::unique_ptr<Storage>(std::move(storage));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto storage,
                            SqliteStorage::Open(data_dir + "/deniable.sqlite3", data_dir + "/admin-token"));
  return std::unique_ptr<Storage>(std::move(storage));
}

std::string StoreLocation(const std::string& data_dir, const std::string& database_url) {
  return database_url.empty() ? data_dir : RedactPgUrl(database_url);
}

int RunServer(const ServeOptions& options) {
  // Line-buffered so the access log and "listening on" reach pipes promptly.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  // Before any thread starts (the writer, the HTTP workers), so none of them
  // can be the one a SIGTERM kills.
  BlockShutdownSignals();
  auto data = OpenDataDirectory(options.data_dir, options.database_url);
  if (!data) return StartupError(data.error());
  SurveyRegistry registry(options.results_cache_bytes);
  if (auto loaded = LoadSurveys(options, *data->storage, registry); !loaded) return StartupError(loaded.error());
  return Serve(options, data.value(), registry);
}

}  // namespace deniable::server

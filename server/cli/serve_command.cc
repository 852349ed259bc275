#include "server/cli/serve_command.h"

#include <cstdlib>
#include <iostream>

#include "server/cli/cli_args.h"
#include "server/app/server_app.h"

namespace deniable::server {

const char* const kServeUsage =
    "Usage: deniable serve [options]\n"
    "\n"
    "Serves the survey pages and the HTTP API, storing reports in SQLite (one node)\n"
    "or PostgreSQL (several nodes on one database).\n"
    "\n"
    "Options:\n"
    "  --port N       TCP port (default 8080; 0 picks a free port, printed at start)\n"
    "  --host ADDR    address to listen on (default 127.0.0.1)\n"
    "  --data DIR     data directory: deniable.sqlite3 and admin-token (default ./deniable-data)\n"
    "  --database URL PostgreSQL instead of the data directory: postgresql://USER:PASSWORD@HOST/DB\n"
    "                 (or postgres://..., any libpq URL; default: the environment's\n"
    "                 DENIABLE_DATABASE_URL). Every node given one database shares its\n"
    "                 surveys, reports and admin token; nothing is kept in --data\n"
    "  --web DIR      built web pages (default <executable>/../web/dist, else ./web/dist)\n"
    "  --demo FILE    create this survey at start unless a survey with its id exists\n"
    "                 (repeatable: --demo a.json --demo b.json)\n"
    "  --results-cache-mib N\n"
    "                 memory for cached results documents, all surveys together (default 256;\n"
    "                 each survey's default document is kept whatever this says)\n"
    "  --quiet        no access log\n"
    "  --help         this help\n"
    "\n"
    "At start it prints \"admin token: <token>\" and \"listening on http://HOST:PORT\".\n"
    "SIGTERM or SIGINT (Ctrl-C) stops it after committing the reports in progress.\n";

namespace {

Result<ServeOptions> ParseServeOptions(const std::vector<std::string>& args) {
  DENIABLE_ASSIGN_OR_RETURN(auto flags,
                            ParseFlags(args, {{"--port", true}, {"--host", true}, {"--data", true}, {"--web", true},
                                              {"--database", true},
                                              {"--demo", true, true}, {"--quiet", false},
                                              {"--results-cache-mib", true}}));
  ServeOptions options;
  DENIABLE_ASSIGN_OR_RETURN(auto port, IntegerFlag(flags, "--port", 0, 65535, 8080));
  options.port = static_cast<int>(port);
  DENIABLE_ASSIGN_OR_RETURN(auto cache, IntegerFlag(flags, "--results-cache-mib", 1, 65536, 256));
  options.results_cache_bytes = static_cast<std::size_t>(cache) << 20;
  options.host = flags.ValueOr("--host", options.host);
  options.data_dir = flags.ValueOr("--data", options.data_dir);
  DENIABLE_ASSIGN_OR_RETURN(options.database_url, DatabaseUrl(flags));
  options.web_dir = flags.ValueOr("--web", "");
  options.demo_files = flags.Values("--demo");
  options.access_log = !flags.Has("--quiet");
  for (const char* name : {"--host", "--data", "--web"}) {
    if (flags.Value(name) && flags.Value(name)->empty()) return MakeError(std::string(name) + " must not be empty");
  }
  for (const std::string& file : options.demo_files) {
    if (file.empty()) return MakeError("--demo must not be empty");
  }
  return options;
}

}  // namespace

int RunServeCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kServeUsage;
    return 0;
  }
  auto options = ParseServeOptions(args);
  if (!options) {
    std::cerr << "deniable serve: " << options.error() << "\nRun 'deniable serve --help' for usage." << std::endl;
    return kExitUsage;
  }
  return RunServer(*options);
}

}  // namespace deniable::server

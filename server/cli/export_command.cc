#include "server/cli/export_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "server/cli/cli_args.h"
#include "server/surveys/report_export.h"
#include "server/app/server_app.h"
#include "server/storage/storage.h"

namespace deniable::server {

const char* const kExportUsage =
    "Usage: deniable export [--data DIR | --database URL] --survey ID --format csv|json --out FILE\n"
    "                       [--codebook FILE]\n"
    "\n"
    "Writes a survey's stored reports, one row per report and one or more columns per\n"
    "question (the reported option, bits or values: never the true answers), as\n"
    "GET /api/surveys/ID/reports.csv or reports.json serves them. Questions answered in\n"
    "confidence are left out. The codebook (GET /api/surveys/ID/codebook.json) says what\n"
    "each column holds and gives each mechanism's parameters (README: \"Export for R\").\n"
    "\n"
    "Options:\n"
    "  --data DIR         data directory holding deniable.sqlite3 (default ./deniable-data)\n"
    "  --database URL     the nodes' PostgreSQL database instead (postgresql://...; default:\n"
    "                     the environment's DENIABLE_DATABASE_URL)\n"
    "  --survey ID        the survey to export\n"
    "  --format F         csv or json\n"
    "  --out FILE         where to write the reports (created 0600; \"-\": standard output)\n"
    "  --codebook FILE    also write the codebook there (JSON)\n"
    "  --help             this help\n";

namespace {

constexpr std::int64_t kProgressEvery = 100000;

struct ExportOptions {
  std::string data_dir;
  std::string database_url;  // "" for the data directory's SQLite file
  std::string survey;
  ExportFormat format;
  std::string out;
  std::string codebook;
};

Result<ExportOptions> ParseExportOptions(const std::vector<std::string>& args) {
  DENIABLE_ASSIGN_OR_RETURN(auto flags,
                            ParseFlags(args, {{"--data", true}, {"--database", true}, {"--survey", true}, {"--format", true}, {"--out", true},
                                              {"--codebook", true}}));
  DENIABLE_ASSIGN_OR_RETURN(auto survey, RequiredFlag(flags, "--survey"));
  DENIABLE_ASSIGN_OR_RETURN(auto format, RequiredFlag(flags, "--format"));
  if (format != "csv" && format != "json") return MakeError("--format must be csv or json, but is \"" + format + "\"");
  DENIABLE_ASSIGN_OR_RETURN(auto out, RequiredFlag(flags, "--out"));
  DENIABLE_ASSIGN_OR_RETURN(auto database_url, DatabaseUrl(flags));
  return ExportOptions{flags.ValueOr("--data", "./deniable-data"), database_url, survey,
                       format == "csv" ? ExportFormat::kCsv : ExportFormat::kJson, out,
                       flags.ValueOr("--codebook", "")};
}

// A new file only its owner reads: the export is the survey's data.
Result<std::FILE*> OpenOutput(const std::string& path) {
  if (path == "-") return stdout;
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::FILE* file = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!file) return MakeError("cannot write " + path);
  return file;
}

Status WriteWhole(const std::string& path, const std::string& text) {
  DENIABLE_ASSIGN_OR_RETURN(auto file, OpenOutput(path));
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if ((file != stdout && std::fclose(file) != 0) || !ok) return MakeError("cannot write " + path);
  return OkStatus();
}

Result<Survey> LoadSurvey(Storage& storage, const std::string& id) {
  DENIABLE_ASSIGN_OR_RETURN(const StoredState stored, storage.LoadState());
  for (const StoredSurvey& item : stored.surveys) {
    if (item.id != id) continue;
    auto survey = ParseSurveyText(item.definition);
    if (!survey) return MakeError("the stored survey \"" + id + "\" is not valid: " + survey.error());
    return survey;
  }
  return MakeError("no survey \"" + id + "\" in the data directory");
}

Result<ExportSummary> Export(const ExportOptions& options) {
  if (options.database_url.empty()) {
    const std::string database = options.data_dir + "/deniable.sqlite3";
    struct stat info {};
    if (::stat(database.c_str(), &info) != 0) return MakeError("no database at " + database);
  }
  DENIABLE_ASSIGN_OR_RETURN(auto storage, OpenStorage(options.data_dir, options.database_url));
  DENIABLE_ASSIGN_OR_RETURN(auto survey, LoadSurvey(*storage, options.survey));
  if (!options.codebook.empty()) {
    DENIABLE_TRY(WriteWhole(options.codebook, ReportExport(survey).Codebook().dump(2) + "\n"));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto file, OpenOutput(options.out));
  std::int64_t reported = 0;
  auto summary = WriteReportExport(
      *storage, survey, options.format,
      [&](std::string_view chunk) { return std::fwrite(chunk.data(), 1, chunk.size(), file) == chunk.size(); },
      [&](std::int64_t rows) {
        if (rows - reported < kProgressEvery) return;
        reported = rows;
        std::fprintf(stderr, "export: %lld reports\n", static_cast<long long>(rows));
      });
  const bool closed = file == stdout ? std::fflush(stdout) == 0 : std::fclose(file) == 0;
  if (!summary) return MakeError(options.out + ": " + summary.error());
  if (!closed) return MakeError("cannot write " + options.out);
  return summary;
}

}  // namespace

int RunExportCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kExportUsage;
    return 0;
  }
  auto options = ParseExportOptions(args);
  if (!options) {
    std::cerr << "deniable export: " << options.error() << "\nRun 'deniable export --help' for usage." << std::endl;
    return kExitUsage;
  }
  auto summary = Export(*options);
  if (!summary) {
    std::cerr << "deniable export: " << summary.error() << std::endl;
    return 1;
  }
  std::cerr << "export: " << summary->rows << " reports written";
  if (summary->skipped > 0) std::cerr << " (" << summary->skipped << " stored reports no longer valid: left out)";
  std::cerr << std::endl;
  return 0;
}

}  // namespace deniable::server

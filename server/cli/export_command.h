// `deniable export --data DIR --survey ID --format csv|json --out FILE
// [--codebook FILE]`: the reports' export (report_export.h) from the data
// directory's database, the same file GET /api/surveys/{id}/reports.csv or
// reports.json serves, written to disk as it is read (a page of reports at a
// time), with progress on stderr for long exports. Works beside a running
// server (SQLite's write-ahead log lets it read while the server writes).
#pragma once

#include <string>
#include <vector>

namespace deniable::server {

extern const char* const kExportUsage;

int RunExportCommand(const std::vector<std::string>& args);

}  // namespace deniable::server

// What extending the survey's stored shard (storage.h, "aggregates shared by
// nodes") adds to a SQLite commit of a batch of reports: the same batches
// committed to a fresh file without the shard (the commit before issue 31)
// and with it (read the shard row, add the batch to the shard kept in
// memory, serialise it, write the row), alternating runs, for
//   demo   examples/demo-survey.json (three questions, as bench/ingest posts)
//   wide   one categorical question with 4096 options (a blob of ~20 KB,
//          rewritten whole by every commit)
// and batches of 16 and 256 reports (what 16 and 64 connections put in one
// commit, roughly, and more). Every commit is durable (synchronous=FULL):
// the disk's flush is in both wall columns, which drift with it; the CPU
// columns (this process's user + system time) are what the shard costs the
// node. Prints microseconds per commit (medians of the runs) and the added share.
// Run: build/shard_commit_bench [--commits N] [--runs R]
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/survey/aggregate_format.h"
#include "core/survey/report.h"
#include "server/storage/sqlite_storage.h"
#include "server/surveys/survey_registry.h"

using namespace deniable;
using namespace deniable::server;
using nlohmann::json;

namespace {

// Extends the entry's shard as the report writer does (SurveyEntry::ExtendShard), without admission.
class Hooks final : public AggregateHooks {
 public:
  Hooks(SurveyEntry& entry, const std::vector<const Report*>& reports) : entry_(entry), reports_(reports) {}
  bool NeedsGlobalState(const std::string&) const override { return false; }
  Status Refresh(const std::string&, std::int64_t, const std::function<Result<StoredAggregate>()>&) override {
    return OkStatus();
  }
  Result<std::string> Extend(const std::string&, const std::optional<AggregateShard>& current, std::int64_t before,
                             const std::vector<std::size_t>& stored) override {
    before_ = before;
    std::vector<const Report*> added;
    for (std::size_t i : stored) added.push_back(reports_[i]);
    return entry_.ExtendShard(current, added);
  }
  std::int64_t before_ = 0;

 private:
  SurveyEntry& entry_;
  const std::vector<const Report*>& reports_;
};

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

struct Cost {
  double wall_us = 0;  // per commit, the flush included
  double cpu_us = 0;   // per commit, this process's user + system time
};

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// Microseconds per commit of `commits` batches of `batch` reports.
Cost Run(const Survey& survey, const std::vector<json>& wires, int batch, int commits, bool shard) {
  const std::string dir = (std::filesystem::temp_directory_path() / "deniable-shard-bench").string();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  auto opened = SqliteStorage::Open(dir + "/deniable.sqlite3");
  if (!opened) { std::fprintf(stderr, "%s\n", opened.error().c_str()); std::exit(1); }
  std::unique_ptr<SqliteStorage> storage = std::move(opened).value();
  (void)storage->CreateSurvey(survey.id, 1, SurveyToJson(survey).dump());
  SurveyEntry entry(survey);
  std::vector<ReportRecord> records;
  std::vector<Report> reports;
  for (int i = 0; i < batch; ++i) {
    const json& wire = wires[static_cast<std::size_t>(i) % wires.size()];
    records.push_back({survey.id, wire.dump(), std::nullopt});
    reports.push_back(*ParseReport(survey, wire));
  }
  std::vector<const ReportRecord*> pointers;
  std::vector<const Report*> report_pointers;
  for (int i = 0; i < batch; ++i) {
    pointers.push_back(&records[static_cast<std::size_t>(i)]);
    report_pointers.push_back(&reports[static_cast<std::size_t>(i)]);
  }
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = CpuSeconds();
  for (int c = 0; c < commits; ++c) {
    Hooks hooks(entry, report_pointers);
    auto outcomes = storage->CommitReports(pointers, nullptr, shard ? &hooks : nullptr);
    if (!outcomes) { std::fprintf(stderr, "%s\n", outcomes.error().c_str()); std::exit(1); }
    if (shard) entry.ApplyCommitted(report_pointers, hooks.before_, true);
    else for (const Report* report : report_pointers) entry.AddReport(*report);  // the old path's counting
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = CpuSeconds() - cpu_start;
  storage.reset();
  std::filesystem::remove_all(dir);
  return {seconds * 1e6 / commits, cpu * 1e6 / commits};
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int commits = 200, runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--commits") commits = std::stoi(argv[i + 1]);
    if (std::string(argv[i]) == "--runs") runs = std::stoi(argv[i + 1]);
  }
  const Survey demo = *ParseSurveyText(ReadText(std::string(DENIABLE_SOURCE_DIR) + "/examples/demo-survey.json"));
  json options = json::array();
  for (int i = 0; i < 4096; ++i) options.push_back("option " + std::to_string(i));
  const Survey wide = *ParseSurvey({{"format", kSurveyFormat}, {"id", "wide"}, {"version", 1}, {"title", "Wide"},
                                    {"questions", {{{"id", "q"}, {"text", "Which?"}, {"type", "categorical"},
                                                    {"options", options}, {"mechanism", {{"name", "oue"}, {"epsilon", 1}}}}}}});
  SeededRandom random(1);
  auto wires_of = [&](const Survey& survey, const std::vector<json>& answers) {
    std::vector<json> wires;
    for (const json& answer : answers) wires.push_back(*PerturbAnswers(survey, answer, random));
    return wires;
  };
  const std::vector<json> demo_wires = {json::parse(
      R"({"survey":"demo","version":1,"responses":{"drugs":1,"alcohol":[0,1,0,0,1],"stress":[0,3]}})")};
  std::vector<json> wide_answers;
  for (int i = 0; i < 64; ++i) wide_answers.push_back({{"q", (i * 97) % 4096}});
  const std::vector<json> wide_wires = wires_of(wide, wide_answers);
  std::printf("shard_commit_bench: %d commits per run, median of %d runs, synchronous=FULL on %s\n", commits, runs,
              std::filesystem::temp_directory_path().c_str());
  std::printf("%-6s %6s %12s %12s %8s %12s %12s %8s %10s\n", "survey", "batch", "wall before", "wall after", "added",
              "cpu before", "cpu after", "added", "blob bytes");
  for (const auto& [name, survey, wires] :
       {std::tuple<const char*, const Survey&, const std::vector<json>&>{"demo", demo, demo_wires},
        std::tuple<const char*, const Survey&, const std::vector<json>&>{"wide", wide, wide_wires}}) {
    for (int batch : {16, 256}) {
      std::vector<double> without, with, cpu_without, cpu_with;
      for (int r = 0; r < runs; ++r) {
        const Cost before = Run(survey, wires, batch, commits, false);
        const Cost after = Run(survey, wires, batch, commits, true);
        without.push_back(before.wall_us);
        with.push_back(after.wall_us);
        cpu_without.push_back(before.cpu_us);
        cpu_with.push_back(after.cpu_us);
      }
      SurveyAggregate aggregate(survey);
      for (int c = 0; c < commits; ++c) {
        for (int i = 0; i < batch; ++i) aggregate.Add(*ParseReport(survey, wires[static_cast<std::size_t>(i) % wires.size()]));
      }
      const std::size_t bytes = SerializeSurveyAggregate(survey, aggregate).size();
      const double a = Median(without), b = Median(with), ca = Median(cpu_without), cb = Median(cpu_with);
      std::printf("%-6s %6d %12.0f %12.0f %7.1f%% %12.0f %12.0f %7.1f%% %10zu\n", name, batch, a, b,
                  100.0 * (b - a) / a, ca, cb, 100.0 * (cb - ca) / ca, bytes);
    }
  }
  return 0;
}

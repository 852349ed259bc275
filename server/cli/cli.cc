#include "server/cli/cli.h"

#include <iostream>

#include "server/cli/advise_command.h"
#include "server/cli/cli_args.h"
#include "server/cli/export_command.h"
#include "server/cli/serve_command.h"
#include "server/cli/simulate_command.h"
#include "server/base/version.h"

namespace deniable::server {
namespace {

const char* const kUsage =
    "Usage: deniable <command> [options]\n"
    "\n"
    "Collect sensitive survey answers under local differential privacy.\n"
    "\n"
    "Commands:\n"
    "  serve      serve the survey pages and the HTTP API, store reports in SQLite\n"
    "  simulate   simulate respondents from a known truth and show estimation errors\n"
    "  advise     compare mechanisms for k options, epsilon and n respondents\n"
    "  export     write a survey's stored reports (CSV or JSON) and their codebook\n"
    "\n"
    "Run 'deniable <command> --help' for a command's options.\n"
    "  --help      this help\n"
    "  --version   print the version\n";

}  // namespace

int RunCli(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return kExitUsage;
  }
  const std::string& command = args.front();
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "deniable " << kVersion << std::endl;
    return 0;
  }
  if (command == "serve") return RunServeCommand(rest);
  if (command == "simulate") return RunSimulateCommand(rest);
  if (command == "advise") return RunAdviseCommand(rest);
  if (command == "export") return RunExportCommand(rest);
  std::cerr << "deniable: unknown command \"" << command << "\"\nRun 'deniable --help' for usage." << std::endl;
  return kExitUsage;
}

}  // namespace deniable::server

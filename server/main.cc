// The `deniable` binary: see server/cli/cli.h.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "server/cli/cli.h"

int main(int argc, char** argv) {
  try {
    return deniable::server::RunCli(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& error) {
    // A bug, never bad input (every input error is a Result): say so instead of aborting silently.
    std::cerr << "deniable: internal error: " << error.what() << " (please report it)" << std::endl;
    return 70;  // EX_SOFTWARE
  }
}

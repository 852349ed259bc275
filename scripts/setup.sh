#!/usr/bin/env bash
# Installs what Deniable needs on Debian 12: build tools and libraries from
# Debian's packages (only those missing), then the npm packages (npm ci).
# Idempotent and quick when everything is present.
#
# Usage: bash scripts/setup.sh [serve|all]
#   serve: what building and serving needs (npm start);
#   all:   also what the tests and benchmarks need (npm test): doctest,
#          chromium, nginx-light and wrk (the ingest baseline), sqlite3, curl,
#          postgresql (the tests' throw-away clusters: scripts/pg-cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE="${1:-all}"

PACKAGES=(
  build-essential cmake pkg-config ccache lld
  libcpp-httplib-dev zlib1g-dev libbrotli-dev nlohmann-json3-dev libeigen3-dev libsqlite3-dev libnlopt-dev libnlopt-cxx-dev
  libsodium-dev libpq-dev
  emscripten
)
# wasm/build-libsodium.sh: Debian's libsodium source package (apt-get source), unpacked and patched.
PACKAGES+=(debian-archive-keyring xz-utils patch)
if [ "$PROFILE" != "serve" ]; then
  PACKAGES+=(doctest-dev chromium nginx-light wrk sqlite3 curl postgresql)
fi

# One dpkg-query for all the packages (one per package cost a second of a
# warm `npm start`): it prints a line per known package; unknown ones are
# missing too.
missing=()
installed=" $({ dpkg-query -W -f='${Package}=${Status}\n' "${PACKAGES[@]}" 2>/dev/null || true; } |
  sed -n 's/=install ok installed$//p' | tr '\n' ' ') "
for package in "${PACKAGES[@]}"; do
  [[ $installed == *" $package "* ]] || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages (a few minutes the first time): ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  # nginx-light is only the benchmark's static baseline: do not leave a system nginx running.
  if [[ " ${missing[*]} " == *" nginx-light "* ]]; then
    $SUDO systemctl disable --now nginx >/dev/null 2>&1 || $SUDO service nginx stop >/dev/null 2>&1 || true
  fi
  # Nor a system PostgreSQL: the tests start their own clusters (scripts/pg-cluster.sh).
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    $SUDO systemctl disable --now postgresql >/dev/null 2>&1 || $SUDO service postgresql stop >/dev/null 2>&1 || true
  fi
fi

# npm ci only when node_modules is missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci (about a minute the first time)"
  npm ci --no-audit --no-fund
fi

#!/usr/bin/env bash
# Installs every Debian package kgen needs (apt-get update first, only when something is missing), then builds.
# Idempotent. `scripts/setup.sh --no-build` only installs.
set -euo pipefail
PACKAGES=(g++ binutils cmake make pkg-config libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev libsqlite3-dev libpq-dev postgresql python3-distributed libcurl4-openssl-dev libcpp-httplib-dev libtomlplusplus-dev libseccomp-dev libssl-dev bubblewrap python3 python3-torch python3-numpy python3-pip python3-venv python3-setuptools python3-wheel curl procps chromium)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

if [ "${1:-}" != "--no-build" ]; then
  cd "$(dirname "$0")/.."
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2
fi

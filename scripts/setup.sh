#!/usr/bin/env bash
# Installs every Debian package kgen needs (apt-get update first, only when something is missing), then builds.
# Idempotent. `scripts/setup.sh --no-build` only installs.
set -euo pipefail
PACKAGES=(g++ binutils cmake make pkg-config libfmt-dev nlohmann-json3-dev libcli11-dev libgtest-dev libbenchmark-dev libsqlite3-dev libpq-dev postgresql libcurl4-openssl-dev libcpp-httplib-dev libtomlplusplus-dev libseccomp-dev libssl-dev bubblewrap python3 python3-torch python3-numpy python3-scipy python3-pip python3-venv python3-setuptools python3-wheel curl procps chromium)
# Installed without their Recommends: Dask's client and workers (python3-distributed) need none of pandas and its
# ~80 recommended packages.
LEAN_PACKAGES=(python3-distributed)
missing=() lean=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
for p in "${LEAN_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || lean+=("$p")
done
if [ $((${#missing[@]} + ${#lean[@]})) -gt 0 ]; then
  echo "setup: installing ${missing[*]} ${lean[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  [ ${#missing[@]} -gt 0 ] && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
  [ ${#lean[@]} -gt 0 ] && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${lean[@]}"
fi

if [ "${1:-}" != "--no-build" ]; then
  cd "$(dirname "$0")/.."
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j2
fi

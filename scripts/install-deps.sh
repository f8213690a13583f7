#!/usr/bin/env bash
# Installs exactly the Debian packages SpaceFusion-MLIR needs to build and test.
# Idempotent: packages already present are skipped, and apt is not touched at all
# when nothing is missing.
set -euo pipefail

PACKAGES=(
  # Build.
  cmake ninja-build g++
  # LLVM/MLIR 22: headers, the MLIR dylib, mlir-tblgen, lit/FileCheck/not.
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22
  # The MLIR dylib's link dependencies as shipped by Debian's cmake exports.
  libzstd-dev zlib1g-dev libcurl4-openssl-dev libedit-dev libxml2-dev libffi-dev
  # Python for lit, and for the Python package and its tests (Debian's
  # python3 at /usr/bin/python3; no PyPI).
  python3 python3-numpy python3-pytest
  # pip and setuptools: the install test installs the package with `pip install`.
  python3-pip python3-setuptools
  # torch (CPU) for the tests of the torch-tensor entry points.
  python3-torch
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages already installed"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs the Debian 12 packages gaugefix builds and tests with (run as root).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends \
  build-essential meson ninja-build pkg-config \
  libopenmpi-dev openmpi-bin libhdf5-openmpi-dev libyaml-cpp-dev librandom123-dev \
  libcli11-dev libfmt-dev libgtest-dev zlib1g-dev libxml2-dev libfftw3-dev \
  slurm-wlm munge python3-dev python3-pybind11 python3-numpy python3-pytest python3-matplotlib \
  python3-venv python3-mesonpy

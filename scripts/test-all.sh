#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what the tests need, then builds
# and tests all modules (core, Beam transforms on the Direct, Flink and Spark runners, samples).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp verify "$@"

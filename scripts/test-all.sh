#!/usr/bin/env bash
# Runs every test of the project: `mvn verify` over every module of the root pom (core, the Beam
# transforms and their Flink and Spark runners, samples, the Hop plugin, the command line,
# Hop on Beam and its runners, the benchmarks and the assemblies), downloading what Maven needs.
# Extra arguments go to Maven, e.g. `scripts/test-all.sh -o` to build offline.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp verify "$@"

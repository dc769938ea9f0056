# Sourced by the command line's benchmarks: builds core and cli with their test classes (the data
# generator and the harnesses) and sets the class paths to run them with.
#   build_cli_bench ROOT DIR    (MVN_FLAGS adds Maven flags, e.g. -o)
# sets cp (the command as the launcher runs it: the module's classes and its runtime classpath, no
# test jars), local_jvm_options (the launcher's JVM options for the local runner, as ./eventtime gives them)
# and test_cp (the test classes, the test broker's and their classpath).
build_cli_bench() {
  local root="$1" dir="$2"
  # shellcheck disable=SC2086
  mvn -q -B ${MVN_FLAGS:-} -f "$root/pom.xml" -pl cli -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile="$dir/classpath-test.txt" >&2
  cp="$root/cli/target/classes:$root/core/target/classes:$(cat "$root/cli/target/classpath.txt")"
  . "$root/cli/src/main/launcher/local-jvm-options.sh"
  read_local_jvm_options "$root/cli/src/main/launcher/local-jvm-options"
  test_cp="$root/cli/target/test-classes:$root/testing/kafka-broker/target/classes:$(cat "$dir/classpath-test.txt")"
}

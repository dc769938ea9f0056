# Sourced by the command line's benchmarks: builds core and cli with their test classes (the data
# generator and the harnesses) and sets the class paths to run them with.
#   build_cli_bench ROOT DIR    (MVN_FLAGS adds Maven flags, e.g. -o)
# sets cp (the command as the launcher runs it: the two modules' jars and cli's runtime classpath, no
# test jars), local_jvm_options and class_data_options (the launcher's JVM options for the local runner
# and its class-data archive, made in DIR, as ./eventtime gives them) and test_cp (the test classes, the
# test broker's and their classpath).
build_cli_bench() {
  local root="$1" dir="$2"
  # shellcheck disable=SC2086
  mvn -q -B ${MVN_FLAGS:-} -f "$root/pom.xml" -pl cli -am package dependency:build-classpath -DskipTests \
    -Djacoco.skip=true -Dmdep.includeScope=test -Dmdep.outputFile="$dir/classpath-test.txt" >&2
  cp="$(command_jars "$root"):$(cat "$root/cli/target/classpath.txt")"
  . "$root/cli/src/main/launcher/local-jvm-options.sh"
  read_local_jvm_options "$root/cli/src/main/launcher/local-jvm-options"
  # shellcheck disable=SC2086
  prepare_class_data java "$cp" "$dir" ${local_jvm_options[@]+"${local_jvm_options[@]}"} ${EVENTTIME_JAVA_OPTS:-}
  test_cp="$root/cli/target/test-classes:$root/testing/kafka-broker/target/classes:$(cat "$dir/classpath-test.txt")"
}

# command_jars ROOT: the cli and core jars of a built checkout, as ./eventtime finds them
command_jars() {
  local root="$1" module jar jars=""
  for module in cli core; do
    jar="$(ls "$root/$module"/target/eventtime-*.jar 2>/dev/null | grep -v -e '-sources' -e '-tests' -e '-javadoc' \
      | head -n 1 || true)"
    [[ -n "$jar" ]] || { echo "no $module jar in $root: build it with mvn -pl cli -am package -DskipTests" >&2; return 1; }
    jars+="${jars:+:}$jar"
  done
  printf '%s' "$jars"
}

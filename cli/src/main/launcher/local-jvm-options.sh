# Sourced by the eventtime launchers and the command's benchmark scripts: the JVM options of the
# local runner, read from local-jvm-options beside this file (or the file given).
#   read_local_jvm_options FILE
# sets the array local_jvm_options to the file's options (one a line, blank lines and # comments
# skipped), or to none when the user's options (EVENTTIME_JAVA_OPTS, JDK_JAVA_OPTIONS,
# JAVA_TOOL_OPTIONS, _JAVA_OPTIONS) name a garbage collector: the JVM refuses two. Bash 3.2 takes it.
read_local_jvm_options() {
  local user="${EVENTTIME_JAVA_OPTS:-} ${JDK_JAVA_OPTIONS:-} ${JAVA_TOOL_OPTIONS:-} ${_JAVA_OPTIONS:-}"
  local collector='(^|[[:space:]])-XX:\+Use(Serial|Parallel|G1|Z|Shenandoah|Epsilon)GC([[:space:]]|$)'
  local option
  local_jvm_options=()
  if [[ "$user" =~ $collector ]]; then
    return 0
  fi
  while IFS= read -r option || [[ -n "$option" ]]; do
    option="${option%$'\r'}"
    option="${option#"${option%%[![:space:]]*}"}"
    option="${option%"${option##*[![:space:]]}"}"
    case "$option" in '' | '#'*) ;; *) local_jvm_options+=("$option") ;; esac
  done <"$1"
}

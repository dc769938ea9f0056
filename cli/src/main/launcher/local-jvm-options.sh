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

# prepare_class_data JAVA CLASSPATH DIR [JVM_OPTION ...]
# sets the array class_data_options to the options that start the local runner's JVM from a
# class-data archive of the command's classes (Java's application class-data sharing: the classes
# read, verified and linked once, not on every start; a run over a small file starts about a
# quarter faster), or to none. The archive is made in DIR on first use and made again when a jar
# of CLASSPATH or the java binary is newer: a short run of the command over a few made-up lines
# (JVM_OPTIONS as the real run's, its output discarded), then a JVM started from the new archive
# to check it, then a move into place, so that no torn archive is ever where the launchers look
# (a JVM given one crashes). No archive when EVENTTIME_NO_CLASS_DATA is set, when the user's
# options set class-data sharing themselves, when CLASSPATH holds anything but jars, or when it
# cannot be made (then not tried again until a jar changes). A stale or foreign archive is never
# an error: the JVM then starts without it, and -Xlog:cds*=off keeps its warnings off stdout.
prepare_class_data() {
  local java="$1" classpath="$2" dir="$3"
  shift 3
  class_data_options=()
  local user="${EVENTTIME_JAVA_OPTS:-} ${JDK_JAVA_OPTIONS:-} ${JAVA_TOOL_OPTIONS:-} ${_JAVA_OPTIONS:-}"
  local sharing='(-Xshare|SharedArchiveFile|ArchiveClassesAtExit|SharedClassListFile|DumpLoadedClassList)'
  if [[ -n "${EVENTTIME_NO_CLASS_DATA:-}" || "$user" =~ $sharing ]]; then
    return 0
  fi
  local entries entry
  IFS=: read -r -a entries <<<"$classpath"
  for entry in "${entries[@]}"; do
    [[ "$entry" == *.jar && -f "$entry" ]] || return 0
  done
  local binary
  binary="$(command -v "$java" 2>/dev/null)" || return 0
  binary="$(readlink -f "$binary" 2>/dev/null || printf '%s' "$binary")"
  local archive
  archive="$dir/eventtime-local-$(printf '%s|%s' "$classpath" "$binary" | cksum | cut -d ' ' -f 1).jsa"
  if [[ ! -f "$archive" || -n "$(find "${entries[@]}" "$binary" -newer "$archive" -print -quit 2>/dev/null)" ]]; then
    if [[ -f "$archive.failed" && -z "$(find "${entries[@]}" "$binary" -newer "$archive.failed" -print -quit 2>/dev/null)" ]]; then
      return 0
    fi
    if ! make_class_data_archive "$java" "$classpath" "$archive" "$@"; then
      touch "$archive.failed" 2>/dev/null || true
      return 0
    fi
    rm -f "$archive.failed"
  fi
  class_data_options=("-XX:SharedArchiveFile=$archive" "-Xlog:cds*=off")
}

# make_class_data_archive JAVA CLASSPATH ARCHIVE [JVM_OPTION ...]: see prepare_class_data
make_class_data_archive() {
  local java="$1" classpath="$2" archive="$3"
  shift 3
  # a folder it cannot write is not tried: no archive could be kept there, nor the mark of a failure
  mkdir -p "$(dirname "$archive")" 2>/dev/null && [[ -w "$(dirname "$archive")" ]] || return 1
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/eventtime-class-data.XXXXXX" 2>/dev/null)" || return 1
  local partial="$archive.$$.partial" made=1
  printf '%s\n' '{"k":"a","v":3,"t":"2026-07-18 10:00:03"}' '{"k":"b","v":4.5,"t":"2026-07-18 10:00:07"}' \
    '{"k":"a","v":1,"t":"2026-07-18 10:01:12"}' >"$work/events.ndjson"
  if "$java" "$@" "-XX:ArchiveClassesAtExit=$partial" "-Xlog:cds*=off" "-XX:ErrorFile=$work/crash.log" \
      -cp "$classpath" io.eventtime.cli.Main \
      --from "$work/events.ndjson" --table events \
      "SELECT k, TUMBLE(t, INTERVAL 1 MINUTE) AS w, count(*) AS n, sum(v) AS s FROM events GROUP BY k, TUMBLE(t, INTERVAL 1 MINUTE)" \
      >/dev/null 2>&1 </dev/null &&
    # the check runs in a subshell, its output discarded (so is the shell's own note of a JVM that
    # crashed); a JVM's crash report goes to the work folder, not to the user's
    ("$java" "$@" "-XX:SharedArchiveFile=$partial" "-Xlog:cds*=off" "-XX:ErrorFile=$work/crash.log" \
      -XX:-CreateCoredumpOnCrash -cp "$classpath" -version; exit $?) >/dev/null 2>&1 &&
    mv -f "$partial" "$archive" 2>/dev/null; then
    made=0
  fi
  rm -rf "$work"
  rm -f "$partial"
  return "$made"
}

# Sourced by ./mvnw, ./mailrestore, ./benchmark and .ci/run. Sets JAVA_HOME to a JDK 21 or newer, or fails saying why.
# Order: JAVA_HOME when it is new enough; the newest JDK under /usr/lib/jvm; macOS's java_home;
# the java on the PATH.

jdk_release_version() {
  # Prints the JAVA_VERSION of the JDK at $1 (25.0.3) from its release file, or nothing. Read by
  # the shell alone (POSIX sh, as ./mvnw sources this too): a launcher reads it for every JDK it
  # looks at, and each program started costs milliseconds of every command.
  local line
  [ -f "$1/release" ] || return 0
  while IFS= read -r line || [ -n "$line" ]; do
    case $line in
      JAVA_VERSION=\"*)
        line=${line#JAVA_VERSION=\"}
        echo "${line%%\"*}"
        return 0
        ;;
    esac
  done <"$1/release"
}

java_major() {
  # Prints the feature version of a java binary (17, 21, 25...), or nothing. The JDK's release
  # file says it without starting a JVM.
  local version
  version=$(jdk_release_version "${1%/bin/java}")
  version=${version%%[!0-9]*}
  if [ -n "$version" ]; then
    echo "$version"
    return 0
  fi
  "$1" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java\.specification\.version = \([0-9][0-9]*\).*/\1/p' | head -n 1
}

find_jdk() {
  local wanted=21 candidate major best="" best_major=0
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    major=$(java_major "$JAVA_HOME/bin/java")
    if [ "${major:-0}" -ge "$wanted" ]; then
      return 0
    fi
    echo "JAVA_HOME=$JAVA_HOME is Java ${major:-unknown}; mailrestore needs $wanted or newer, looking for one" >&2
  fi
  for candidate in /usr/lib/jvm/*/bin/java; do
    [ -x "$candidate" ] || continue
    major=$(java_major "$candidate")
    if [ "${major:-0}" -gt "$best_major" ]; then
      best_major=$major
      best=${candidate%/bin/java}
    fi
  done
  if [ "$best_major" -lt "$wanted" ] && [ -x /usr/libexec/java_home ]; then
    candidate=$(/usr/libexec/java_home -v "$wanted+" 2>/dev/null || true)
    if [ -n "$candidate" ]; then
      best=$candidate
      best_major=$(java_major "$candidate/bin/java")
    fi
  fi
  if [ "$best_major" -lt "$wanted" ] && command -v java >/dev/null 2>&1; then
    candidate=$(command -v java)
    major=$(java_major "$candidate")
    if [ "${major:-0}" -ge "$wanted" ]; then
      best=$(dirname "$(dirname "$(readlink -f "$candidate")")")
      best_major=$major
    fi
  fi
  if [ "${best_major:-0}" -lt "$wanted" ]; then
    echo "error: no JDK $wanted or newer found (looked at JAVA_HOME, /usr/lib/jvm, the PATH)." >&2
    echo "       Install one (Eclipse Temurin $wanted or newer from https://adoptium.net, or your" >&2
    echo "       distribution's openjdk-$wanted-jdk) under /usr/lib/jvm, or set JAVA_HOME to it." >&2
    return 1
  fi
  export JAVA_HOME=$best
}

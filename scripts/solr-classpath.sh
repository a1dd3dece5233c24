# Sourced by scripts/solr-bench and scripts/solr-dev-cluster: selects a JDK >= 21, builds memloop-store-solr with
# its test classes (and what it depends on) when they are missing or older than their sources, and sets SOLR_CP to
# the classpath that runs them (the in-JVM SolrCloud of the tests included). Maven flags: MAVEN_ARGS (e.g. -o).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/select-jdk.sh
. "$ROOT/scripts/select-jdk.sh"
MODULE="$ROOT/memloop-store-solr"
CLASSPATH_FILE="$MODULE/target/test-classpath.txt"
LOG="$ROOT/.build/solr-build.log"
mkdir -p "$ROOT/.build"
solr_build_stale() { # no classpath yet, or a source or pom of the modules it runs changed since it was written
  [ ! -f "$CLASSPATH_FILE" ] && return 0
  [ -n "$(find "$ROOT/pom.xml" "$ROOT/memloop-core" "$ROOT/memloop-store-solr" \( -path '*/target' -prune \) -o \
    \( -path '*/src/*' -o -name pom.xml \) -type f -newer "$CLASSPATH_FILE" -print -quit)" ]
}
if solr_build_stale; then
  echo "$(basename "$0"): building memloop-store-solr (with its test classes) and what it depends on, once (about 2 minutes) ..." >&2
  # shellcheck disable=SC2086
  if ! (cd "$ROOT" \
      && ./mvnw -q -B ${MAVEN_ARGS:-} -DskipTests -pl memloop-store-solr -am install \
      && ./mvnw -q -B ${MAVEN_ARGS:-} -pl memloop-store-solr dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$CLASSPATH_FILE") >"$LOG" 2>&1; then
    tail -n 40 "$LOG" >&2
    echo "$(basename "$0"): build failed; full log in $LOG" >&2
    exit 1
  fi
  touch "$CLASSPATH_FILE"   # the plugin keeps an unchanged file's old time: mark this build as the newest
fi
SOLR_CP="$MODULE/target/test-classes:$MODULE/target/classes:$(cat "$CLASSPATH_FILE")"

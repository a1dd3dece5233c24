# Sourced by ./memloop and .ci/run: exports JAVA_HOME pointing at a JDK >= 21.
# Order: $JAVA_HOME, the java on PATH, then the newest JDK found under the usual install roots.
# (The machine's default java may be 17; MemLoop needs 21 or newer.)

memloop_java_major() { # prints the feature version of the java binary $1, or 0
  local v
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n 1)
  case "$v" in
    1.*) echo 0 ;;
    [0-9]*) echo "$v" ;;
    *) echo 0 ;;
  esac
}

memloop_select_jdk() {
  local candidate best="" best_major=0 major
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    major=$(memloop_java_major "$JAVA_HOME/bin/java")
    if [ "$major" -ge 21 ]; then return 0; fi
  fi
  if command -v javac >/dev/null 2>&1; then
    candidate=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    major=$(memloop_java_major "$candidate/bin/java")
    if [ "$major" -ge 21 ]; then export JAVA_HOME="$candidate"; return 0; fi
  fi
  # Linux packages and tarballs, SDKMAN, IntelliJ's downloads; on macOS the installers' and Homebrew's places.
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* \
      /Library/Java/JavaVirtualMachines/*/Contents/Home "$HOME"/Library/Java/JavaVirtualMachines/*/Contents/Home \
      /opt/homebrew/opt/openjdk*/libexec/openjdk.jdk/Contents/Home /usr/local/opt/openjdk*/libexec/openjdk.jdk/Contents/Home; do
    [ -x "$candidate/bin/javac" ] || continue
    major=$(memloop_java_major "$candidate/bin/java")
    if [ "$major" -gt "$best_major" ]; then best="$candidate"; best_major="$major"; fi
  done
  if [ "$best_major" -ge 21 ]; then export JAVA_HOME="$best"; return 0; fi
  echo "memloop: no JDK 21 or newer found (looked at JAVA_HOME, PATH, /usr/lib/jvm, SDKMAN and, on macOS, /Library/Java/JavaVirtualMachines and Homebrew); install one and set JAVA_HOME" >&2
  return 1
}

memloop_select_jdk

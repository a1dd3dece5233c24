package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.store.lucene.LuceneStore;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java example, compiled and run as printed: the test reads the ```java block of the
 * section "Using it from Java", wraps it in a method that supplies its free variables ({@code task},
 * {@code agent}, {@code distilled}), compiles it against the modules and runs it twice on a temporary
 * store. Only the store path is changed (from {@code memloop-data} to the temporary directory).
 */
class ReadmeJavaExampleTest {
  @TempDir Path dir;

  static String readmeExample() throws Exception {
    Path readme = Path.of("..", "README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    int section = text.indexOf("## Using it from Java");
    assertThat(section).as("README section 'Using it from Java'").isNotNegative();
    Matcher m = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(text);
    assertThat(m.find(section)).as("a ```java block in that section").isTrue();
    return m.group(1);
  }

  /** The example's import lines (they go at the top of the compiled file) and the rest (the method body). */
  static List<String> imports(String example) {
    return example.lines().filter(l -> l.startsWith("import ")).toList();
  }

  static String body(String example) {
    return String.join("\n", example.lines().filter(l -> !l.startsWith("import ")).toList()).strip() + "\n";
  }

  @Test
  void theConsumerProject_runsTheSameCode() throws Exception {
    String example = readmeExample();
    String consumer = Files.readString(
        Path.of("..", "examples", "java-consumer", "src", "main", "java", "example", "Quickstart.java"), StandardCharsets.UTF_8);
    assertThat(imports(example)).as("the README's example names its imports").isNotEmpty();
    assertThat(consumer.lines().toList()).as("examples/java-consumer imports what the README's example imports")
        .containsAll(imports(example));
    List<String> code = body(example).lines().map(String::strip).toList();
    List<String> consumerCode = consumer.lines().map(String::strip).toList();
    assertThat(java.util.Collections.indexOfSubList(consumerCode, code.subList(0, code.size() - 1)))
        .as("examples/java-consumer's Quickstart holds the README's example line for line (its closing brace aside)")
        .isNotNegative();
  }

  @Test
  void theJavaExampleCompilesAndLearns() throws Exception {
    String example = readmeExample();
    String snippet = body(example);
    assertThat(snippet).contains("Path.of(\"memloop-data\")");
    String store = dir.resolve("memloop-data").toString().replace("\\", "\\\\");
    String source = """
        package readme;
        import io.memloop.*;
        import io.memloop.store.*;
        import io.memloop.store.lucene.*;
        import io.memloop.embeddings.*;
        import java.nio.file.Path;
        import java.util.function.BiPredicate;
        %s
        public final class Example {
          public static void run(String task, BiPredicate<String, Object> agentRun, String distilled) {
            interface Agent { boolean run(String task, Object shown); }
            Agent agent = agentRun::test;
        %s
          }
        }
        """.formatted(String.join("\n", imports(example)), snippet.replace("Path.of(\"memloop-data\")", "Path.of(\"" + store + "\")"));
    Path src = dir.resolve("src/readme/Example.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, source, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    boolean compiled = javac.getTask(diagnostics, null, null,
        List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(), "-proc:none"),
        null, javac.getStandardFileManager(null, null, StandardCharsets.UTF_8).getJavaFileObjects(src)).call();
    assertThat(compiled).as("the README's Java example compiles:%n%s", diagnostics).isTrue();

    List<Object> shown = new ArrayList<>();
    BiPredicate<String, Object> agent = (task, selected) -> {
      shown.add(selected);
      return true;
    };
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method run = loader.loadClass("readme.Example").getMethod("run", String.class, BiPredicate.class, String.class);
      run.invoke(null, "Restart the billing service in staging", agent, "kubectl rollout restart deploy/billing -n staging");
      run.invoke(null, "Restart billing in the staging cluster", agent, "kubectl rollout restart deploy/billing -n staging");
    }

    assertThat(shown).hasSize(2);
    assertThat((List<?>) shown.get(0)).as("nothing to show on an empty store").isEmpty();
    assertThat((List<?>) shown.get(1)).as("the first run's experience is shown the second time").hasSize(1);
    List<Memory> memories = new ArrayList<>();
    try (LuceneStore s = LuceneStore.open(dir.resolve("memloop-data"))) {
      s.forEachMemory("team-a", memories::add);
    }
    assertThat(memories).hasSize(2);
    assertThat(memories.get(0).visits()).as("the shown memory was rewarded").isEqualTo(1);
    assertThat(memories.get(0).q()).as("and its utility rose").isPositive();
  }
}

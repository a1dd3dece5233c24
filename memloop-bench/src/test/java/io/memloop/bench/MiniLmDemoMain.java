package io.memloop.bench;

import io.memloop.embeddings.MiniLmEmbedder;

/**
 * Not a test: runs the demo with the real MiniLM model for seeds 1..N and prints the tables and the
 * wall time, to check the numbers and the runtime budget by hand.
 *
 * <pre>
 * ./mvnw -q -pl memloop-bench -am test-compile
 * java -cp "$(cat cp.txt):memloop-bench/target/classes:memloop-bench/target/test-classes" \
 *     io.memloop.bench.MiniLmDemoMain [seeds=3] [staleShare=default]
 * </pre>
 */
final class MiniLmDemoMain {
  private MiniLmDemoMain() {}

  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    DemoOptions options = DemoOptions.defaults();
    if (args.length > 1) {
      options = options.withStaleShare(Double.parseDouble(args[1]));
    }
    long start = System.nanoTime();
    try (MiniLmEmbedder model = MiniLmEmbedder.create()) {
      System.out.printf("model loaded in %d ms%n", (System.nanoTime() - start) / 1_000_000);
      for (long seed = 1; seed <= seeds; seed++) {
        long t = System.nanoTime();
        DemoReport report = Demo.run(model, options.withSeed(seed));
        System.out.print(report.toTable());
        System.out.printf("(%d ms)%n%n", (System.nanoTime() - t) / 1_000_000);
      }
    }
    System.out.printf("total %d ms%n", (System.nanoTime() - start) / 1_000_000);
  }
}

package io.memloop.jmh;

import io.memloop.store.lucene.VectorFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * Where the benchmark stores live. {@link BuildStore} builds each (size, seed) once into {@link
 * #built}; benchmarks that write (retrievals, rewards, the checkpoint on close) work on a fresh
 * {@link #scratchCopy} so that every run starts from the same bytes and the cached store never grows.
 * Paths are relative to the working directory: run everything from the repository root.
 */
final class Stores {
  static final String NAMESPACE = "bench";
  static final long DEFAULT_SEED = 42L;
  /** Above 1, no intent ever merges: n memories make n intents, the hardest case for Phase A. */
  static final double NO_MERGE = 1.01;

  private static final Path ROOT = Path.of("memloop-jmh", "target", "stores");

  private Stores() {}

  static Path built(int size, long seed) {
    return built(size, seed, VectorFormat.FLOAT32);
  }

  /** The store of {@code size} memories of {@code seed} whose index holds vectors in {@code format}. */
  static Path built(int size, long seed, VectorFormat format) {
    return ROOT.resolve(name(size, seed, format));
  }

  private static String name(int size, long seed, VectorFormat format) {
    return "clustered-" + size + "-seed" + seed + (format == VectorFormat.FLOAT32 ? "" : "-" + format.id());
  }

  /** Written by {@link BuildStore} after a clean close; a store without it is not used. */
  static Path doneMarker(int size, long seed, VectorFormat format) {
    return ROOT.resolve(name(size, seed, format) + ".done");
  }

  static Path requireBuilt(int size, long seed, VectorFormat format) {
    if (!Files.exists(doneMarker(size, seed, format))) {
      throw new IllegalStateException("no complete store at " + built(size, seed, format).toAbsolutePath()
          + "; build it first: scripts/jmh --main io.memloop.jmh.BuildStore " + size + " " + seed
          + (format == VectorFormat.FLOAT32 ? "" : " 10000 1 " + format.id()));
    }
    return built(size, seed, format);
  }

  /** Copies the built store to {@code scratch-<name>} (replacing any previous copy). */
  static Path scratchCopy(int size, long seed, String name) {
    return scratchCopy(size, seed, VectorFormat.FLOAT32, name);
  }

  /** Copies the built store of {@code format} to {@code scratch-<name>} (replacing any previous copy). */
  static Path scratchCopy(int size, long seed, VectorFormat format, String name) {
    Path from = requireBuilt(size, seed, format);
    Path to = ROOT.resolve("scratch-" + name + "-" + size);
    delete(to);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().endsWith(".lock")) {
          Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("copying " + from + " to " + to, e);
    }
    return to;
  }

  static void delete(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try {
      Files.walkFileTree(dir, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
          Files.delete(d);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("deleting " + dir, e);
    }
  }

  static long sizeBytes(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

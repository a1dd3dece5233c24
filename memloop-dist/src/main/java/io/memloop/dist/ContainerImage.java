package io.memloop.dist;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import com.google.cloud.tools.jib.api.buildplan.Port;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds MemLoop's container image without a container engine: Jib writes an OCI image tarball from
 * scratch with three layers — the system libraries the Java runtime links against (staged by
 * {@code scripts/image}), the jlink runtime of {@code scripts/release}, and the command's jar. The
 * image runs {@code memloop serve} as user 1000 on port 7070 with its store and keys under the volume
 * {@code /data}; {@code docker load < memloop-image.tar} loads it.
 *
 * <p>Usage: {@code ContainerImage ROOTFS RELEASE OUTPUT.tar NAME:TAG}, where ROOTFS holds the system
 * files (laid out from {@code /}) and RELEASE the unpacked release ({@code runtime/}, {@code lib/memloop.jar}).
 */
public final class ContainerImage {
  /** The user the image runs as: not root. */
  public static final String USER = "1000:1000";
  /** Where the store, the keys file and every cache live: mount a volume here. */
  public static final String DATA = "/data";
  /** The port {@code serve} listens on inside the container. */
  public static final int PORT = 7070;
  static final String INSTALL = "/opt/memloop";
  /** The user's own directories: the data volume, its home (the native libraries' caches) and /tmp. */
  static final List<String> OWNED = List.of(DATA, "/home/memloop", "/tmp");

  private ContainerImage() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: ContainerImage ROOTFS RELEASE OUTPUT.tar NAME:TAG");
      System.exit(2);
    }
    build(Path.of(args[0]), Path.of(args[1]), Path.of(args[2]), args[3]);
    System.err.println("image: " + args[3] + " written to " + args[2]);
  }

  /** The image's configuration and layers, ready to containerize (separate so tests can read it). */
  static JibContainerBuilder plan(Path rootfs, Path release, String version) throws IOException {
    require(rootfs.resolve("etc/passwd"), "ROOTFS");
    require(release.resolve("runtime/bin/java"), "RELEASE");
    require(release.resolve("lib/memloop.jar"), "RELEASE");
    return Jib.fromScratch()
        .setFormat(ImageFormat.Docker)
        .addFileEntriesLayer(layer("system", rootfs, AbsoluteUnixPath.get("/")))
        .addFileEntriesLayer(layer("runtime", release.resolve("runtime"), AbsoluteUnixPath.get(INSTALL + "/runtime")))
        .addFileEntriesLayer(FileEntriesLayer.builder().setName("memloop")
            .addEntry(release.resolve("lib/memloop.jar"), AbsoluteUnixPath.get(INSTALL + "/lib/memloop.jar"),
                FilePermissions.fromOctalString("644"))
            .build())
        .setEntrypoint(List.of(INSTALL + "/runtime/bin/java", "--enable-native-access=ALL-UNNAMED",
            "--add-modules", "jdk.incubator.vector", "-jar", INSTALL + "/lib/memloop.jar"))
        .setProgramArguments(List.of("serve", "--store", DATA + "/store", "--keys", DATA + "/memloop-keys.json",
            "--host", "0.0.0.0", "--port", Integer.toString(PORT)))
        .addEnvironmentVariable("HOME", "/home/memloop")
        .addEnvironmentVariable("LANG", "C.UTF-8")
        .setUser(USER)
        .setWorkingDirectory(AbsoluteUnixPath.get(DATA))
        .addVolume(AbsoluteUnixPath.get(DATA))
        .addExposedPort(Port.tcp(PORT))
        .addLabel("org.opencontainers.image.title", "memloop")
        .addLabel("org.opencontainers.image.description",
            "MemLoop: runtime reinforcement learning over an agent experience memory (memloop serve)")
        .addLabel("org.opencontainers.image.version", version)
        .addLabel("org.opencontainers.image.licenses", "Apache-2.0");
  }

  static void build(Path rootfs, Path release, Path output, String reference) throws Exception {
    String version = reference.contains(":") ? reference.substring(reference.lastIndexOf(':') + 1) : "latest";
    plan(rootfs, release, version).containerize(Containerizer.to(TarImage.at(output).named(reference)));
  }

  /**
   * A layer of a whole directory tree, keeping each file's permission bits (the runtime's binaries must stay
   * executable); the directories in {@link #OWNED} and their contents belong to the image's user.
   */
  private static FileEntriesLayer layer(String name, Path source, AbsoluteUnixPath target) throws IOException {
    FileEntriesLayer.Builder layer = FileEntriesLayer.builder().setName(name);
    // "/" itself is no entry of a layer: its children are
    List<Path> roots;
    if (target.toString().equals("/")) {
      try (var children = Files.list(source)) {
        roots = children.sorted().toList();
      }
    } else {
      roots = List.of(source);
    }
    for (Path root : roots) {
      AbsoluteUnixPath at = root.equals(source) ? target : target.resolve(root.getFileName().toString());
      layer.addEntryRecursive(root, at,
          (file, path) -> permissionsOf(file),
          (file, path) -> java.time.Instant.ofEpochSecond(1),
          (file, path) -> OWNED.stream().anyMatch(dir -> path.toString().equals(dir) || path.toString().startsWith(dir + "/"))
              ? USER : "");
    }
    return layer.build();
  }

  private static FilePermissions permissionsOf(Path file) {
    try {
      int mode = (Integer) Files.getAttribute(file, "unix:mode", LinkOption.NOFOLLOW_LINKS);
      return FilePermissions.fromOctalString(String.format("%03o", mode & 0777));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (UnsupportedOperationException e) {
      return Files.isDirectory(file) ? FilePermissions.DEFAULT_FOLDER_PERMISSIONS : FilePermissions.DEFAULT_FILE_PERMISSIONS;
    }
  }

  private static void require(Path file, String what) {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(what + ": " + file + " is missing");
    }
  }
}

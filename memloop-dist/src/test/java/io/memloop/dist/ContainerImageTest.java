package io.memloop.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image tarball from a small stand-in release: what a container engine would read from it. */
class ContainerImageTest {
  @TempDir Path dir;

  @Test
  void image_runsServeAsNonRootWithTheStoreOnAVolume_andKeepsExecutableBits() throws Exception {
    Path rootfs = Files.createDirectories(dir.resolve("rootfs"));
    Files.createDirectories(rootfs.resolve("etc"));
    Files.writeString(rootfs.resolve("etc/passwd"), "memloop:x:1000:1000::/home/memloop:/sbin/nologin\n");
    Files.createDirectories(rootfs.resolve("data"));
    Path release = dir.resolve("release");
    Files.createDirectories(release.resolve("runtime/bin"));
    Files.createDirectories(release.resolve("lib"));
    Path java = Files.writeString(release.resolve("runtime/bin/java"), "#!/bin/false\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(release.resolve("lib/memloop.jar"), "jar");
    Path tar = dir.resolve("image.tar");

    ContainerImage.build(rootfs, release, tar, "memloop:9.9.9");

    Map<String, byte[]> files = untar(Files.newInputStream(tar), false);
    JsonNode manifest = new ObjectMapper().readTree(files.get("manifest.json")).get(0);
    assertThat(manifest.get("RepoTags").get(0).asText()).isEqualTo("memloop:9.9.9");
    JsonNode config = new ObjectMapper().readTree(files.get(manifest.get("Config").asText())).get("config");
    assertThat(config.get("User").asText()).isEqualTo("1000:1000");
    assertThat(config.get("ExposedPorts").has("7070/tcp")).isTrue();
    assertThat(config.get("Volumes").has("/data")).isTrue();
    assertThat(config.get("Entrypoint").get(0).asText()).isEqualTo("/opt/memloop/runtime/bin/java");
    assertThat(config.get("Cmd").toString()).contains("\"serve\"", "\"/data/store\"", "\"0.0.0.0\"");

    Map<String, TarArchiveEntry> entries = new HashMap<>();
    for (JsonNode layer : manifest.get("Layers")) {
      try (var in = new TarArchiveInputStream(new GZIPInputStream(new java.io.ByteArrayInputStream(files.get(layer.asText()))))) {
        for (TarArchiveEntry e; (e = in.getNextEntry()) != null; ) {
          entries.put(e.getName().replaceAll("/$", ""), e);
        }
      }
    }
    assertThat(entries.get("opt/memloop/runtime/bin/java").getMode() & 0777).isEqualTo(0755);
    assertThat(entries.get("data").getLongUserId()).isEqualTo(1000);
    assertThat(entries.get("etc/passwd").getLongUserId()).isZero();
    assertThat(entries).containsKey("opt/memloop/lib/memloop.jar");
  }

  @Test
  void aReleaseWithoutItsRuntime_isRefusedNamingWhatIsMissing() throws Exception {
    Path rootfs = Files.createDirectories(dir.resolve("rootfs/etc"));
    Files.writeString(rootfs.resolve("passwd"), "");
    assertThatThrownBy(() -> ContainerImage.build(dir.resolve("rootfs"), dir.resolve("nothing"), dir.resolve("x.tar"), "m:1"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runtime/bin/java");
  }

  private static Map<String, byte[]> untar(InputStream raw, boolean gzip) throws IOException {
    Map<String, byte[]> out = new HashMap<>();
    try (var in = new TarArchiveInputStream(gzip ? new GZIPInputStream(raw) : raw)) {
      for (TarArchiveEntry e; (e = in.getNextEntry()) != null; ) {
        out.put(e.getName(), in.readAllBytes());
      }
    }
    return out;
  }

}

package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Checks;
import io.memloop.MemLoopException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * API keys and the namespaces each may use. Keys are stored only as SHA-256 hashes (a key is 256 random
 * bits, so a fast hash is enough: there is nothing to guess); the key itself is shown once, when
 * created. The file is JSON:
 *
 * <pre>{@code
 * {"version": 1, "keys": [{"name": "agent-a", "sha256": "<64 hex>", "namespaces": ["team-a"]}]}
 * }</pre>
 *
 * A namespace entry {@code "*"} grants every namespace (an operator key). Immutable; {@link #with} and
 * {@link #without} return changed copies, {@link #save} writes one atomically with owner-only permissions.
 */
public final class ApiKeys {
  /** What a presented key may do. */
  public record Grant(String name, Set<String> namespaces) {
    public Grant {
      namespaces = Set.copyOf(namespaces);
    }

    public boolean allows(String namespace) {
      return namespaces.contains(ALL) || namespaces.contains(namespace);
    }

    /** The namespace a client that names none works in: the key's only one, if it has exactly one. */
    public Optional<String> soleNamespace() {
      return namespaces.size() == 1 && !namespaces.contains(ALL) ? Optional.of(namespaces.iterator().next()) : Optional.empty();
    }
  }

  /** Grants every namespace. */
  public static final String ALL = "*";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** By hash; insertion order kept for listing. */
  private final Map<String, Grant> byHash;

  private ApiKeys(Map<String, Grant> byHash) {
    this.byHash = Map.copyOf(byHash);
    this.order = List.copyOf(byHash.keySet());
  }

  private final List<String> order;

  public static ApiKeys empty() {
    return new ApiKeys(Map.of());
  }

  /** The grant of {@code presentedKey}, if it is a known key. */
  public Optional<Grant> authenticate(String presentedKey) {
    if (presentedKey == null || presentedKey.isEmpty() || presentedKey.length() > 256) {
      return Optional.empty();
    }
    return Optional.ofNullable(byHash.get(hash(presentedKey)));
  }

  public boolean isEmpty() {
    return byHash.isEmpty();
  }

  /** Every key's name and namespaces, in the order they were added. */
  public List<Grant> grants() {
    return order.stream().map(byHash::get).toList();
  }

  /**
   * A copy with a new key named {@code name} for {@code namespaces}; the new key is {@code key} (see
   * {@link #newKey()}).
   */
  public ApiKeys with(String name, Set<String> namespaces, String key) {
    requireName(name, "--name");
    if (namespaces.isEmpty()) {
      throw MemLoopException.invalid("--namespace", "give at least one namespace (or '*' for all)");
    }
    for (String ns : namespaces) {
      if (!ns.equals(ALL)) {
        Checks.requireNamespace(ns);
      }
    }
    if (grants().stream().anyMatch(g -> g.name().equals(name))) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "--name", "--name: a key named '" + name + "' exists");
    }
    Map<String, Grant> next = new LinkedHashMap<>();
    order.forEach(h -> next.put(h, byHash.get(h)));
    next.put(hash(key), new Grant(name, new LinkedHashSet<>(namespaces)));
    return new ApiKeys(next);
  }

  /** A copy without the key named {@code name}. */
  public ApiKeys without(String name) {
    Map<String, Grant> next = new LinkedHashMap<>();
    order.forEach(h -> next.put(h, byHash.get(h)));
    if (!next.values().removeIf(g -> g.name().equals(name))) {
      throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "--name", "--name: no key named '" + name + "'");
    }
    return new ApiKeys(next);
  }

  /** A new random key: {@code mlk_} and 43 URL-safe characters (256 bits). */
  public static String newKey() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "mlk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Reads a keys file; a missing file is an empty set of keys.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --keys} and the entry for a malformed file
   */
  public static ApiKeys load(Path file) {
    if (!Files.exists(file)) {
      return empty();
    }
    JsonNode root;
    try {
      if (Files.size(file) > (4 << 20)) {
        throw MemLoopException.invalid("--keys", file + " is over 4 MiB: not a keys file");
      }
      root = Json.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw MemLoopException.invalid("--keys", "cannot read " + file + ": " + e.getMessage());
    }
    if (root == null || !root.isObject() || root.path("version").asInt(-1) != 1 || !root.path("keys").isArray()) {
      throw MemLoopException.invalid("--keys", file + " is not a MemLoop keys file (expected {\"version\": 1, \"keys\": [...]})");
    }
    Map<String, Grant> byHash = new LinkedHashMap<>();
    Set<String> names = new LinkedHashSet<>();
    int i = 0;
    for (JsonNode k : root.get("keys")) {
      String where = file + ": keys[" + i++ + "]";
      String name = k.path("name").asText("");
      String sha = k.path("sha256").asText("");
      if (!NAME.matcher(name).matches() || !names.add(name)) {
        throw MemLoopException.invalid("--keys", where + ".name is missing, malformed or repeated");
      }
      if (!HASH.matcher(sha).matches() || byHash.containsKey(sha)) {
        throw MemLoopException.invalid("--keys", where + ".sha256 must be 64 lowercase hex digits, not repeated");
      }
      Set<String> namespaces = new LinkedHashSet<>();
      if (!k.path("namespaces").isArray() || k.get("namespaces").isEmpty()) {
        throw MemLoopException.invalid("--keys", where + ".namespaces must be a non-empty array");
      }
      for (JsonNode ns : k.get("namespaces")) {
        String s = ns.asText("");
        if (!s.equals(ALL)) {
          try {
            Checks.requireNamespace(s);
          } catch (MemLoopException e) {
            throw MemLoopException.invalid("--keys", where + ".namespaces: " + e.getMessage());
          }
        }
        namespaces.add(s);
      }
      byHash.put(sha, new Grant(name, namespaces));
    }
    return new ApiKeys(byHash);
  }

  /** Writes the file atomically (temporary file, then rename), readable by its owner only where the OS allows. */
  public void save(Path file) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("version", 1);
    ArrayNode keys = root.putArray("keys");
    for (String h : order) {
      Grant g = byHash.get(h);
      ObjectNode k = keys.addObject();
      k.put("name", g.name());
      k.put("sha256", h);
      ArrayNode ns = k.putArray("namespaces");
      g.namespaces().stream().sorted().forEach(ns::add);
    }
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".keys", ".tmp");
      try {
        try {
          Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
          // not a POSIX file system: the directory's permissions apply
        }
        Files.writeString(tmp, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
        try {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--keys", "--keys: cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  static String hash(String key) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JDK", e);
    }
  }

  private static void requireName(String name, String field) {
    if (name == null || !NAME.matcher(name).matches()) {
      throw MemLoopException.invalid(field, "must be 1-64 letters, digits, '.', '_' or '-', got '" + name + "'");
    }
  }

  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    grants().forEach(g -> names.add(g.name()));
    return "ApiKeys" + names;
  }
}

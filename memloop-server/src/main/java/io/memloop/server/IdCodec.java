package io.memloop.server;

import io.memloop.MemLoopException;
import io.memloop.store.MemoryStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The ids the service hands out: opaque tokens, so that a tenant learns nothing about other tenants (the
 * store numbers memories, retrievals and intent groups from one counter, {@code m42}, {@code r43}) and cannot
 * guess ids. A token is the AES encryption of one 16-byte block (the id's kind, 7 bytes of an HMAC of the
 * namespace, the 8-byte sequence) under a server secret, in URL-safe base64 after the kind: {@code m_…},
 * {@code r_…}, {@code i_…}. AES is a keyed permutation of blocks, so tokens are distinct, and decoding checks
 * the kind and the namespace: a malformed or forged token, or one made for another namespace, decodes to
 * nothing, and the caller answers as for an id that does not exist. The store's formats do not change.
 *
 * <p>Thread-safe: a {@link Cipher} (not thread-safe itself) is used by one call at a time, taken from a pool.
 */
public final class IdCodec {
  private static final int SECRET_BYTES = 32;
  private static final int TOKEN_CHARS = 2 + 22; // "m_" + 16 bytes in unpadded base64
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private final SecretKeySpec aes;
  private final SecretKeySpec tagKey;
  private final SecretKeySpec cursorKey;
  private static final SecureRandom NONCES = new SecureRandom();
  /**
   * Initialised AES ciphers, reused: requests run on virtual threads, so a thread-local one would be made anew for
   * every request, and {@link Cipher#getInstance} with its provider lookup was most of an id's cost (JFR).
   */
  private final java.util.Queue<Cipher> encrypters = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final java.util.Queue<Cipher> decrypters = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private static final int MAX_POOLED_CIPHERS = 64;
  /** Each namespace's tag (an HMAC of its name), computed once. */
  private final java.util.Map<String, byte[]> tags = new java.util.concurrent.ConcurrentHashMap<>();
  private static final int MAX_CACHED_TAGS = 4096;

  private IdCodec(byte[] secret) {
    if (secret.length != SECRET_BYTES) {
      throw new IllegalArgumentException("secret: " + secret.length + " bytes, expected " + SECRET_BYTES);
    }
    this.aes = new SecretKeySpec(Arrays.copyOf(hmac(new SecretKeySpec(secret, "HmacSHA256"), "memloop id cipher"), 16), "AES");
    this.tagKey = new SecretKeySpec(hmac(new SecretKeySpec(secret, "HmacSHA256"), "memloop id namespace"), "HmacSHA256");
    this.cursorKey = new SecretKeySpec(hmac(new SecretKeySpec(secret, "HmacSHA256"), "memloop page cursor"), "AES");
  }

  /** A codec with a fresh random secret: its ids are valid until the process ends. */
  public static IdCodec random() {
    byte[] secret = new byte[SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    return new IdCodec(secret);
  }

  /**
   * The codec whose secret is kept in {@code file}, made (owner read/write only) when it does not exist, so
   * that ids handed to agents stay valid across restarts.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --id-key-file} if the file cannot be read or made, or
   *     does not hold a secret
   */
  public static IdCodec loadOrCreate(Path file) {
    try {
      if (!Files.exists(file)) {
        byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        String text = "memloop-id-key-v1 " + Base64.getEncoder().encodeToString(secret) + "\n";
        // written whole to a temporary file, then renamed: a crash leaves no empty or partial key behind
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve(file.getFileName() + "." + Long.toHexString(new SecureRandom().nextLong()) + ".tmp");
        try {
          Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
          Files.createFile(tmp); // no POSIX permissions on this file system (asking the file store first fails in a chroot)
        }
        try {
          Files.writeString(tmp, text, StandardCharsets.US_ASCII, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
      String text = Files.readString(file, StandardCharsets.US_ASCII).strip();
      if (!text.startsWith("memloop-id-key-v1 ")) {
        throw MemLoopException.invalid("--id-key-file", file + " does not hold a MemLoop id key (expected 'memloop-id-key-v1 <base64>')");
      }
      byte[] secret;
      try {
        secret = Base64.getDecoder().decode(text.substring("memloop-id-key-v1 ".length()).strip());
      } catch (IllegalArgumentException e) {
        secret = new byte[0];
      }
      if (secret.length != SECRET_BYTES) {
        throw MemLoopException.invalid("--id-key-file", file + " holds a damaged id key (expected " + SECRET_BYTES + " bytes in base64)");
      }
      return new IdCodec(secret);
    } catch (IOException e) {
      throw MemLoopException.invalid("--id-key-file", "cannot read or create " + file + ": " + e.getMessage());
    }
  }

  /** The token for the store's {@code internalId} ({@code <kind><sequence>}) in {@code namespace}. */
  String encode(String namespace, String internalId) {
    char kind = internalId.charAt(0);
    long seq = MemoryStore.sequenceOf(internalId, kind);
    if (seq < 0) {
      throw new IllegalStateException("not a store id: " + Requests.abbreviate(internalId));
    }
    ByteBuffer block = ByteBuffer.allocate(16);
    block.put((byte) kind).put(tag(namespace), 0, 7).putLong(seq);
    return kind + "_" + ENCODER.encodeToString(cipher(Cipher.ENCRYPT_MODE, block.array()));
  }

  /** The store's id behind {@code token}, if it is a {@code kind} token made for {@code namespace}. */
  Optional<String> decode(String namespace, String token, char kind) {
    if (token.length() != TOKEN_CHARS || token.charAt(0) != kind || token.charAt(1) != '_') {
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token.substring(2));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (bytes.length != 16 || !ENCODER.encodeToString(bytes).equals(token.substring(2))) {
      return Optional.empty(); // one token per id: no second spelling through unused trailing bits
    }
    ByteBuffer block = ByteBuffer.wrap(cipher(Cipher.DECRYPT_MODE, bytes));
    byte[] tag = new byte[7];
    if (block.get() != (byte) kind) {
      return Optional.empty();
    }
    block.get(tag);
    if (!MessageDigest.isEqual(tag, Arrays.copyOf(tag(namespace), 7))) {
      return Optional.empty();
    }
    long seq = block.getLong();
    return seq < 0 ? Optional.empty() : Optional.of(kind + Long.toString(seq));
  }

  /**
   * A page cursor as the client sees it: the store's cursor (which names store ids and sort values) sealed
   * with AES-GCM under the server secret, bound to {@code namespace}, as {@code c_<base64url>}.
   */
  String sealCursor(String namespace, String cursor) {
    byte[] nonce = new byte[12];
    NONCES.nextBytes(nonce);
    byte[] sealed = gcm(Cipher.ENCRYPT_MODE, nonce, namespace, cursor.getBytes(StandardCharsets.UTF_8));
    byte[] out = Arrays.copyOf(nonce, nonce.length + sealed.length);
    System.arraycopy(sealed, 0, out, nonce.length, sealed.length);
    return "c_" + ENCODER.encodeToString(out);
  }

  /** The store's cursor behind {@code token}, if this server sealed it for {@code namespace}. */
  Optional<String> openCursor(String namespace, String token) {
    if (!token.startsWith("c_") || token.length() > 4096) {
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(token.substring(2));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (bytes.length < 12 + 16) {
      return Optional.empty();
    }
    try {
      byte[] plain = gcm(Cipher.DECRYPT_MODE, Arrays.copyOf(bytes, 12), namespace, Arrays.copyOfRange(bytes, 12, bytes.length));
      return Optional.of(new String(plain, StandardCharsets.UTF_8));
    } catch (IllegalStateException e) {
      return Optional.empty(); // forged, damaged or another namespace's: the tag does not verify
    }
  }

  private byte[] gcm(int mode, byte[] nonce, String namespace, byte[] input) {
    try {
      Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
      c.init(mode, cursorKey, new javax.crypto.spec.GCMParameterSpec(128, nonce));
      c.updateAAD(namespace.getBytes(StandardCharsets.UTF_8));
      return c.doFinal(input);
    } catch (javax.crypto.AEADBadTagException e) {
      throw new IllegalStateException("cursor does not verify");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/GCM is missing from this JVM", e);
    }
  }

  private byte[] tag(String namespace) {
    byte[] tag = tags.get(namespace);
    if (tag == null) {
      if (tags.size() >= MAX_CACHED_TAGS) {
        tags.clear(); // namespaces are few; a flood of names only costs the HMAC again
      }
      tag = hmac(tagKey, namespace);
      tags.put(namespace, tag);
    }
    return tag;
  }

  private byte[] cipher(int mode, byte[] block) {
    java.util.Queue<Cipher> pool = mode == Cipher.ENCRYPT_MODE ? encrypters : decrypters;
    Cipher c = pool.poll();
    try {
      if (c == null) {
        c = Cipher.getInstance("AES/ECB/NoPadding"); // one block: ECB is the bare permutation
        c.init(mode, aes);
      }
      byte[] out = c.doFinal(block); // resets the cipher to its init state: ready for the next block
      if (pool.size() < MAX_POOLED_CIPHERS) {
        pool.offer(c);
      }
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES is missing from this JVM", e);
    }
  }

  private static byte[] hmac(SecretKeySpec key, String text) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }
}

package io.memloop.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class AnnotationsTest {
  private static final byte[] ABC = {1, 2, 3};

  @Test
  void empty_encodesToZeroBytes_andZeroBytesReadAsEmpty() {
    assertThat(Annotations.EMPTY.toBytes()).isEmpty();
    assertThat(Annotations.EMPTY.encodedBytes()).isZero();
    assertThat(Annotations.fromBytes(new byte[0])).isSameAs(Annotations.EMPTY);
    assertThat(Annotations.EMPTY.isEmpty()).isTrue();
  }

  @Test
  void format_isStable_byteForByte() {
    Annotations a = Annotations.of("task", 1, ABC).with("b.x-2", 300, new byte[0]);
    // FORMAT 1, 2 entries, "b.x-2" v300 (varint ac 02) 0 bytes, "task" v1 3 bytes 010203
    assertThat(HexFormat.of().formatHex(a.toBytes())).isEqualTo("0102" + "05622e782d32" + "ac02" + "00" + "047461736b" + "01" + "03010203");
    assertThat(a.encodedBytes()).isEqualTo(a.toBytes().length);
  }

  @Test
  void with_keepsNamesSorted_replacesAName_andWithoutRemovesIt() {
    Annotations a = Annotations.of("zeta", 1, ABC).with("alpha", 2, new byte[] {9}).with("mid", 0, new byte[0]);
    assertThat(a.names()).containsExactly("alpha", "mid", "zeta");
    Annotations b = a.with("mid", 5, ABC);
    assertThat(b.get("mid")).contains(new Annotations.Entry(5, ABC));
    assertThat(a.get("mid")).contains(new Annotations.Entry(0, new byte[0])); // a is unchanged
    assertThat(b.without("alpha").names()).containsExactly("mid", "zeta");
    assertThat(b.without("absent")).isSameAs(b);
    assertThat(Annotations.of("x", 1, ABC).without("x")).isSameAs(Annotations.EMPTY);
    assertThat(a.get("absent")).isEmpty();
    assertThat(a.has("zeta")).isTrue();
  }

  @Test
  void data_isCopiedInAndOut() {
    byte[] data = {1, 2, 3};
    Annotations a = Annotations.of("x", 1, data);
    data[0] = 42;
    byte[] out = a.get("x").orElseThrow().data();
    out[1] = 42;
    assertThat(a.get("x").orElseThrow().data()).containsExactly(1, 2, 3);
  }

  @Test
  void badNamesVersionsAndSizes_areRefused_namingTheAnnotation() {
    assertThatThrownBy(() -> Annotations.of("", 1, ABC)).hasMessageContaining("1 to 64 characters");
    assertThatThrownBy(() -> Annotations.of("a".repeat(65), 1, ABC)).hasMessageContaining("got 65");
    assertThatThrownBy(() -> Annotations.of("Task", 1, ABC)).hasMessageContaining("'T' at 0");
    assertThatThrownBy(() -> Annotations.of("a b", 1, ABC)).hasMessageContaining("' ' at 1");
    assertThatThrownBy(() -> Annotations.of("ok", -1, ABC)).hasMessageContaining("'ok': version must be >= 0");
    assertThatThrownBy(() -> Annotations.of("big", 1, new byte[Annotations.MAX_DATA_BYTES + 1]))
        .hasMessageContaining("'big': data is 65537 bytes, at most 65536");
    assertThat(Annotations.of("max", 1, new byte[Annotations.MAX_DATA_BYTES]).toBytes()).hasSize(1 + 1 + 1 + 3 + 1 + 3 + 65536);
    Annotations full = Annotations.EMPTY;
    for (int i = 0; i < Annotations.MAX_ENTRIES; i++) {
      full = full.with("n" + i, 1, ABC);
    }
    Annotations f = full;
    assertThatThrownBy(() -> f.with("one-more", 1, ABC)).hasMessageContaining("at most 64 allowed");
    assertThat(f.with("n7", 2, ABC).size()).isEqualTo(64); // replacing is not adding
  }

  @Test
  void fromBytes_refusesWhatToBytesCannotWrite_saying_what() {
    byte[] good = Annotations.of("task", 1, ABC).toBytes();
    assertThatThrownBy(() -> Annotations.fromBytes(new byte[] {9, 1})).hasMessageContaining("unknown format version 9");
    assertThatThrownBy(() -> Annotations.fromBytes(Arrays.copyOf(good, good.length - 1)))
        .hasMessageContaining("data of 'task' needs 3 bytes, 2 left");
    assertThatThrownBy(() -> Annotations.fromBytes(Arrays.copyOf(good, good.length + 1)))
        .hasMessageContaining("1 unexpected trailing bytes");
    assertThatThrownBy(() -> Annotations.fromBytes(new byte[] {1, 0})).hasMessageContaining("count 0");
    byte[] upper = good.clone();
    upper[3] = 'T';
    assertThatThrownBy(() -> Annotations.fromBytes(upper)).hasMessageContaining("'T' at 0");
    byte[] twice = {1, 2, 1, 'a', 1, 0, 1, 'a', 1, 0};
    assertThatThrownBy(() -> Annotations.fromBytes(twice)).hasMessageContaining("must be sorted and distinct");
    byte[] hugeVersion = {1, 1, 1, 'a', (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f, 0};
    assertThatThrownBy(() -> Annotations.fromBytes(hugeVersion)).hasMessageContaining("does not fit an int");
  }

  /** Random annotations against a sorted map as the reference: the same names, entries and bytes after a round trip. */
  @Test
  void roundTrip_agreesWithASortedMap_onRandomAnnotations() {
    SplittableRandom rnd = new SplittableRandom(26);
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789.-";
    for (int round = 0; round < 500; round++) {
      TreeMap<String, Annotations.Entry> model = new TreeMap<>();
      Annotations a = Annotations.EMPTY;
      for (int op = rnd.nextInt(20); op > 0; op--) {
        StringBuilder name = new StringBuilder();
        for (int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 64); n > 0; n--) {
          name.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        String k = rnd.nextInt(4) == 0 && !model.isEmpty() ? model.firstKey() : name.toString();
        if (rnd.nextInt(5) == 0) {
          a = a.without(k);
          model.remove(k);
        } else {
          byte[] data = new byte[rnd.nextInt(rnd.nextBoolean() ? 10 : 3000)];
          rnd.nextBytes(data);
          int version = rnd.nextBoolean() ? rnd.nextInt(3) : rnd.nextInt(Integer.MAX_VALUE);
          a = a.with(k, version, data);
          model.put(k, new Annotations.Entry(version, data));
        }
      }
      assertThat(a.names()).containsExactlyElementsOf(List.copyOf(model.keySet()));
      for (var e : model.entrySet()) {
        assertThat(a.get(e.getKey())).contains(e.getValue());
      }
      byte[] bytes = a.toBytes();
      assertThat(bytes).hasSize(a.encodedBytes());
      Annotations back = Annotations.fromBytes(bytes);
      assertThat(back).isEqualTo(a).hasSameHashCodeAs(a);
      assertThat(back.toBytes()).isEqualTo(bytes);
      byte[] framed = new byte[bytes.length + 7];
      System.arraycopy(bytes, 0, framed, 3, bytes.length);
      assertThat(Annotations.fromBytes(framed, 3, bytes.length)).isEqualTo(a);
    }
  }
}

package io.memloop.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.NavigableMap;
import java.util.zip.CRC32C;

/**
 * Reads log segments at open, validating headers, frames and checksums, and hands every record to a
 * visitor in log order. Reads only: repairs (truncating a torn tail) are left to the caller, after
 * everything else has been checked, so a store that turns out corrupt is left exactly as found.
 *
 * <p><b>Torn tail vs corruption:</b> a crash can leave the last record of the last segment partly
 * written; nothing in it was acknowledged, so it is dropped. A bad record is taken for a torn tail only
 * if it is in the last segment, past the segment's synced watermark (see {@link WriteAheadLog}), and
 * no intact record can be found anywhere after it; a bad record below the watermark, with intact
 * records after it, or in an earlier segment is corruption, and so is a segment shorter than its
 * watermark (lost synced records).
 *
 * <p>Not thread-safe; used by the opening thread only.
 */
final class WalScanner {
  private static final int CHUNK_BYTES = 8 << 20;

  /** Receives each intact record. */
  @FunctionalInterface
  interface Visitor {
    void visit(long startLsn, WalRecord record, Path file, long offset);
  }

  /**
   * Where the log ends.
   *
   * @param lastSegment number of the last segment
   * @param lastBaseLsn its base LSN
   * @param endLsn end of the last intact record
   * @param tornBytes bytes after {@code endLsn} to truncate away (a torn tail), 0 if none
   * @param headerTorn whether the last segment's header itself is incomplete (a crash while rotating)
   */
  record End(long lastSegment, long lastBaseLsn, long endLsn, long tornBytes, boolean headerTorn) {}

  private WalScanner() {}

  /**
   * Scans {@code segments} (consecutive numbers, the first being where replay starts, whose base LSN
   * must be {@code firstBaseLsn}).
   */
  static End scan(NavigableMap<Long, Path> segments, long firstBaseLsn, Visitor visitor) throws IOException {
    long expectedNumber = segments.firstKey();
    long lsn = firstBaseLsn;
    End end = null;
    for (Map.Entry<Long, Path> e : segments.entrySet()) {
      Path file = e.getValue();
      if (e.getKey() != expectedNumber) {
        throw StoreFiles.corrupt(file, "log segment " + expectedNumber + " is missing (found " + e.getKey() + ")");
      }
      boolean last = e.getKey().equals(segments.lastKey());
      end = scanSegment(file, e.getKey(), lsn, last, visitor);
      lsn = end.endLsn();
      expectedNumber++;
    }
    return end;
  }

  private static End scanSegment(Path file, long number, long baseLsn, boolean last, Visitor visitor)
      throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      Reader in = new Reader(ch, size);
      if (size < WriteAheadLog.HEADER_BYTES) {
        if (last) {
          return new End(number, baseLsn, baseLsn, 0, true);
        }
        throw StoreFiles.corrupt(file, "truncated log segment header (" + size + " bytes)");
      }
      byte[] header = in.bytes(0, WriteAheadLog.HEADER_BYTES);
      if (last && isZero(header, WriteAheadLog.HEADER_BYTES)) {
        return new End(number, baseLsn, baseLsn, 0, true); // created, header never reached the disk
      }
      long synced = checkHeader(file, header, 0, number, baseLsn);
      long syncedEnd = WriteAheadLog.HEADER_BYTES + synced;
      if (size < syncedEnd) {
        throw StoreFiles.corrupt(file, "log segment " + number + " has " + size + " bytes but " + syncedEnd
            + " were synced and acknowledged: the end of the log was lost");
      }
      long pos = WriteAheadLog.HEADER_BYTES;
      CRC32C crc = new CRC32C();
      while (pos < size) {
        String problem = null;
        int len = 0;
        if (size - pos < WriteAheadLog.FRAME_BYTES) {
          problem = "incomplete record frame";
        } else {
          byte[] b = in.bytes(pos, WriteAheadLog.FRAME_BYTES);
          int off = in.offset(pos);
          len = ByteWriter.intAt(b, off);
          if (len < 1 || len > WriteAheadLog.MAX_RECORD_BYTES) {
            problem = "bad record length " + len;
          } else if (size - pos - WriteAheadLog.FRAME_BYTES < len) {
            problem = "record of " + len + " bytes runs past the end of the file";
          } else {
            b = in.bytes(pos, WriteAheadLog.FRAME_BYTES + len);
            off = in.offset(pos);
            crc.reset();
            crc.update(b, off, 4);
            crc.update(b, off + WriteAheadLog.FRAME_BYTES, len);
            if ((int) crc.getValue() != ByteWriter.intAt(b, off + 4)) {
              problem = "checksum mismatch in record of " + len + " bytes";
            } else {
              WalRecord record;
              try {
                record = WalRecord.decode(b, off + WriteAheadLog.FRAME_BYTES, len);
              } catch (ByteReader.Malformed m) {
                throw StoreFiles.corrupt(file, "malformed log record at offset " + pos + ": " + m.getMessage());
              }
              visitor.visit(baseLsn + pos - WriteAheadLog.HEADER_BYTES, record, file, pos);
            }
          }
        }
        if (problem != null && pos < syncedEnd) {
          throw StoreFiles.corrupt(file, "corrupt log record at offset " + pos + " of segment " + number + ": "
              + problem + "; the record was synced and acknowledged (the segment's watermark is at " + syncedEnd + ")");
        }
        if (problem != null) {
          long intact = last ? findIntactRecord(in, pos + 1, size) : -1;
          if (!last || intact >= 0) {
            throw StoreFiles.corrupt(file, "corrupt log record at offset " + pos + " of segment " + number + ": "
                + problem + (intact >= 0 ? "; an intact record follows at offset " + intact + ", so this is not a torn write"
                : "; only the last segment may end in a torn write"));
          }
          return new End(number, baseLsn, baseLsn + pos - WriteAheadLog.HEADER_BYTES, size - pos, false);
        }
        pos += WriteAheadLog.FRAME_BYTES + len;
      }
      return new End(number, baseLsn, baseLsn + pos - WriteAheadLog.HEADER_BYTES, 0, false);
    }
  }

  private static boolean isZero(byte[] b, int n) {
    for (int i = 0; i < n; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Checks magic, version, checksum and the segment's place in the log; returns the synced watermark
   * (bytes of records known durable; 0 for a v1 segment).
   */
  private static long checkHeader(Path file, byte[] h, int off, long number, long baseLsn) {
    int magic = ByteWriter.intAt(h, off);
    if (magic != WriteAheadLog.MAGIC) {
      throw StoreFiles.corrupt(file, String.format("bad magic 0x%08x in log segment %s (expected 0x%08x v%d)",
          magic, file, WriteAheadLog.MAGIC, WriteAheadLog.VERSION));
    }
    int version = ByteWriter.intAt(h, off + 4);
    if (version != WriteAheadLog.VERSION && version != WriteAheadLog.VERSION_1) {
      throw StoreFiles.corrupt(file, "unknown log format version " + version + " (this build reads v"
          + WriteAheadLog.VERSION + ")");
    }
    CRC32C c = new CRC32C();
    c.update(h, off, 28);
    if ((int) c.getValue() != ByteWriter.intAt(h, off + 28)) {
      throw StoreFiles.corrupt(file, "checksum mismatch in log segment header");
    }
    long storedNumber = ByteWriter.longAt(h, off + 8);
    long storedBase = ByteWriter.longAt(h, off + 16);
    if (storedNumber != number || storedBase != baseLsn) {
      throw StoreFiles.corrupt(file, "log segment header says segment " + storedNumber + " at LSN " + storedBase
          + ", expected segment " + number + " at LSN " + baseLsn);
    }
    return version == WriteAheadLog.VERSION_1 ? 0 : Integer.toUnsignedLong(ByteWriter.intAt(h, off + 24));
  }

  /**
   * The offset of the first intact record (plausible length, known type, matching checksum) starting
   * anywhere in [from, size), or -1. A record is at most {@code MAX_RECORD_BYTES} long, so if the bad
   * record had intact successors the next one starts within that distance.
   */
  private static long findIntactRecord(Reader in, long from, long size) throws IOException {
    long to = Math.min(size, from + WriteAheadLog.MAX_RECORD_BYTES + WriteAheadLog.FRAME_BYTES);
    if (to - from < WriteAheadLog.FRAME_BYTES + 1) {
      return -1;
    }
    byte[] b = in.bytes(from, (int) (to - from));
    int base = in.offset(from);
    int n = (int) (to - from);
    CRC32C crc = new CRC32C();
    for (int i = 0; i + WriteAheadLog.FRAME_BYTES < n; i++) {
      int len = ByteWriter.intAt(b, base + i);
      if (len < 1 || len > n - i - WriteAheadLog.FRAME_BYTES) {
        continue;
      }
      int type = b[base + i + WriteAheadLog.FRAME_BYTES];
      if (type < WalRecord.INSERT || type > WalRecord.LAST_TYPE) {
        continue;
      }
      crc.reset();
      crc.update(b, base + i, 4);
      crc.update(b, base + i + WriteAheadLog.FRAME_BYTES, len);
      if ((int) crc.getValue() == ByteWriter.intAt(b, base + i + 4)) {
        return from + i;
      }
    }
    return -1;
  }

  /** A sliding window over the file, so segments of any size are read in bounded chunks. */
  private static final class Reader {
    private final FileChannel ch;
    private final long size;
    private byte[] buf = new byte[0];
    private long bufStart;
    private int bufLen;

    Reader(FileChannel ch, long size) {
      this.ch = ch;
      this.size = size;
    }

    /** The window's array, holding at least {@code n} bytes from file position {@code pos}. */
    byte[] bytes(long pos, int n) throws IOException {
      if (pos >= bufStart && pos + n <= bufStart + bufLen) {
        return buf;
      }
      int want = (int) Math.min(size - pos, Math.max(n, CHUNK_BYTES));
      if (buf.length < want) {
        buf = Arrays.copyOf(buf, want);
      }
      ByteBuffer bb = ByteBuffer.wrap(buf, 0, want);
      while (bb.hasRemaining()) {
        if (ch.read(bb, pos + bb.position()) < 0) {
          throw new IOException("unexpected end of file at " + (pos + bb.position()) + " of " + size);
        }
      }
      bufStart = pos;
      bufLen = want;
      return buf;
    }

    /** Index in the window array of file position {@code pos} (after {@link #bytes}). */
    int offset(long pos) {
      return (int) (pos - bufStart);
    }
  }
}

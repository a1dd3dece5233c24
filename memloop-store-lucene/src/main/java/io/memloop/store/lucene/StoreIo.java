package io.memloop.store.lucene;

import java.nio.channels.FileChannel;
import java.util.function.UnaryOperator;
import org.apache.lucene.store.Directory;

/**
 * How the store reaches its index directory and its log files: directly, or (tests) through wrappers
 * that inject I/O failures such as a full disk.
 *
 * @param indexDirectory wraps the Lucene directory of the index
 * @param logChannel wraps each log segment's channel the log appends to
 */
record StoreIo(UnaryOperator<Directory> indexDirectory, UnaryOperator<FileChannel> logChannel) {
  static final StoreIo DIRECT = new StoreIo(UnaryOperator.identity(), UnaryOperator.identity());
}

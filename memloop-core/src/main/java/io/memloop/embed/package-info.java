/** The embedding SPI: turns intent texts into vectors. Implementations live in memloop-embeddings. */
@NullMarked
package io.memloop.embed;

import org.jspecify.annotations.NullMarked;

/** The {@code memloop} command line: maps flags to engine config and prints text or JSON. */
@NullMarked
package io.memloop.cli;

import org.jspecify.annotations.NullMarked;

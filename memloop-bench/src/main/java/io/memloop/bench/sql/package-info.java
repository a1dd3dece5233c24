/**
 * The SQL environment: question → query tasks on an embedded H2 database
 * ({@link io.memloop.bench.sql.SqlDatabase}), verified and judged by
 * {@link io.memloop.bench.sql.SqlEnvironment}, and its frozen case-adapting policy
 * ({@link io.memloop.bench.sql.SqlPolicy}, {@link io.memloop.bench.sql.SqlAlignment}).
 */
@NullMarked
package io.memloop.bench.sql;

import org.jspecify.annotations.NullMarked;

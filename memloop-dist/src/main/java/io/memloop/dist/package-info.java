/**
 * Packaging, not product: {@link io.memloop.dist.ContainerImage} writes MemLoop's OCI container image from the
 * release (jlink runtime and command jar) without a container engine. Nothing here is on the engine's path or
 * in a library jar.
 */
@NullMarked
package io.memloop.dist;

import org.jspecify.annotations.NullMarked;

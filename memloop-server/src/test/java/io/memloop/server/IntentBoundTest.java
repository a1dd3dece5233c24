package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Checks;
import org.junit.jupiter.api.Test;

/**
 * One intent bound (issue 23 item 13): the service's default limit is the engine's, so that HTTP, MCP, the CLI and
 * the imports refuse the same intents (the engine refuses longer ones whatever the service is configured with).
 */
class IntentBoundTest {
  @Test
  void theServiceRefusesIntentsOverTheEnginesBound() {
    assertThat(ServerOptions.defaults().maxIntentChars()).isEqualTo(Checks.MAX_INTENT_CHARS);
  }
}

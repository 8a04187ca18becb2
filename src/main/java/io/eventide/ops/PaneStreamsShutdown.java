package io.eventide.ops;

import io.eventide.sink.PaneHub;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Ends the live pane streams when shutdown begins. Graceful shutdown waits for every active
 * request, and a server-sent event stream never finishes by itself, so one open dashboard would
 * hold the shutdown until its timeout and cut the in-flight batches with it. This runs in an
 * earlier stop phase than the web server's graceful shutdown; subscribers see their stream complete
 * and reconnect, to another replica once this one has left the Service.
 */
@Component
public class PaneStreamsShutdown implements SmartLifecycle {
  private final PaneHub hub;
  private volatile boolean running;

  public PaneStreamsShutdown(PaneHub hub) {
    this.hub = hub;
  }

  @Override
  public void start() {
    hub.open();
    running = true;
  }

  @Override
  public void stop() {
    running = false;
    hub.closeAll();
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Stops before the web server, which stops at a lower phase. */
  @Override
  public int getPhase() {
    return WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE + 1;
  }
}

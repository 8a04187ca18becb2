package io.eventide.runtime;

import java.util.function.Consumer;
import org.springframework.http.HttpHeaders;

/** The {@code ce-} headers of a binary-mode CloudEvent over HTTP, as a producer sends them. */
public final class BinaryCloudEvent {
  private BinaryCloudEvent() {}

  /**
   * The headers of a sale ({@code com.example.sale}) with these attributes, as they are written in
   * headers (percent-encoded); the caller sets or removes others.
   */
  public static Consumer<HttpHeaders> headers(String id, String source, String time) {
    return h -> {
      h.set("ce-specversion", "1.0");
      h.set("ce-id", id);
      h.set("ce-source", source);
      h.set("ce-type", "com.example.sale");
      h.set("ce-time", time);
    };
  }
}

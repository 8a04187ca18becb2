package io.eventide.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The samples of a Prometheus text exposition. */
public record PrometheusScrape(List<Sample> samples) {
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)(?: \\d+)?$");
  private static final Pattern LABEL =
      Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

  record Sample(String name, Map<String, String> labels, double value) {}

  /** The text of /actuator/prometheus as the service answers it. */
  public static String text(WebTestClient client) {
    return client
        .get()
        .uri("/actuator/prometheus")
        .exchange()
        .expectStatus()
        .isOk()
        .expectBody(String.class)
        .returnResult()
        .getResponseBody();
  }

  static PrometheusScrape parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line.strip());
      if (!m.matches()) {
        throw new IllegalArgumentException("not a sample: " + line);
      }
      Map<String, String> labels = new LinkedHashMap<>();
      if (m.group(2) != null) {
        Matcher l = LABEL.matcher(m.group(2));
        while (l.find()) {
          labels.put(l.group(1), l.group(2));
        }
      }
      samples.add(new Sample(m.group(1), labels, number(m.group(3))));
    }
    return new PrometheusScrape(samples);
  }

  private static double number(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  /** The samples of one metric whose labels include {@code labels}. */
  List<Sample> find(String name, Map<String, String> labels) {
    return samples.stream()
        .filter(s -> s.name().equals(name))
        .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
        .toList();
  }

  /** The value of the one sample of {@code name} with {@code labels}. */
  double value(String name, Map<String, String> labels) {
    List<Sample> found = find(name, labels);
    if (found.size() != 1) {
      throw new AssertionError("expected one " + name + labels + ", found " + found);
    }
    return found.get(0).value();
  }

  List<Sample> withLabel(String label, String value) {
    return samples.stream().filter(s -> value.equals(s.labels().get(label))).toList();
  }
}

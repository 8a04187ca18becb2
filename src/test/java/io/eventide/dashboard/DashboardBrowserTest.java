package io.eventide.dashboard;

import static io.eventide.runtime.LiveApi.array;
import static io.eventide.runtime.LiveApi.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.runtime.LatenessFeed;
import io.eventide.runtime.LiveApi;
import io.eventide.state.RedisEventide;
import io.eventide.state.TestRedis;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The page in a real browser over Eventide with Redis: new values appear, a pane turns final when
 * the watermark passes its window, and after the service restarts the page resumes its stream from
 * where it was, with no pane missed or repeated. A second run measures the page with 10 000 keys
 * (figures in docs/benchmarks.md; nothing here asserts a speed).
 */
class DashboardBrowserTest {
  private static final String DEFINITION =
      """
      {"window": {"type": "fixed", "size": "1m"},
       "trigger": {"type": "afterWatermark", "early": {"type": "afterCount", "count": 1}},
       "accumulation": "accumulating", "aggregate": {"type": "sum"}}
      """;

  private final String prefix = TestRedis.newKeyPrefix();

  @AfterEach
  void deleteKeys() {
    TestRedis.delete(prefix);
  }

  @Test
  void thePageShowsNewValuesMarksFinalPanesAndResumesAfterARestartWithoutAGap() throws Exception {
    int port = freePort();
    ConfigurableApplicationContext app = RedisEventide.startOn(port, prefix);
    try (Browser browser = new Browser()) {
      LiveApi api = RedisEventide.api(app);
      api.define("dash", DEFINITION);
      api.events(
          "dash",
          array(
              event("alpha", "2026-01-01T10:00:05Z", 1), event("beta", "2026-01-01T10:00:06Z", 5)));
      browser.open("http://localhost:" + port + "/#/pipelines/dash");
      awaitValue(browser, "alpha", "1", "provisional");
      assertThat(browser.text("#trigger-expression")).contains("AfterWatermark.pastEndOfWindow()");

      api.events("dash", array(event("alpha", "2026-01-01T10:00:07Z", 2)));
      awaitValue(browser, "alpha", "3", "provisional");
      assertThat(cell(browser, "alpha").get(2)).isEqualTo("EARLY");

      api.watermark("dash", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      awaitValue(browser, "alpha", "3", "final");
      assertThat(cell(browser, "alpha").get(2)).isEqualTo("ON_TIME");
      browser.await(
          "the watermark shown", d -> browser.text("#watermark").startsWith("2026-01-01T10:01"));
      browser.screenshot(Path.of("target", "dashboard.png"));

      // Restart: the page notices, and once the service is back it reads on from its position.
      app.close();
      browser.await(
          "the page to notice the service is gone",
          d -> "reconnecting".equals(browser.text("#connection")));
      app = RedisEventide.startOn(port, prefix);
      api = RedisEventide.api(app);
      api.events(
          "dash",
          array(
              event("gamma", "2026-01-01T10:01:30Z", 7),
              event("alpha", "2026-01-01T10:01:31Z", 4)));
      api.events("dash", array(event("gamma", "2026-01-01T10:01:32Z", 1)));
      awaitValue(browser, "gamma", "8", "provisional");
      awaitValue(browser, "alpha", "4", "provisional");
      assertThat(browser.script("return window.eventideStats.snapshots")).isEqualTo(1L);
      assertNoGapNorRepeat(seen(browser));
      browser.screenshot(Path.of("target", "dashboard-resumed.png"));
    } finally {
      app.close();
    }
  }

  /**
   * Issue 35: with named aggregates one of them is charted, chosen on the page; a session merged
   * into another is shown as a merge, and its window leaves the table.
   */
  @Test
  void aChosenNamedAggregateIsChartedAndMergedSessionsAreShown() throws Exception {
    ConfigurableApplicationContext app = RedisEventide.start(prefix);
    try (Browser browser = new Browser()) {
      LiveApi api = RedisEventide.api(app);
      int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
      api.define(
          "named",
          """
          {"window": {"type": "session", "gap": "1m"},
           "trigger": {"type": "repeatedly", "trigger": {"type": "afterCount", "count": 1}},
           "accumulation": "accumulating",
           "aggregates": {"n": {"type": "count"}, "total": {"type": "sum"},
                          "all": {"type": "collect"}}}
          """);
      browser.open("http://localhost:" + port + "/#/pipelines/named");
      api.events("named", array(event("alpha", "2026-01-01T10:00:00Z", 40)));
      awaitValue(browser, "alpha", "n 1 · total 40 · all [40]", "provisional");
      // The numeric aggregates are offered, the first one charted.
      assertThat(
              browser.script(
                  "return [...document.querySelectorAll('#chart-aggregate option')].map(o => o.value)"))
          .isEqualTo(List.of("n", "total"));
      browser.await("n charted", d -> chartLabel(browser).endsWith(": 1 provisional"));
      browser.script(
          "const s = document.getElementById('chart-aggregate'); s.value = 'total';"
              + " s.dispatchEvent(new Event('change'));");
      browser.await("total charted", d -> chartLabel(browser).endsWith(": 40 provisional"));

      // A second event within the gap: the first session, which had a pane, merges into a new one.
      api.events("named", array(event("alpha", "2026-01-01T10:00:30Z", 2)));
      awaitValue(browser, "alpha", "n 2 · total 42 · all [40,2]", "provisional");
      browser.await(
          "the merge shown",
          d ->
              browser
                  .text("#merges")
                  .contains("session 10:00:00–10:01:00 merged into 10:00:00–10:01:30"));
      browser.await("one window left", d -> chartLabel(browser).endsWith(": 42 provisional"));
      browser.screenshot(Path.of("target", "dashboard-named.png"));
    } finally {
      app.close();
    }
  }

  /**
   * Issue 35: a late pane after the on-time one shows the figure it restates, the explanation says
   * in words whether elements wait for a pane, and the window turns final when the progress passes
   * its finalAt, though no pane closes it.
   */
  @Test
  void aLatePaneIsShownAsARestatementAndTheExplanationReadsAsASentence() throws Exception {
    ConfigurableApplicationContext app = RedisEventide.start(prefix);
    try (Browser browser = new Browser()) {
      LiveApi api = RedisEventide.api(app);
      int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
      api.define(
          "late",
          """
          {"window": {"type": "fixed", "size": "1m"}, "allowedLateness": "5m",
           "accumulation": "accumulating", "aggregate": {"type": "sum"}}
          """);
      api.events(
          "late",
          array(
              event("alpha", "2026-01-01T10:00:05Z", 40),
              event("alpha", "2026-01-01T10:00:06Z", 1)));
      browser.open("http://localhost:" + port + "/#/pipelines/late");
      // The default watermark moves only with events and posts: the page says so, and so does
      // the explanation of a window waiting for it.
      browser.await(
          "the definition's warning",
          d ->
              !d.findElements(By.id("warnings")).isEmpty()
                  && browser.text("#warnings").contains("watermark.idleAdvance"));
      browser.driver.findElement(By.id("why")).click();
      assertThat(why(browser))
          .contains("waiting for the watermark")
          .contains("only when later events or a watermark post arrive");
      api.watermark("late", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      awaitValue(browser, "alpha", "41", "provisional");
      assertThat(restatements(browser)).isEmpty();

      api.events("late", array(event("alpha", "2026-01-01T10:00:10Z", 4)));
      awaitValue(browser, "alpha", "45", "provisional");
      browser.await(
          "the late pane shown as a restatement",
          d -> restatements(browser).contains("restated from 41 to 45"));
      assertThat(cell(browser, "alpha").get(2)).isEqualTo("LATE");

      browser.driver.findElement(By.id("why")).click();
      browser.await(
          "the explanation after the late pane", d -> why(browser).contains("passed its end"));
      assertThat(why(browser))
          .contains("alpha 2026-01-01T10:00:00.000Z")
          .contains("no element since its last pane, 3 elements in all, next pane index 2")
          .contains("the watermark has passed its end")
          .doesNotContain("false")
          .doesNotContain("true");
      browser.screenshot(Path.of("target", "dashboard-restated.png"));

      // The window closes at its finalAt with no pane (the default closing behaviour): the
      // stream's progress turns it final on the page.
      api.watermark("late", "{\"watermark\": \"2026-01-01T10:06:00Z\"}");
      awaitValue(browser, "alpha", "45", "final");
      assertThat(browser.text("#final-through")).isEqualTo("2026-01-01T10:06:00.000Z");
    } finally {
      app.close();
    }
  }

  /**
   * Issue 35, item 7: the lateness panel charts the quantiles of need against the current
   * allowedLateness and names what it keeps and the lateness each completeness would take.
   */
  @Test
  void theLatenessPanelChartsTheNeedsAgainstTheCurrentSetting() throws Exception {
    try (ConfigurableApplicationContext app = RedisEventide.start(prefix);
        Browser browser = new Browser()) {
      LiveApi api = RedisEventide.api(app);
      int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
      LatenessFeed.feed(api, "advised");
      browser.open("http://localhost:" + port + "/#/pipelines/advised");
      // Read in one script: the panel is redrawn with every poll.
      List<Object> shown =
          browser.await(
              "the lateness figures",
              d -> {
                Object texts =
                    browser.script(
                        "const t = id => document.getElementById(id)?.textContent;"
                            + " return t('lateness-events') === '4 events' ? [t('lateness-kept'),"
                            + " t('lateness-suggestions'),"
                            + " document.getElementById('lateness-chart').ariaLabel] : null;");
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) texts;
                return list;
              });
      assertThat(shown.get(0)).isEqualTo("75 %");
      assertThat(shown.get(1).toString()).contains("to keep 90 %: allowedLateness PT4M");
      assertThat(shown.get(2))
          .isEqualTo(
              "need of lateness by quantile: 0.5 0 s, 0.9 240 s, 0.99 240 s, 0.999 240 s,"
                  + " max 240 s; allowedLateness 60 s");
      browser.screenshot(Path.of("target", "dashboard-lateness.png"));
    }
  }

  /** The restatement texts of the windows table, read in one script (the table is redrawn). */
  @SuppressWarnings("unchecked")
  private static List<String> restatements(Browser browser) {
    return (List<String>)
        browser.script(
            "return [...document.querySelectorAll('#windows .restated')].map(e => e.textContent);");
  }

  @Test
  void tenThousandKeysFrameTime() throws Exception {
    ConfigurableApplicationContext app = RedisEventide.start(prefix);
    try (Browser browser = new Browser()) {
      LiveApi api = RedisEventide.api(app);
      int port = app.getEnvironment().getProperty("local.server.port", Integer.class);
      api.define("wide", DEFINITION);
      browser.open("http://localhost:" + port + "/#/pipelines/wide");
      browser.await("the page", d -> !d.findElements(By.id("keys")).isEmpty());
      int keys = 10_000;
      for (int round = 0; round < 3; round++) {
        for (int from = 0; from < keys; from += 2000) {
          List<String> batch = new ArrayList<>();
          for (int k = from; k < from + 2000; k++) {
            batch.add(event("k" + k, "2026-01-01T10:00:0" + round + "Z", k % 97 + round));
          }
          api.events("wide", array(batch.toArray(String[]::new)));
        }
      }
      api.watermark("wide", "{\"watermark\": \"2026-01-01T10:01:00Z\"}");
      browser.await(
          "10 000 keys, all final",
          d ->
              browser.text("#key-count").replace(",", "").equals("10000")
                  && d.findElements(By.cssSelector("#keys td.value.provisional")).isEmpty()
                  && d.findElements(By.cssSelector("#keys td.value.final")).size() == 20);
      browser.screenshot(Path.of("target", "dashboard-10000-keys.png"));
      @SuppressWarnings("unchecked")
      List<Number> renders =
          (List<Number>) browser.script("return window.eventideStats.renderMillis");
      // Frame intervals over two seconds while the page keeps taking panes and drawing.
      String measure =
          """
          const done = arguments[arguments.length - 1];
          const gaps = []; let last = performance.now(); const end = last + 2000;
          function frame(now) { gaps.push(now - last); last = now;
            if (now < end) requestAnimationFrame(frame); else done(gaps); }
          requestAnimationFrame(frame);
          """;
      Thread producer =
          new Thread(
              () -> {
                for (int round = 0; round < 4; round++) {
                  List<String> batch = new ArrayList<>();
                  for (int k = 0; k < 2000; k++) {
                    batch.add(event("k" + k, "2026-01-01T10:01:0" + round + "Z", k % 13));
                  }
                  RedisEventide.api(app).events("wide", array(batch.toArray(String[]::new)));
                }
              });
      producer.start();
      @SuppressWarnings("unchecked")
      List<Number> gaps = (List<Number>) browser.driver.executeAsyncScript(measure);
      producer.join();
      String figures =
          "render ms (last "
              + renders.size()
              + " renders with up to 10 000 keys): "
              + summary(renders)
              + "\nframe interval ms while panes arrive: "
              + summary(gaps)
              + "\n";
      Files.writeString(Path.of("target", "dashboard-frames.txt"), figures);
      System.out.print(figures);
      assertThat(renders).isNotEmpty();
      assertThat(gaps).isNotEmpty();
    } finally {
      app.close();
    }
  }

  private static String summary(List<Number> values) {
    double[] v = values.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    return "p50 %.1f, p95 %.1f, max %.1f (n=%d)"
        .formatted(v[v.length / 2], v[(int) (v.length * 0.95)], v[v.length - 1], v.length);
  }

  /**
   * The key's value cell as {@code [text, class, timing]}, read in one script: the page redraws its
   * table as panes come, so an element found in one call may be gone by the next.
   */
  @SuppressWarnings("unchecked")
  private static List<String> cell(Browser browser, String key) {
    return (List<String>)
        browser.script(
            "const c = document.querySelector(\"#keys tr[data-key='\" + arguments[0] + \"'] td.value\");"
                + " return c ? [c.textContent, c.className, c.dataset.timing] : null;",
            key);
  }

  private static void awaitValue(Browser browser, String key, String value, String finality) {
    browser.await(
        key + " showing " + value + " (" + finality + ")",
        d -> {
          List<String> cell = cell(browser, key);
          return cell != null && cell.get(0).equals(value) && cell.get(1).contains(finality);
        });
  }

  @SuppressWarnings("unchecked")
  private static List<String> seen(Browser browser) {
    return (List<String>) browser.script("return window.eventideStats.seen");
  }

  /** Per window, the pane indexes the page received go up by one from the first it saw. */
  private static void assertNoGapNorRepeat(List<String> seen) {
    Map<String, Integer> last = new HashMap<>();
    for (String s : seen) {
      String window = s.substring(0, s.indexOf('#'));
      int index = Integer.parseInt(s.substring(s.indexOf('#') + 1).replace(" snapshot", ""));
      Integer before = last.put(window, index);
      if (before != null) {
        assertThat(index).as("%s after %s in %s", s, before, seen).isEqualTo(before + 1);
      } else if (!s.endsWith(" snapshot")) {
        assertThat(index).as("%s is the first pane of its window: %s", s, seen).isZero();
      }
    }
    assertThat(last)
        .containsKeys(
            "alpha@2026-01-01T10:00:00.000Z",
            "alpha@2026-01-01T10:01:00.000Z",
            "gamma@2026-01-01T10:01:00.000Z");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The first line of the page's explanation, once there is one. */
  private static String why(Browser browser) {
    return browser.await(
        "an explanation",
        d -> {
          Object text =
              browser.script(
                  "const li = document.querySelector('.why li');"
                      + " return li ? li.textContent : null;");
          return text == null ? null : text.toString();
        });
  }

  /** What the chart says it shows (its aria-label). */
  private static String chartLabel(Browser browser) {
    Object label =
        browser.script("return document.getElementById('chart').getAttribute('aria-label')");
    return label == null ? "" : label.toString();
  }
}

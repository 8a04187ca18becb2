package io.eventide.dashboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's chromium, headless, through its chromedriver, with a fresh profile. A missing browser or
 * driver fails the test that asked for one: nothing here skips.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  static final Duration WAIT = Duration.ofSeconds(60);

  final ChromeDriver driver;
  private final Path profile;

  Browser() {
    try {
      profile = Files.createTempDirectory("eventide-chromium");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1400,1000",
        "--user-data-dir=" + profile);
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).build();
    driver = new ChromeDriver(service, options);
  }

  void open(String url) {
    driver.get(url);
  }

  <T> T await(String what, Function<WebDriver, T> condition) {
    return new WebDriverWait(driver, WAIT).withMessage(what).until(condition);
  }

  String text(String css) {
    return driver.findElement(By.cssSelector(css)).getText();
  }

  Object script(String js, Object... args) {
    return driver.executeScript(js, args);
  }

  void screenshot(Path to) {
    try {
      Files.createDirectories(to.getParent());
      Files.write(to, driver.getScreenshotAs(OutputType.BYTES));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

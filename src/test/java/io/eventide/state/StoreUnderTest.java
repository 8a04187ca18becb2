package io.eventide.state;

import java.util.List;

/**
 * Where a service a test starts keeps its state: the command-line arguments that put it on the
 * Redis store under a key prefix, and how to delete what it left there.
 */
public interface StoreUnderTest {
  List<String> arguments(String prefix);

  void delete(String prefix);

  /** A single Redis at {@code url}. */
  static StoreUnderTest redis(String url) {
    return new StoreUnderTest() {
      @Override
      public List<String> arguments(String prefix) {
        return TestRedis.storeArguments(url, prefix);
      }

      @Override
      public void delete(String prefix) {
        TestRedis.delete(prefix);
      }
    };
  }
}

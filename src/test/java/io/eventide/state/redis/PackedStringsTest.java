package io.eventide.state.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.eventide.state.TestRedis;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Lists packed for commit.lua, unpacked by Redis's own cmsgpack: every length, every byte. */
class PackedStringsTest {
  private static final byte[] UNPACK = "return cmsgpack.unpack(ARGV[1])".getBytes();

  @Test
  void redisUnpacksWhatWasPackedOfEveryLengthAndByte() {
    Random random = new Random(5);
    List<byte[]> strings = new ArrayList<>();
    // Each side of every length boundary of MessagePack's string formats.
    for (int length : new int[] {0, 1, 31, 32, 255, 256, 65_535, 65_536, 200_000}) {
      byte[] s = new byte[length];
      random.nextBytes(s);
      strings.add(s);
    }
    long[] numbers = {0, 9, 10, -1, Long.MIN_VALUE, Long.MAX_VALUE};
    // Small enough to grow many times on the way, and used twice as a commit reuses it.
    PackedStrings packed = new PackedStrings(8);
    try (RedisClient client = RedisClient.create(TestRedis.url());
        StatefulRedisConnection<byte[], byte[]> redis = client.connect(ByteArrayCodec.INSTANCE)) {
      for (int round = 0; round < 2; round++) {
        List<byte[]> expected = new ArrayList<>(strings);
        for (long n : numbers) {
          expected.add(Long.toString(n).getBytes(StandardCharsets.US_ASCII));
        }
        expected.add("ключ €".getBytes(StandardCharsets.UTF_8));
        byte[] list =
            packed.pack(
                p -> {
                  strings.forEach(p::add);
                  for (long n : numbers) {
                    p.add(n);
                  }
                  p.add("ключ €");
                });
        List<byte[]> unpacked =
            redis.sync().eval(UNPACK, ScriptOutputType.MULTI, new byte[0][], list);
        assertThat(unpacked).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
          assertThat(unpacked.get(i)).as("item %d", i).isEqualTo(expected.get(i));
        }
      }
      assertThat(
              redis
                  .sync()
                  .<List<byte[]>>eval(
                      UNPACK, ScriptOutputType.MULTI, new byte[0][], packed.pack(p -> {})))
          .isEmpty();
    }
  }
}

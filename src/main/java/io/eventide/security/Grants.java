package io.eventide.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/**
 * What a credential may do, per pipeline; {@code *} stands for every pipeline. An admin of a
 * pipeline may also produce to it and read it. Grants travel as authorities of the form {@code
 * eventide:<role>:<pipeline>}, the same words JWT scopes use. A producer grant {@code
 * stream:<stream>} lets the credential post to a stream whichever pipelines read it; pipeline names
 * never contain a colon, so it names no pipeline.
 */
public record Grants(Set<String> admin, Set<String> producer, Set<String> reader) {
  static final String ANY = "*";
  private static final String STREAM = "stream:";
  private static final String PREFIX = "eventide:";

  public Grants {
    admin = Set.copyOf(admin);
    producer = Set.copyOf(producer);
    reader = Set.copyOf(reader);
  }

  public static Grants of(
      Collection<String> admin, Collection<String> producer, Collection<String> reader) {
    return new Grants(
        new TreeSet<>(admin == null ? List.of() : admin),
        new TreeSet<>(producer == null ? List.of() : producer),
        new TreeSet<>(reader == null ? List.of() : reader));
  }

  List<GrantedAuthority> authorities() {
    List<GrantedAuthority> out = new ArrayList<>();
    admin.forEach(p -> out.add(new SimpleGrantedAuthority(PREFIX + "admin:" + p)));
    producer.forEach(p -> out.add(new SimpleGrantedAuthority(PREFIX + "produce:" + p)));
    reader.forEach(p -> out.add(new SimpleGrantedAuthority(PREFIX + "read:" + p)));
    return out;
  }

  /**
   * Reads authorities back, ignoring any that are not Eventide's. {@code eventide:admin} without a
   * pipeline is the global admin, as a JWT scope would say it.
   */
  static Grants fromAuthorities(Collection<? extends GrantedAuthority> authorities) {
    Set<String> admin = new TreeSet<>();
    Set<String> producer = new TreeSet<>();
    Set<String> reader = new TreeSet<>();
    for (GrantedAuthority a : authorities) {
      String text = a.getAuthority();
      if (text == null || !text.startsWith(PREFIX)) {
        continue;
      }
      String rest = text.substring(PREFIX.length());
      if (rest.equals("admin")) {
        admin.add(ANY);
      } else if (rest.startsWith("admin:")) {
        admin.add(rest.substring("admin:".length()));
      } else if (rest.startsWith("produce:")) {
        producer.add(rest.substring("produce:".length()));
      } else if (rest.startsWith("read:")) {
        reader.add(rest.substring("read:".length()));
      }
    }
    return new Grants(admin, producer, reader);
  }

  boolean isGlobalAdmin() {
    return admin.contains(ANY);
  }

  /** Whether the credential administers at least one pipeline: who defines pipelines tries them. */
  boolean administersAny() {
    return !admin.isEmpty();
  }

  boolean canAdminister(String pipeline) {
    return covers(admin, pipeline);
  }

  boolean canProduce(String pipeline) {
    return canAdminister(pipeline) || covers(producer, pipeline);
  }

  /** Whether the credential produces to something: a pipeline, or a stream. */
  boolean producesAny() {
    return !admin.isEmpty() || !producer.isEmpty();
  }

  /** Whether the credential holds the stream's own grant (a global admin holds every one). */
  boolean canProduceStream(String stream) {
    return isGlobalAdmin() || producer.contains(STREAM + stream);
  }

  boolean canRead(String pipeline) {
    return canAdminister(pipeline) || covers(reader, pipeline);
  }

  private static boolean covers(Set<String> pipelines, String pipeline) {
    return pipelines.contains(ANY) || pipelines.contains(pipeline);
  }
}

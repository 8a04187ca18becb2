package io.eventide.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The repository's files, found from the compiled tests rather than the working directory. */
public final class ProjectFiles {
  public static final Path ROOT = root();

  private ProjectFiles() {}

  public static Path path(String relative) {
    return ROOT.resolve(relative);
  }

  public static String read(String relative) {
    try {
      return Files.readString(path(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every document of a YAML file, as maps, lists and scalars. */
  public static List<Object> yamlDocuments(String relative) {
    try (Reader in = Files.newBufferedReader(path(relative))) {
      return yamlDocumentsOf(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<Object> yamlDocumentsOf(Reader in) {
    List<Object> docs = new ArrayList<>();
    new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(in).forEach(docs::add);
    return docs;
  }

  /** The single document of a YAML file, as a map. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> yamlMap(String relative) {
    List<Object> docs = yamlDocuments(relative);
    if (docs.size() != 1 || !(docs.get(0) instanceof Map)) {
      throw new IllegalStateException(relative + " must hold exactly one YAML mapping");
    }
    return (Map<String, Object>) docs.get(0);
  }

  /**
   * Spring-style property names of a YAML mapping: nested keys joined with dots, down to scalars
   * and lists, which are values. Keys such as {@code endpoints.web} stay as written, as Spring
   * reads them the same way.
   */
  public static Map<String, Object> flatten(Map<?, ?> yaml) {
    Map<String, Object> out = new LinkedHashMap<>();
    flatten("", yaml, out);
    return out;
  }

  private static void flatten(String prefix, Map<?, ?> yaml, Map<String, Object> out) {
    yaml.forEach(
        (k, v) -> {
          String key = prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k;
          if (v instanceof Map<?, ?> nested) {
            flatten(key, nested, out);
          } else {
            out.put(key, v);
          }
        });
  }

  /** target/test-classes is two levels below the repository root. */
  private static Path root() {
    try {
      Path classes =
          Path.of(ProjectFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path root = classes.getParent().getParent();
      if (!Files.isRegularFile(root.resolve("pom.xml"))) {
        throw new IllegalStateException("no pom.xml two levels above " + classes);
      }
      return root;
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

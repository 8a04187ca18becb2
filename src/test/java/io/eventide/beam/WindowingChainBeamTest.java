package io.eventide.beam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.eventide.definition.PipelineDefinition;
import io.eventide.definition.WindowDefinition;
import io.eventide.definition.beam.BeamJava;
import io.eventide.definition.beam.RandomDefinitions;
import io.eventide.definition.json.InvalidInputException;
import io.eventide.definition.json.PipelineParserTest;
import io.eventide.definition.json.Violation;
import io.eventide.engine.AccumulationMode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.windowing.CalendarWindows;
import org.apache.beam.sdk.transforms.windowing.Window;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.WindowingStrategy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The windowing chains Eventide writes and reads, checked against Beam's Java SDK itself: each
 * chain is compiled by javac against Beam and applied to a collection, as a Beam user's code would
 * be.
 */
class WindowingChainBeamTest {
  private static final String ELEMENT = "KV<String, Integer>";

  /** Beam's SDK and Joda-Time, all the chains refer to: javac reads no other jar. */
  private static final String CLASSPATH =
      Stream.of(Window.class, org.joda.time.Duration.class)
          .map(c -> c.getProtectionDomain().getCodeSource().getLocation().getPath())
          .collect(Collectors.joining(File.pathSeparator));

  /** Random definitions, but retracting ones: Beam's SDK has no retracting panes any more. */
  private static final List<PipelineDefinition> DEFINITIONS = definitions();

  /** Every combination of the settings Beam's rules look at, as a Java chain. */
  private static final List<String> RULE_CHAINS = ruleChains();

  /** Every chain of both, compiled and built once: javac is what takes the time. */
  private static final Map<String, Window<KV<String, Integer>>> WINDOWS = new HashMap<>();

  private static final PipelineOptions OPTIONS = PipelineOptionsFactory.create();

  @BeforeAll
  static void compileEveryChain() throws Exception {
    List<String> chains =
        Stream.concat(DEFINITIONS.stream().map(BeamJava::windowing), RULE_CHAINS.stream())
            .distinct()
            .toList();
    List<Window<KV<String, Integer>>> windows = compile(chains);
    for (int i = 0; i < chains.size(); i++) {
      WINDOWS.put(chains.get(i), windows.get(i));
    }
  }

  private static List<PipelineDefinition> definitions() {
    PipelineDefinition base = PipelineParserTest.parse(PipelineParserTest.with());
    Random random = new Random(20_260_302L);
    List<PipelineDefinition> definitions = new ArrayList<>();
    while (definitions.size() < 150) {
      PipelineDefinition d = RandomDefinitions.windowing(random, base);
      if (d.accumulation() != AccumulationMode.RETRACTING) {
        definitions.add(d);
      }
    }
    return definitions;
  }

  private static List<String> ruleChains() {
    List<String> chains = new ArrayList<>();
    for (String window :
        List.of("FixedWindows.of(Duration.standardMinutes(1))", "new GlobalWindows()")) {
      for (String trigger :
          List.of(
              "",
              ".triggering(DefaultTrigger.of())",
              ".triggering(AfterPane.elementCountAtLeast(2))")) {
        for (String lateness :
            List.of(
                "",
                ".withAllowedLateness(Duration.ZERO)",
                ".withAllowedLateness(Duration.standardMinutes(1))")) {
          for (String mode : List.of("", ".discardingFiredPanes()", ".accumulatingFiredPanes()")) {
            chains.add("Window.into(" + window + ")" + trigger + lateness + mode);
          }
        }
      }
    }
    return chains;
  }

  /**
   * Every chain written for a definition compiles, Beam accepts it, and the strategy Beam derives
   * from it is the one Beam derives from the definition built through its typed API.
   */
  @Test
  void beamReadsEveryWrittenChainAsTheDefinitionItCameFrom() {
    for (PipelineDefinition d : DEFINITIONS) {
      String chain = BeamJava.windowing(d);
      WindowingStrategy<?, ?> written = strategy(WINDOWS.get(chain));
      WindowingStrategy<?, ?> typed = strategy(BeamRunner.window(d.windowingStrategy()));
      if (d.window() instanceof WindowDefinition.Calendar) {
        // BeamRunner has no calendar windows; their expressions have tests of their own.
        assertThat(written.getWindowFn().getClass().getEnclosingClass())
            .as(chain)
            .isEqualTo(CalendarWindows.class);
      } else {
        assertThat(written.getWindowFn()).as(chain).isEqualTo(typed.getWindowFn());
      }
      assertThat(written.getTrigger()).as(chain).isEqualTo(typed.getTrigger());
      assertThat(written.getMode()).as(chain).isEqualTo(typed.getMode());
      assertThat(written.getAllowedLateness()).as(chain).isEqualTo(typed.getAllowedLateness());
      assertThat(written.getClosingBehavior()).as(chain).isEqualTo(typed.getClosingBehavior());
      assertThat(written.getOnTimeBehavior()).as(chain).isEqualTo(typed.getOnTimeBehavior());
      assertThat(written.getTimestampCombiner()).as(chain).isEqualTo(typed.getTimestampCombiner());
    }
  }

  /**
   * A Java chain is refused exactly when Beam's SDK refuses it on applying it, for every
   * combination of window, trigger, lateness and accumulation mode that its rules look at.
   */
  @Test
  void refusesAJavaChainExactlyWhenBeamDoes() {
    for (String chain : RULE_CHAINS) {
      IllegalArgumentException beams =
          catchThrowableOfType(IllegalArgumentException.class, () -> strategy(WINDOWS.get(chain)));
      ObjectNode body = (ObjectNode) PipelineParserTest.with();
      body.remove("window");
      body.put("windowing", chain);
      InvalidInputException ours =
          catchThrowableOfType(InvalidInputException.class, () -> PipelineParserTest.parse(body));
      assertThat(ours != null).as(chain + ": refused by Beam: " + beams).isEqualTo(beams != null);
      if (ours != null) {
        assertThat(ours.violations())
            .extracting(Violation::reason)
            .singleElement()
            .asString()
            .startsWith("Beam's Java SDK requires ");
      } else {
        PipelineDefinition d = PipelineParserTest.parse(body);
        WindowingStrategy<?, ?> beam = strategy(WINDOWS.get(chain));
        assertThat(d.allowedLateness().toMillis())
            .as(chain)
            .isEqualTo(beam.getAllowedLateness().getMillis());
        assertThat(d.accumulation().name())
            .as(chain)
            .isEqualTo(beam.getMode().name().replace("_FIRED_PANES", ""));
      }
    }
  }

  /** The strategy of the collection that {@code window} makes of a keyed one. */
  private static WindowingStrategy<?, ?> strategy(Window<KV<String, Integer>> window) {
    Pipeline pipeline = Pipeline.create(OPTIONS);
    PCollection<KV<String, Integer>> input = pipeline.apply(Create.of(KV.of("k", 1)));
    return input.apply(window).getWindowingStrategy();
  }

  /**
   * Compiles the chains, each with the element type a Beam user gives {@code Window.into} when
   * chaining, in one class against the test classpath (Beam's SDK on it), and builds each one.
   */
  @SuppressWarnings("unchecked")
  private static List<Window<KV<String, Integer>>> compile(List<String> chains) throws Exception {
    String source =
        """
        package generated;

        import java.util.Arrays;
        import java.util.List;
        import java.util.function.Supplier;
        import org.apache.beam.sdk.transforms.windowing.*;
        import org.apache.beam.sdk.values.KV;
        import org.joda.time.DateTimeConstants;
        import org.joda.time.DateTimeZone;
        import org.joda.time.Duration;

        public final class Chains {
          public static List<Supplier<Window<%s>>> all() {
            return List.of(
                %s);
          }
        }
        """
            .formatted(
                ELEMENT,
                chains.stream()
                    .map(
                        c ->
                            "() -> "
                                + c.replaceFirst(
                                    "^Window\\.into\\(", "Window.<" + ELEMENT + ">into("))
                    .collect(Collectors.joining(",\n        ")));
    Class<?> compiled = compile("generated.Chains", source);
    List<Supplier<Window<KV<String, Integer>>>> all =
        (List<Supplier<Window<KV<String, Integer>>>>) compiled.getMethod("all").invoke(null);
    return all.stream().map(Supplier::get).toList();
  }

  private static Class<?> compile(String className, String source) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    Map<String, ByteArrayOutputStream> classes = new HashMap<>();
    JavaFileManager files =
        new ForwardingJavaFileManager<>(
            javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
          @Override
          public JavaFileObject getJavaFileForOutput(
              Location location, String name, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(
                URI.create("memory:///" + name.replace('.', '/') + kind.extension), kind) {
              @Override
              public OutputStream openOutputStream() {
                return classes.computeIfAbsent(name, n -> new ByteArrayOutputStream());
              }
            };
          }
        };
    JavaFileObject file =
        new SimpleJavaFileObject(
            URI.create("string:///" + className.replace('.', '/') + ".java"),
            JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
          }
        };
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    boolean compiled =
        javac
            .getTask(
                null,
                files,
                diagnostics,
                List.of("-classpath", CLASSPATH, "-proc:none"),
                null,
                List.of(file))
            .call();
    assertThat(compiled).as(diagnostics.getDiagnostics().toString()).isTrue();
    ClassLoader loader =
        new ClassLoader(WindowingChainBeamTest.class.getClassLoader()) {
          @Override
          protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream bytes = classes.get(name);
            if (bytes == null) {
              throw new ClassNotFoundException(name);
            }
            byte[] code = bytes.toByteArray();
            return defineClass(name, code, 0, code.length);
          }
        };
    return loader.loadClass(className);
  }
}

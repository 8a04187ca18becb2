package io.eventide.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A Dockerfile as its instructions, continuation lines joined and comments dropped. */
record Dockerfile(List<Instruction> instructions) {

  record Instruction(String keyword, String arguments) {}

  static Dockerfile parse(String text) {
    List<Instruction> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : text.split("\n", -1)) {
      String trimmed = line.strip();
      if (current.isEmpty() && (trimmed.isEmpty() || trimmed.startsWith("#"))) {
        continue;
      }
      if (trimmed.endsWith("\\")) {
        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
        continue;
      }
      current.append(trimmed);
      String[] parts = current.toString().strip().split("\\s+", 2);
      out.add(new Instruction(parts[0].toUpperCase(Locale.ROOT), parts.length > 1 ? parts[1] : ""));
      current.setLength(0);
    }
    if (!current.isEmpty()) {
      throw new IllegalArgumentException("the Dockerfile ends inside a continued line");
    }
    return new Dockerfile(out);
  }

  /** The instructions of the last stage, the one the image is made of. */
  List<Instruction> finalStage() {
    int from = 0;
    for (int i = 0; i < instructions.size(); i++) {
      if (instructions.get(i).keyword().equals("FROM")) {
        from = i;
      }
    }
    return instructions.subList(from, instructions.size());
  }

  List<String> all(String keyword) {
    return instructions.stream()
        .filter(i -> i.keyword().equals(keyword))
        .map(Instruction::arguments)
        .toList();
  }

  /** The only argument of {@code keyword} in the final stage. */
  String inFinalStage(String keyword) {
    List<String> found =
        finalStage().stream()
            .filter(i -> i.keyword().equals(keyword))
            .map(Instruction::arguments)
            .toList();
    if (found.size() != 1) {
      throw new AssertionError("expected one " + keyword + " in the final stage, found " + found);
    }
    return found.get(0);
  }
}

package io.eventide.definition.beam;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Splits an expression into tokens; Java, Python and Go share this lexical syntax. */
final class Tokenizer {
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");

  /** Java's type arguments ({@code <KV<String, Long>>}) and a statement's closing {@code ;} too. */
  private static final String PUNCTUATION = "().,*=[]{}<>?;";

  private Tokenizer() {}

  static List<Token> tokenize(String text) {
    List<Token> tokens = new ArrayList<>();
    Matcher number = NUMBER.matcher(text);
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (Character.isJavaIdentifierStart(c)) {
        int end = i + 1;
        while (end < text.length() && Character.isJavaIdentifierPart(text.charAt(end))) {
          end++;
        }
        tokens.add(new Token(Token.Kind.NAME, text.substring(i, end), i));
        i = end;
      } else if (number.region(i, text.length()).lookingAt()) {
        tokens.add(new Token(Token.Kind.NUMBER, number.group(), i));
        i = number.end();
      } else if (c == '"' || c == '\'') {
        int end = text.indexOf(c, i + 1);
        if (end < 0) {
          throw new ExpressionException(i, "unterminated string");
        }
        tokens.add(new Token(Token.Kind.STRING, text.substring(i + 1, end), i));
        i = end + 1;
      } else if (PUNCTUATION.indexOf(c) >= 0) {
        tokens.add(new Token(Token.Kind.PUNCTUATION, String.valueOf(c), i));
        i++;
      } else {
        throw new ExpressionException(i, "unexpected character '" + c + "'");
      }
    }
    tokens.add(new Token(Token.Kind.END, "", text.length()));
    return tokens;
  }
}

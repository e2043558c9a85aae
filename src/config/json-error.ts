/**
 * A JSON syntax error as a person reads it: line and column, and the line itself with a caret.
 * V8's own message gives a character offset (`at position 18`), or none at all (`Unexpected
 * token ']', ..."USDC",] is not valid JSON`), so the error is located again with jsonc-parser
 * in strict JSON mode (no comments, no trailing commas), which reports each error's offset.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

/** Line and column (1-based) of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, Math.max(0, Math.min(offset, text.length))).split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** jsonc-parser's error codes in words. */
const WORDS: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'a property name in double quotes expected',
  ValueExpected: 'a value expected',
  ColonExpected: "':' expected after the property name",
  CommaExpected: "',' expected",
  CloseBraceExpected: "'}' expected",
  CloseBracketExpected: "']' expected",
  EndOfFileExpected: 'nothing expected after the end of the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
};

/**
 * Describes the failure of `JSON.parse(text)` (`err`): `line 3, column 13: ':' expected after the
 * property name`, then the offending line and a caret under the column.
 */
export function describeJsonError(text: string, err: Error): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first === undefined) return err.message;
  const code = printParseErrorCode(first.error);
  const { line, column } = lineColumn(text, first.offset);
  const source = text.split('\n')[line - 1] ?? '';
  // A long line is cut around the column so the caret stays under it.
  const start = Math.max(0, column - 60);
  const shown = source.slice(start, start + 100).replace(/\t/g, ' ');
  const caret = `${' '.repeat(column - 1 - start)}^`;
  return `line ${line}, column ${column}: ${WORDS[code] ?? code}\n    ${shown}\n    ${caret}`;
}

// Lexer for Go's text/template syntax (text/template/parse/lex.go semantics, Go 1.23): text,
// actions with trim markers, comments, numbers, strings, variables, fields and keywords.
// Positions are UTF-16 offsets into the source; errors convert them to Go's byte columns.
import { quote } from './strconv.ts';

// Token types; keywords sort after Keyword so `typ > T.Keyword` tests for one.
export const T = {
  Error: 0,
  Bool: 1,
  Char: 2,
  CharConstant: 3,
  Comment: 4,
  Assign: 5,
  Declare: 6,
  EOF: 7,
  Field: 8,
  Identifier: 9,
  LeftDelim: 10,
  LeftParen: 11,
  Number: 12,
  Complex: 13,
  Pipe: 14,
  RawString: 15,
  RightDelim: 16,
  RightParen: 17,
  Space: 18,
  String: 19,
  Text: 20,
  Variable: 21,
  Keyword: 22,
  Block: 23,
  Break: 24,
  Continue: 25,
  Dot: 26,
  Define: 27,
  Else: 28,
  End: 29,
  If: 30,
  Nil: 31,
  Range: 32,
  Template: 33,
  With: 34,
} as const;

export type TokenType = (typeof T)[keyof typeof T];

export interface Item {
  typ: TokenType;
  pos: number;
  val: string;
  line: number;
}

const KEYWORDS: Record<string, TokenType> = {
  '.': T.Dot,
  block: T.Block,
  break: T.Break,
  continue: T.Continue,
  define: T.Define,
  else: T.Else,
  end: T.End,
  if: T.If,
  range: T.Range,
  nil: T.Nil,
  template: T.Template,
  with: T.With,
};

/** Go's item.String(), used in "unexpected X in Y" parse errors. */
export function itemString(i: Item): string {
  if (i.typ === T.EOF) return 'EOF';
  if (i.typ === T.Error) return i.val;
  if (i.typ > T.Keyword) return '<' + i.val + '>';
  if (utf8Len(i.val) > 10) return truncQuote(i.val) + '...';
  return quote(i.val);
}

// %.10q: quote the first 10 runes.
function truncQuote(s: string): string {
  return quote(Array.from(s).slice(0, 10).join(''));
}

function utf8Len(s: string): number {
  return Array.from(s).length;
}

const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10;
}

const ALNUM_RE = /[\p{L}\p{Nd}_]/u;
function isAlphaNumeric(c: number): boolean {
  if (c < 128) return c === 95 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c < 0) return false;
  return ALNUM_RE.test(String.fromCodePoint(c));
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.charCodeAt(at) === 45 && at + 1 < s.length && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return at + 1 < s.length && isSpace(s.charCodeAt(at)) && s.charCodeAt(at + 1) === 45;
}

export interface LexOptions {
  breakOK: boolean;
  continueOK: boolean;
}

const EOF_RUNE = -1;

/** Tokenizes the whole input eagerly; the item list ends with EOF or an Error item. */
export function lex(input: string, opts: LexOptions): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth = 0;
  let width = 0;

  const emit = (typ: TokenType): void => {
    items.push({ typ, pos: start, val: input.slice(start, pos), line: startLine });
    start = pos;
    startLine = line;
  };
  const ignore = (): void => {
    line += countNL(input, start, pos);
    start = pos;
    startLine = line;
  };
  const next = (): number => {
    if (pos >= input.length) {
      width = 0;
      return EOF_RUNE;
    }
    const c = input.codePointAt(pos)!;
    width = c > 0xffff ? 2 : 1;
    pos += width;
    if (c === 10) line++;
    return c;
  };
  const backup = (): void => {
    pos -= width;
    if (width === 1 && input.charCodeAt(pos) === 10) line--;
  };
  const peek = (): number => {
    const c = next();
    backup();
    return c;
  };
  const error = (msg: string): void => {
    items.push({ typ: T.Error, pos: start, val: msg, line: startLine });
  };
  const accept = (valid: string): boolean => {
    const c = next();
    if (c >= 0 && valid.includes(String.fromCodePoint(c))) return true;
    backup();
    return false;
  };
  const acceptRun = (valid: string): void => {
    for (;;) {
      const c = next();
      if (c < 0 || !valid.includes(String.fromCodePoint(c))) break;
    }
    backup();
  };
  const atRightDelim = (): [boolean, boolean] => {
    if (hasRightTrimMarker(input, pos) && input.startsWith(RIGHT_DELIM, pos + 2)) return [true, true];
    if (input.startsWith(RIGHT_DELIM, pos)) return [true, false];
    return [false, false];
  };
  const atTerminator = (): boolean => {
    const r = peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF_RUNE: case 46: case 44: case 124: case 58: case 41: case 40:
        return true;
      default:
        break;
    }
    return r === RIGHT_DELIM.charCodeAt(0);
  };
  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };

  // Each state returns false when lexing must stop (EOF or error).
  let insideAction = false;
  for (;;) {
    if (!insideAction) {
      // lexText
      const x = input.indexOf(LEFT_DELIM, pos);
      if (x >= 0) {
        if (x > pos) {
          pos = x;
          let trimLength = 0;
          if (hasLeftTrimMarker(input, pos + LEFT_DELIM.length)) trimLength = rightTrimLength(input, start, pos);
          pos -= trimLength;
          line += countNL(input, start, pos);
          if (pos > start) {
            items.push({ typ: T.Text, pos: start, val: input.slice(start, pos), line: startLine });
          }
          start = pos;
          startLine = line;
          pos += trimLength;
          ignore();
        }
        // lexLeftDelim
        pos += LEFT_DELIM.length;
        const trim = hasLeftTrimMarker(input, pos);
        const afterMarker = trim ? 2 : 0;
        if (input.startsWith(LEFT_COMMENT, pos + afterMarker)) {
          pos += afterMarker;
          ignore();
          // lexComment
          pos += LEFT_COMMENT.length;
          const i = input.indexOf(RIGHT_COMMENT, pos);
          if (i < 0) {
            error('unclosed comment');
            return items;
          }
          pos = i + RIGHT_COMMENT.length;
          const [delim, trimSpace] = atRightDelim();
          if (!delim) {
            error('comment ends before closing delimiter');
            return items;
          }
          if (trimSpace) pos += 2;
          pos += RIGHT_DELIM.length;
          if (trimSpace) pos += leftTrimLength(input, pos);
          ignore();
          continue;
        }
        emit(T.LeftDelim);
        pos += afterMarker;
        ignore();
        parenDepth = 0;
        insideAction = true;
        continue;
      }
      pos = input.length;
      if (pos > start) {
        line += countNL(input, start, pos);
        items.push({ typ: T.Text, pos: start, val: input.slice(start, pos), line: startLine });
        start = pos;
        startLine = line;
      }
      emit(T.EOF);
      return items;
    }

    // lexInsideAction
    const [delim] = atRightDelim();
    if (delim) {
      if (parenDepth === 0) {
        lexRightDelim();
        continue;
      }
      error('unclosed left paren');
      return items;
    }
    const r = next();
    if (r === EOF_RUNE) {
      error('unclosed action');
      return items;
    }
    if (isSpace(r)) {
      backup();
      // lexSpace
      let numSpaces = 0;
      while (isSpace(peek())) {
        next();
        numSpaces++;
      }
      if (hasRightTrimMarker(input, pos - 1) && input.startsWith(RIGHT_DELIM, pos - 1 + 2)) {
        backup();
        if (numSpaces === 1) {
          lexRightDelim();
          continue;
        }
      }
      emit(T.Space);
      continue;
    }
    switch (r) {
      case 61: // '='
        emit(T.Assign);
        continue;
      case 58: // ':'
        if (next() !== 61) {
          error('expected :=');
          return items;
        }
        emit(T.Declare);
        continue;
      case 124:
        emit(T.Pipe);
        continue;
      case 34: { // '"'
        if (!lexQuote()) return items;
        continue;
      }
      case 96: { // '`'
        for (;;) {
          const c = next();
          if (c === EOF_RUNE) {
            error('unterminated raw quoted string');
            return items;
          }
          if (c === 96) break;
        }
        emit(T.RawString);
        continue;
      }
      case 36: // '$'
        if (atTerminator()) {
          emit(T.Variable);
          continue;
        }
        if (!lexFieldOrVariable(T.Variable)) return items;
        continue;
      case 39: { // '\''
        for (;;) {
          const c = next();
          if (c === 92) {
            const d = next();
            if (d !== EOF_RUNE && d !== 10) continue;
            error('unterminated character constant');
            return items;
          }
          if (c === EOF_RUNE || c === 10) {
            error('unterminated character constant');
            return items;
          }
          if (c === 39) break;
        }
        emit(T.CharConstant);
        continue;
      }
      case 40:
        parenDepth++;
        emit(T.LeftParen);
        continue;
      case 41:
        parenDepth--;
        if (parenDepth < 0) {
          error("unexpected right paren U+0029 ')'");
          return items;
        }
        emit(T.RightParen);
        continue;
      default:
        break;
    }
    if (r === 46) {
      // ".field" unless a digit follows ('.' can start a number).
      if (pos < input.length) {
        const c = input.charCodeAt(pos);
        if (c < 48 || c > 57) {
          if (!lexFieldOrVariable(T.Field)) return items;
          continue;
        }
      }
    }
    if (r === 46 || r === 43 || r === 45 || (r >= 48 && r <= 57)) {
      backup();
      if (!lexNumber()) return items;
      continue;
    }
    if (isAlphaNumeric(r)) {
      backup();
      // lexIdentifier
      let c: number;
      for (;;) {
        c = next();
        if (!isAlphaNumeric(c)) break;
      }
      backup();
      const word = input.slice(start, pos);
      if (!atTerminator()) {
        error('bad character ' + formatRuneU(c));
        return items;
      }
      const kw = KEYWORDS[word];
      if (kw !== undefined && kw > T.Keyword) {
        if ((kw === T.Break && !opts.breakOK) || (kw === T.Continue && !opts.continueOK)) emit(T.Identifier);
        else emit(kw);
      } else if (word === 'true' || word === 'false') emit(T.Bool);
      else emit(T.Identifier);
      continue;
    }
    if (r <= 0x7f && r >= 0x20 && r !== 0x7f) {
      emit(T.Char);
      continue;
    }
    error('unrecognized character in action: ' + formatRuneU(r));
    return items;
  }

  function lexRightDelim(): void {
    const [, trimSpace] = atRightDelim();
    if (trimSpace) {
      pos += 2;
      ignore();
    }
    pos += RIGHT_DELIM.length;
    emit(T.RightDelim);
    if (trimSpace) {
      pos += leftTrimLength(input, pos);
      ignore();
    }
    insideAction = false;
  }

  function lexQuote(): boolean {
    for (;;) {
      const c = next();
      if (c === 92) {
        const d = next();
        if (d !== EOF_RUNE && d !== 10) continue;
        error('unterminated quoted string');
        return false;
      }
      if (c === EOF_RUNE || c === 10) {
        error('unterminated quoted string');
        return false;
      }
      if (c === 34) break;
    }
    emit(T.String);
    return true;
  }

  function lexFieldOrVariable(typ: TokenType): boolean {
    if (atTerminator()) {
      emit(typ === T.Variable ? T.Variable : T.Dot);
      return true;
    }
    let c: number;
    for (;;) {
      c = next();
      if (!isAlphaNumeric(c)) {
        backup();
        break;
      }
    }
    if (!atTerminator()) {
      error('bad character ' + formatRuneU(c));
      return false;
    }
    emit(typ);
    return true;
  }

  function lexNumber(): boolean {
    if (!scanNumber()) {
      error('bad number syntax: ' + quote(input.slice(start, pos)));
      return false;
    }
    const sign = peek();
    if (sign === 43 || sign === 45) {
      if (!scanNumber() || input.charCodeAt(pos - 1) !== 105) {
        error('bad number syntax: ' + quote(input.slice(start, pos)));
        return false;
      }
      emit(T.Complex);
    } else emit(T.Number);
    return true;
  }
}

function countNL(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function rightTrimLength(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(s.charCodeAt(i - 1))) i--;
  return to - i;
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i - from;
}

/** Go's %#U of a rune: U+0041 'A'. */
export function formatRuneU(c: number): string {
  if (c < 0) c = 0xfffd;
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  const printable = c >= 0x20 && c !== 0x7f && /[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(String.fromCodePoint(c));
  return 'U+' + hex + (printable ? " '" + String.fromCodePoint(c) + "'" : '');
}

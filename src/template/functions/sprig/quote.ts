// strconv.Quote, which sprig's quote uses through fmt's %q.

function isPrint(cp: number): boolean {
  if (cp < 0x20 || cp === 0x7f) return false;
  if (cp >= 0x80 && cp <= 0x9f) return false;
  if (cp === 0xad || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff) return false;
  if (cp >= 0xd800 && cp <= 0xdfff) return false;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}\u0020]/u.test(String.fromCodePoint(cp));
}

/** Go's strconv.Quote: double-quoted, Go escapes, printable Unicode kept as is. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
      default: break;
    }
    if (cp === 0xfffd && ch === '\ufffd') { out += ch; continue; }
    if (isPrint(cp)) out += ch;
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

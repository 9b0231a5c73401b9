// toYaml's output format: sigs.k8s.io/yaml marshals to JSON, re-reads that JSON with go-yaml v2 and
// emits it with libyaml's rules (sorted keys, "- " sequences, 2-space indent, v2's quoting of strings
// that would read back as another type, literal blocks for multi-line strings, folding at 80 columns).
import { GoFuncError, GoInt, GoObject, formatFloatShortest, isMap, jsonFloat, type GoValue } from './index.ts';

type Node = null | boolean | { int: string } | number | string | Node[] | Map<string, Node>;

/** The value after the JSON round trip sigs.k8s.io/yaml performs. */
function toNode(v: GoValue): Node {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
      return v;
    case 'string':
      return v;
    case 'number':
      return jsonNumberNode(jsonFloat(v));
    case 'function':
      throw new GoFuncError('json: unsupported type');
    default:
      break;
  }
  if (v instanceof GoInt) return { int: v.value.toString() };
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (Array.isArray(v)) return v.map(toNode);
  if (v instanceof GoObject) {
    const m = v as unknown as { toJSONValue?: () => GoValue };
    return typeof m.toJSONValue === 'function' ? toNode(m.toJSONValue()) : new Map();
  }
  if (isMap(v)) {
    const keys = Object.keys(v).sort(compareKeys);
    return new Map(keys.map((k) => [k, toNode(v[k])]));
  }
  return null;
}

/**
 * go-yaml v2 reading a JSON number back: an int when ParseInt or ParseUint takes it (so "-0" is 0), else a
 * float64 (so 1e20, past uint64, prints as 1e+20).
 */
function jsonNumberNode(text: string): Node {
  if (/^-?\d+$/.test(text)) {
    const n = BigInt(text);
    if (n >= -(2n ** 63n) && n < 2n ** 64n) return { int: n.toString() };
  }
  return Number(text);
}

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

/** go-yaml v2's keyList.Less for string keys: letters after other runes, digit runs by value. */
export function compareKeys(a: string, b: string): number {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! - br[i]!.codePointAt(0)!;
    if (al || bl) return bl ? -1 : 1;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]!); ai++) an = an * 10n + BigInt(ar[ai]!.charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]!); bi++) bn = bn * 10n + BigInt(br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai - bi;
    return ar[i]!.codePointAt(0)! - br[i]!.codePointAt(0)!;
  }
  return ar.length - br.length;
}

/** Whether go-yaml v2 would read the plain scalar back as something other than a string. */
function resolvesToNonString(s: string): boolean {
  if (s === '') return true;
  if (/^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/.test(s)) return true;
  if (/^[-+]?(\.inf|\.Inf|\.INF)$/.test(s) || /^(\.nan|\.NaN|\.NAN)$/.test(s)) return true;
  if (/^[-+]?(0b[01_]+|0[0-7_]+|0x[0-9a-fA-F_]+|0o[0-7_]+|[0-9][0-9_]*)$/.test(s)) return true; // ints (v2 accepts _)
  if (/^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$/.test(s)) return true; // floats
  if (/^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$/.test(s)) return true; // base 60
  if (/^\d{4}-\d{1,2}-\d{1,2}([Tt]|\s+|$)/.test(s) && /^\d{4}-\d\d?-\d\d?(([Tt]|\s+)\d\d?:\d\d:\d\d(\.\d*)?(\s*(Z|[-+]\d\d?(:\d\d)?))?)?$/.test(s)) return true;
  if (s.startsWith('<<') && s === '<<') return true;
  return false;
}

const isPrintable = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || c === 0x85 || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) || c >= 0x10000;

interface Analysis {
  multiline: boolean;
  plain: boolean;
  single: boolean;
  block: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar, reduced to the block-context decisions. */
function analyze(s: string): Analysis {
  if (s === '') return { multiline: false, plain: false, single: true, block: false };
  let blockInd = false;
  let flowInd = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let prevSpace = false;
  let prevBreak = false;
  if (s.startsWith('---') || s.startsWith('...')) {
    blockInd = true;
    flowInd = true;
  }
  const chars = Array.from(s);
  let precededByWs = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const c = ch.codePointAt(0)!;
    const next = chars[i + 1];
    const followedByWs = next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r';
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) {
        flowInd = true;
        blockInd = true;
      }
      if (ch === '?' || ch === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (ch === '-' && followedByWs) {
        flowInd = true;
        blockInd = true;
      }
    } else {
      if (',?[]{}'.includes(ch)) flowInd = true;
      if (ch === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (ch === '#' && precededByWs) {
        flowInd = true;
        blockInd = true;
      }
    }
    if (!isPrintable(c) || (c > 0x7f && false)) special = true;
    if (ch === '\n') lineBreaks = true;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (ch === '\n') {
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevBreak = true;
      prevSpace = false;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = ch === ' ' || ch === '\t' || ch === '\n';
  }
  let plain = true;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) plain = false;
  if (trailingSpace) block = false;
  if (breakSpace) {
    plain = false;
    single = false;
  }
  if (spaceBreak || special) {
    plain = false;
    single = false;
    block = false;
  }
  if (lineBreaks) plain = false;
  if (blockInd) plain = false;
  void flowInd;
  return { multiline: lineBreaks, plain, single, block };
}

const WIDTH = 80;

/** Writes words of a plain or single-quoted scalar, folding at spaces past column 80 as libyaml does. */
function folded(text: string, column: number, indent: string): string {
  let out = '';
  let col = column;
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === ' ' && col > WIDTH && i > 0 && chars[i - 1] !== ' ' && chars[i + 1] !== ' ' && i !== chars.length - 1) {
      out += '\n' + indent;
      col = indent.length;
      continue;
    }
    out += ch;
    col++;
  }
  return out;
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\0': out += '\\0'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\t': out += '\\t'; continue;
      case '\n': out += '\\n'; continue;
      case '\v': out += '\\v'; continue;
      case '\f': out += '\\f'; continue;
      case '\r': out += '\\r'; continue;
      case '\x1b': out += '\\e'; continue;
      case '\x85': out += '\\N'; continue;
      case '\xa0': out += '\\_'; continue;
      case '\u2028': out += '\\L'; continue;
      case '\u2029': out += '\\P'; continue;
      default: break;
    }
    if (!isPrintable(c) || c === 0xfeff) {
      if (c <= 0xff) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
      else if (c <= 0xffff) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
      else out += '\\U' + c.toString(16).toUpperCase().padStart(8, '0');
    } else out += ch;
  }
  return out + '"';
}

function scalarString(s: string, column: number, indent: string): string {
  if (resolvesToNonString(s)) return doubleQuoted(s);
  const a = analyze(s);
  if (a.multiline && a.block) {
    const chomp = !s.endsWith('\n') ? '-' : /\n\n+$/.test(s) || s === '\n' ? '+' : '';
    const hint = s.startsWith(' ') || s.startsWith('\n') ? '2' : '';
    const body = (chomp === '' || chomp === '+' ? s.slice(0, -1) : s).split('\n');
    return '|' + hint + chomp + body.map((l) => '\n' + (l === '' ? '' : indent + l)).join('');
  }
  if (a.plain) return folded(s, column, indent);
  if (a.single) return "'" + folded(s.replace(/'/g, "''"), column + 1, indent) + "'";
  return doubleQuoted(s);
}

function scalar(n: Node, column: number, indent: string): string {
  if (n === null) return 'null';
  if (typeof n === 'boolean') return n ? 'true' : 'false';
  if (typeof n === 'number') return formatFloatShortest(n).replace('+Inf', '.inf').replace('-Inf', '-.inf').replace('NaN', '.nan');
  if (typeof n === 'string') return scalarString(n, column, indent);
  if (!Array.isArray(n) && !(n instanceof Map)) return n.int;
  return Array.isArray(n) ? '[]' : '{}';
}

const isCollection = (n: Node): n is Node[] | Map<string, Node> =>
  (Array.isArray(n) && n.length > 0) || (n instanceof Map && n.size > 0);

function emit(n: Node, indent: string, out: string[]): void {
  if (Array.isArray(n) && n.length > 0) {
    for (const item of n) {
      if (isCollection(item)) {
        const sub: string[] = [];
        emit(item, indent + '  ', sub);
        out.push(indent + '- ' + sub.join('\n').slice(indent.length + 2));
      } else out.push(indent + '- ' + scalar(item, indent.length + 2, indent + '  '));
    }
    return;
  }
  if (n instanceof Map && n.size > 0) {
    for (const [k, v] of n) {
      const key = scalarString(k, indent.length, indent);
      if (Array.isArray(v) && v.length > 0) {
        out.push(indent + key + ':');
        emit(v, indent, out);
      } else if (v instanceof Map && v.size > 0) {
        out.push(indent + key + ':');
        emit(v, indent + '  ', out);
      } else out.push(indent + key + ': ' + scalar(v, indent.length + key.length + 2, indent + '  '));
    }
    return;
  }
  out.push(indent + scalar(n, indent.length, indent + '  '));
}

/** sigs.k8s.io/yaml.Marshal(v) as text (with its trailing newline). */
export function marshalYAML(v: GoValue): string {
  const out: string[] = [];
  emit(toNode(v), '', out);
  return out.join('\n') + '\n';
}

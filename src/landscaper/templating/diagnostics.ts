// The context Landscaper adds to template errors: a source snippet around the failing line with a
// caret under the column, and the template input with sensitive values masked.
import { gzipSync } from 'node:zlib';
import type { AnyJSON } from '../api/shared.ts';
import { goJSONMarshal } from '../go-json.ts';
import { isObject } from '../yaml.ts';

const LINES_BEFORE = 5;
const LINES_AFTER = 5;
const COMPRESS_THRESHOLD = 512;
const MASK_DEPTH = 10;

/** Lines around `line` (1-based), numbered, with "ˆ≈≈≈≈≈≈≈" under `column` (0-based). */
export function createSourceSnippet(line: number, column: number, source: readonly string[]): string {
  const errIdx = line - 1;
  const start = Math.max(0, errIdx - LINES_BEFORE);
  const end = Math.min(source.length, errIdx + LINES_AFTER + 1);
  let out = '';
  for (let i = start; i < end; i++) {
    const real = i + 1;
    const prefix = `${real}:${' '.repeat(Math.max(0, 4 - Math.floor(real / 10)))}`;
    out += `${prefix}${source[i] ?? ''}\n`;
    if (i === errIdx) out += `${' '.repeat(Math.max(0, column) + prefix.length)}\u02c6≈≈≈≈≈≈≈\n`;
  }
  return out;
}

/** Line and column ("NAME:LINE:COL:" or "NAME:LINE:") from a Go template error message. */
export function errorPosition(message: string): { line: number; column: number } | undefined {
  const m = /:([0-9]+)(?::([0-9]+))?:/m.exec(message);
  if (m === null) return undefined;
  return { line: Number(m[1]), column: m[2] === undefined ? 0 : Number(m[2]) };
}

function goTypeName(v: AnyJSON): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string': return 'string';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    default: return 'map[string]interface {}';
  }
}

function mask(v: AnyJSON, depth: number): AnyJSON {
  if (isObject(v) && depth <= MASK_DEPTH) {
    const out: { [k: string]: AnyJSON } = {};
    for (const [k, x] of Object.entries(v)) out[k] = mask(x, depth + 1);
    return out;
  }
  return `[...] (${goTypeName(v)})`;
}

/** Keys whose values never appear in error messages (they may hold credentials). */
export const SENSITIVE_INPUT_KEYS: readonly string[] = ['imports', 'values', 'state'];

/** The input's top-level keys only (sorted): what status shows, where the whole input would be long and may leak. */
export function templateInputKeys(input: { [key: string]: AnyJSON }): string {
  return `template input keys: ${Object.keys(input).sort().join(', ')}`;
}

/** The template input, one "<prefix><key>: <json>" line per key (sorted), sensitive values masked. */
export function formatTemplateInput(input: { [key: string]: AnyJSON }, prefix = '\t', sensitive = SENSITIVE_INPUT_KEYS): string {
  let out = '';
  for (const k of Object.keys(input).sort()) {
    const v = input[k] ?? null;
    let json: string;
    try {
      json = goJSONMarshal(sensitive.includes(k) ? mask(v, 1) : v);
    } catch {
      json = '';
    }
    if (json.length > COMPRESS_THRESHOLD) out += `${prefix}${k}: >gzip>base64> ${gzipSync(json).toString('base64')}\n`;
    else out += `${prefix}${k}: ${json}\n`;
  }
  return out;
}

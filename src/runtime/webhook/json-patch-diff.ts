// The JSONPatch that turns one JSON value into another, for mutating handlers that change a copy of the
// object and answer with the difference (controller-runtime's PatchResponseFromRaw).
import { isDeepStrictEqual } from 'node:util';
import type { JsonPatchOperation } from '../../client/client.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 6901: "~" → "~0", "/" → "~1". */
function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function diff(from: unknown, to: unknown, path: string, out: JsonPatchOperation[]): void {
  if (isDeepStrictEqual(from, to)) return;
  // Objects are patched key by key; anything else (arrays included) is replaced whole, which keeps
  // the patch correct when the API server applies it to the object it sent.
  if (isObject(from) && isObject(to)) {
    for (const key of Object.keys(from)) if (!(key in to)) out.push({ op: 'remove', path: `${path}/${escape(key)}` });
    for (const key of Object.keys(to)) {
      const child = `${path}/${escape(key)}`;
      if (!(key in from)) out.push({ op: 'add', path: child, value: to[key] });
      else diff(from[key], to[key], child, out);
    }
    return;
  }
  out.push({ op: 'replace', path, value: to });
}

/** Operations that make `from` equal to `to` (undefined values are dropped first, as JSON would). */
export function jsonPatchFor(from: unknown, to: unknown): JsonPatchOperation[] {
  const out: JsonPatchOperation[] = [];
  diff(JSON.parse(JSON.stringify(from ?? null)) as Json, JSON.parse(JSON.stringify(to ?? null)) as Json, '', out);
  return out;
}

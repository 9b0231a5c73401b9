// Helm's strvals parser for --set and --set-string: dotted keys, list indexes (a[0]=x), commas between
// assignments, {a,b} lists, backslash escapes; --set types ints, bools and null.
import type { Values } from './values.ts';

export class StrvalsError extends Error {}

function typed(v: string, asString: boolean): unknown {
  if (asString) return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (v === '0') return 0;
  if (/^[-+]?[1-9][0-9]*$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return v;
}

/** Splits on an unescaped separator; returns the parts with escapes removed only where they escaped it. */
function splitUnescaped(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '\\' && i + 1 < s.length) {
      cur += s[++i]!;
      continue;
    }
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === sep && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

function setPath(target: Values, key: string, value: unknown): void {
  const parts = key.split('.');
  let cur: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < parts.length; i++) {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(parts[i]!);
    if (!m) throw new StrvalsError(`key "${key}" has no value`);
    const name = m[1]!;
    const idx = [...m[2]!.matchAll(/\[(\d+)\]/g)].map((x) => Number(x[1]));
    const last = i === parts.length - 1;
    const steps: (string | number)[] = [name, ...idx];
    for (let j = 0; j < steps.length; j++) {
      const step = steps[j]!;
      const final = last && j === steps.length - 1;
      const holder = cur as Record<string | number, unknown>;
      if (final) holder[step] = value;
      else {
        const nextIsIndex = typeof steps[j + 1] === 'number';
        let nxt = holder[step];
        if (typeof nxt !== 'object' || nxt === null) {
          nxt = nextIsIndex ? [] : {};
          holder[step] = nxt;
        }
        cur = nxt as Record<string, unknown>;
      }
    }
  }
}

/** Parses one --set (or --set-string) argument into `base`. */
export function parseSet(arg: string, base: Values, asString = false): void {
  for (const assignment of splitUnescaped(arg, ',')) {
    if (assignment === '') continue;
    const eq = assignment.indexOf('=');
    if (eq < 0) throw new StrvalsError(`key "${assignment}" has no value`);
    const key = assignment.slice(0, eq);
    const raw = assignment.slice(eq + 1);
    const value = raw.startsWith('{') && raw.endsWith('}')
      ? raw.slice(1, -1).split(',').filter((x) => x !== '').map((x) => typed(x, asString))
      : typed(raw, asString);
    setPath(base, key, value);
  }
}

// A bound on how deeply a request body nests, checked before and after parsing. kube-apiserver's JSON decoder
// refuses more than 10,000 levels ("exceeded max depth"); the server's own code walks objects recursively and
// the YAML parser runs out of stack (or memory) far earlier, so Bosun's bound is lower: deeper than any real
// manifest (large CRD schemas stay under 200), shallow enough for every code path to walk.
import { errors } from '../../apimachinery/status-error.ts';

export const maxNestingDepth = 500;

function exceeded(format: string): never {
  throw errors.badRequest(`the body of the request could not be decoded as ${format}: exceeded max depth of ${maxNestingDepth}`);
}

/** Whether `text` holds at most `limit` opening brackets: native searches, cheaper than walking every character. */
function fewOpenings(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++count > limit) return false;
  }
  return true;
}

/** JSON text: brackets outside strings, counted exactly (unless there are too few to nest that deep). */
export function checkJsonTextDepth(text: string): void {
  if (fewOpenings(text, maxNestingDepth)) return;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) exceeded('JSON');
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/**
 * YAML text, before the parser sees it: flow brackets anywhere (quotes are not tracked, so that no quote can
 * hide brackets), and per line the column where content starts after indentation and `- `, `? `, `: ` indicators,
 * which bounds block nesting. Errs only towards refusing bodies with hundreds of unbalanced brackets or columns.
 */
export function checkYamlTextDepth(text: string): void {
  let flow = 0;
  let lineStart = true;
  let column = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') {
      lineStart = true;
      column = 0;
      continue;
    }
    if (lineStart) {
      const indicator = (c === '-' || c === '?' || c === ':') && (text[i + 1] === ' ' || text[i + 1] === '\t');
      if (c === ' ' || c === '\t' || indicator) {
        column += indicator ? 2 : 1;
        if (indicator) i++;
        if (column > maxNestingDepth) exceeded('YAML');
        continue;
      }
      lineStart = false;
    }
    if (c === '[' || c === '{') {
      if (++flow > maxNestingDepth) exceeded('YAML');
    } else if ((c === ']' || c === '}') && flow > 0) flow--;
  }
}

/** A decoded value, walked without recursion (the check must not itself run out of stack). */
export function checkValueDepth(value: unknown, format: string): void {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > maxNestingDepth) exceeded(format);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
}

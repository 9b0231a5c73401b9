// Differential fuzzing: random templates from a small grammar, rendered by the Go reference (one
// batched process) and by the TypeScript engine; prints the mismatches.
// Usage: node --import tsx scripts/template-golden/fuzz.ts [count=10000] [seed=1]
import { writeFileSync } from 'node:fs';
import { defaultData } from './cases/data.ts';
import { buildGoref, runGoref, type GoRequest } from './lib/goref.ts';
import { renderCase } from '../../test/template/golden-render.ts';

process.env.TZ = 'UTC';
const count = Number(process.argv[2] ?? 10000);
let seed = Number(process.argv[3] ?? 1);

/** mulberry32: reproducible runs from a seed. */
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const fields = ['.str', '.num', '.float', '.neg', '.zero', '.big', '.t', '.f', '.nil', '.missing', '.empty', '.list', '.strs', '.mixed', '.map', '.nested', '.nested.a.b.c', '.imports.labels', '.imports.replicas', '.emptyList', '.emptyMap', '.unicode', '.html', '.multiline', '$', '.'];
const literals = ['1', '0', '-3', '2.5', '1e3', '"a"', '"hello world"', '""', 'true', 'false', '"x\\ny"', "'c'", '0x10', '"  pad "', '"1.2.3"', '"a,b,c"'];
const unary = ['upper', 'lower', 'title', 'trim', 'quote', 'squote', 'toString', 'toJson', 'toYaml', 'len', 'not', 'empty', 'int', 'int64', 'float64', 'b64enc', 'sha256sum', 'first', 'last', 'rest', 'initial', 'reverse', 'uniq', 'sortAlpha', 'keys', 'typeOf', 'kindOf', 'html', 'js', 'urlquery', 'print', 'println', 'toStrings', 'compact', 'deepCopy', 'add1', 'ceil', 'floor', 'snakecase', 'camelcase', 'nospace', 'initials', 'untitle', 'swapcase', 'toPrettyJson', 'b32enc', 'base', 'dir', 'ext', 'clean', 'fromJson', 'fromYaml', 'semver'];
const binary = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'add', 'sub', 'mul', 'div', 'mod', 'max', 'min', 'addf', 'mulf', 'default', 'index', 'printf "%v %v"', 'printf "%d|%s"', 'printf "%q %x"', 'printf "%5.2f %T"', 'print', 'list', 'dict', 'cat', 'join', 'trunc', 'repeat', 'indent', 'nindent', 'contains', 'hasPrefix', 'replace "a"', 'split', 'splitList', 'has', 'without', 'append', 'prepend', 'coalesce', 'ternary "y"', 'get', 'hasKey', 'pick', 'omit', 'merge', 'concat', 'chunk', 'regexMatch', 'regexFind', 'semverCompare', 'until', 'abbrev', 'substr 1', 'wrap', 'plural "one"', 'dig "a"', 'slice'];

function operand(depth: number): string {
  const r = rand();
  if (depth > 2 || r < 0.45) return pick(fields);
  if (r < 0.7) return pick(literals);
  return '(' + pipeline(depth + 1) + ')';
}

function pipeline(depth: number): string {
  const r = rand();
  let cmd: string;
  if (r < 0.3) cmd = operand(depth);
  else if (r < 0.6) cmd = `${pick(unary)} ${operand(depth)}`;
  else cmd = `${pick(binary)} ${operand(depth)} ${operand(depth)}`;
  while (rand() < 0.25) cmd += ` | ${rand() < 0.6 ? pick(unary) : `${pick(binary)} ${operand(depth)}`}`;
  return cmd;
}

function action(depth: number): string {
  const r = rand();
  const trimL = rand() < 0.15 ? '- ' : ' ';
  const trimR = rand() < 0.15 ? ' -' : ' ';
  if (depth < 2 && r < 0.12) return `{{${trimL}if ${pipeline(depth)}${trimR}}}${body(depth + 1)}{{ else }}${body(depth + 1)}{{ end }}`;
  if (depth < 2 && r < 0.22) return `{{${trimL}range $i, $e := ${pipeline(depth)}${trimR}}}{{ $i }}={{ $e }};${body(depth + 1)}{{ else }}none{{ end }}`;
  if (depth < 2 && r < 0.3) return `{{${trimL}with ${pipeline(depth)}${trimR}}}${body(depth + 1)}{{ end }}`;
  if (r < 0.36) return `{{ $v := ${pipeline(depth)} }}{{ $v }}`;
  return `{{${trimL}${pipeline(depth)}${trimR}}}`;
}

function body(depth: number): string {
  let s = '';
  const n = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) s += (rand() < 0.3 ? pick([' ', '\n', 'x', ' - ', '\n  ']) : '') + action(depth);
  return s;
}

const goref = buildGoref();
if (goref === undefined) {
  console.log('Go reference not available (install golang-go and golang-github-masterminds-sprig-dev); nothing to compare.');
  process.exit(0);
}

const requests: GoRequest[] = [];
for (let i = 0; i < count; i++) requests.push({ id: String(i), template: body(0), data: defaultData });
const started = Date.now();
const results = runGoref(goref, requests);
const goMs = Date.now() - started;

/** Go reworded these messages after 1.19 (the reference); the engine follows current Go. */
function normalise(e: string): string {
  return e
    .replace(/(incompatible types for comparison): .* and .*$/, '$1')
    .replace(/can't use (.*) to iterate over more than one variable$/, "range can't iterate over $1")
    .replace(/(non-comparable type) .*$/, '$1')
    .replace(/(non-comparable types?) .*$/, '$1');
}

const mismatches: { template: string; go: string; ts: string }[] = [];
const buckets = new Map<string, number>();
let goErrors = 0;
const tsStarted = Date.now();
for (const [i, req] of requests.entries()) {
  const want = results[i]!;
  const got = renderCase({ template: req.template, data: req.data });
  if (want.error !== undefined) goErrors++;
  const same = want.error !== undefined ? 'error' in got && normalise(got.error) === normalise(want.error) : 'output' in got && got.output === want.output;
  if (!same) {
    const go = want.error !== undefined ? 'ERROR ' + want.error : want.output ?? '';
    const ts = 'error' in got ? 'ERROR ' + got.error : got.output;
    mismatches.push({ template: req.template, go, ts });
    const fn = /at <([a-zA-Z0-9]+)/.exec(want.error ?? '')?.[1] ?? /\{\{-? ?([a-zA-Z0-9]+)/.exec(req.template)?.[1] ?? '?';
    buckets.set(fn, (buckets.get(fn) ?? 0) + 1);
  }
}
const tsMs = Date.now() - tsStarted;
console.log(`${count} cases: ${count - mismatches.length} identical, ${mismatches.length} different (${goErrors} were Go errors); Go ${goMs} ms, TS ${tsMs} ms`);
console.log('differences by first function:', JSON.stringify([...buckets.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20)));
for (const m of mismatches.slice(0, 15)) console.log(JSON.stringify(m));
writeFileSync(process.env.FUZZ_OUT ?? '/tmp/template-fuzz-mismatches.json', JSON.stringify(mismatches, null, 1));
console.log(`${count - mismatches.length} passed, ${mismatches.length} failed`);

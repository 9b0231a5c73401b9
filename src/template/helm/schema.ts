// values.schema.json validation as Helm 3.19's pkg/chartutil/jsonschema.go does it: every chart's and subchart's
// schema against its values. ajv decides whether the values are valid; the messages are built by a walk that
// mirrors santhosh-tekuri/jsonschema v6 (the validator Helm uses), so the text matches Helm's:
// "- at '/age': minimum: got -5, want 0", nested causes indented, several errors of one object grouped.
import AjvModule from 'ajv';
import Ajv2019Module from 'ajv/dist/2019.js';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Chart } from './chart.ts';
import { isTable, type Values } from './values.ts';

// ajv and ajv-formats are CommonJS; under nodenext their default export is the module object.
const Ajv = AjvModule.default;
const Ajv2019 = Ajv2019Module.default;
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

export class HelmSchemaError extends Error {}

type Schema = boolean | { [k: string]: unknown };

/** One error of santhosh-tekuri's tree: where in the values, what failed, and the failures under it. */
interface SchemaFailure {
  at: string[];
  message: string;
  causes: SchemaFailure[];
}

const SCHEMA_URL = 'file:///values.schema.json';

/** The draft a schema declares; santhosh-tekuri (and so Helm) defaults to 2020-12. */
function draftOf(schema: Schema): { year: number; metaschema: string } {
  const s = typeof schema === 'object' && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0?4/.test(s)) return { year: 4, metaschema: 'http://json-schema.org/draft-04/schema#' };
  if (/draft-0?6/.test(s)) return { year: 6, metaschema: 'http://json-schema.org/draft-06/schema#' };
  if (/draft-0?7/.test(s)) return { year: 7, metaschema: 'http://json-schema.org/draft-07/schema#' };
  if (/2019-09/.test(s)) return { year: 2019, metaschema: 'https://json-schema.org/draft/2019-09/schema#' };
  return { year: 2020, metaschema: 'https://json-schema.org/draft/2020-12/schema#' };
}

/** Go's %q inside single quotes, as santhosh-tekuri's quote(). */
function quote(s: string): string {
  return `'${JSON.stringify(s).slice(1, -1).replaceAll('\\"', '"').replaceAll("'", "\\'")}'`;
}

function pointer(tokens: string[]): string {
  return tokens.map((t) => '/' + t.replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** A number as golang.org/x/text's English printer writes %v and %d: digits grouped by thousands. */
function goNumber(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d+)(.*)$/.exec(s);
  if (!m || s.includes('e')) return s;
  return m[1]! + m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + m[3]!;
}

function typeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'bigint' ? 'number' : typeof v;
}

function display(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (v !== null && typeof v === 'object') return 'value';
  return typeof v === 'number' ? goNumber(v) : String(v);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isTable(a) && isTable(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

function resolvePointer(root: Schema, ref: string): Schema | undefined {
  let cur: unknown = root;
  for (const raw of ref.replace(/^#\/?/, '').split('/').filter((t) => t !== '')) {
    const tok = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[tok];
  }
  return typeof cur === 'boolean' || isTable(cur) ? (cur as Schema) : undefined;
}

/** santhosh-tekuri's validator, keyword by keyword in its order; returns one failure (several are a group). */
class Walker {
  constructor(
    private readonly root: Schema,
    private readonly draft: number,
  ) {}

  check(s: Schema, v: unknown, at: string[]): SchemaFailure | undefined {
    const errs = this.keywords(s, v, at);
    if (errs.length === 0) return undefined;
    if (errs.length === 1) return errs[0];
    return { at, message: 'validation failed', causes: errs };
  }

  /** Every failure of schema s at this value, in the validator's order. */
  keywords(s: Schema, v: unknown, at: string[]): SchemaFailure[] {
    if (s === true) return [];
    if (s === false) return [{ at, message: 'false schema', causes: [] }];
    const fail = (message: string, causes: SchemaFailure[] = []): SchemaFailure => ({ at, message, causes });
    const t = typeOf(v);
    if (s.type !== undefined) {
      const want = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
      if (!want.includes(t) && !(want.includes('integer') && t === 'number' && Number.isInteger(v))) return [fail(`got ${t}, want ${want.join(' or ')}`)];
    }
    if ('const' in s && !equal(v, s.const)) return [fail(s.const !== null && typeof s.const === 'object' ? 'const failed' : `value must be ${display(s.const)}`)];
    if (Array.isArray(s.enum) && !s.enum.some((e) => equal(v, e))) {
      const primitive = s.enum.every((e) => e === null || typeof e !== 'object');
      if (!primitive) return [fail('enum failed')];
      return [fail(s.enum.length === 1 ? `value must be ${display(s.enum[0])}` : `value must be one of ${s.enum.map(display).join(', ')}`)];
    }
    const errs: SchemaFailure[] = [];
    const add = (e: SchemaFailure | undefined): void => {
      if (e) errs.push(e);
    };
    if (typeof s.$ref === 'string') {
      // A Reference failure with its one cause is not printed: the cause stands in its place.
      if (s.$ref.startsWith('#')) {
        const target = resolvePointer(this.root, s.$ref);
        if (target !== undefined) add(this.check(target, v, at));
      }
      if (this.draft < 2019) return errs;
    }
    if (t === 'object') this.object(s, v as Record<string, unknown>, at, errs);
    if (t === 'array') this.array(s, v as unknown[], at, errs);
    if (t === 'string') this.string(s, v as string, errs, fail);
    if (t === 'number') this.number(s, v as number, errs, fail);
    if (isTable(s.not) || typeof s.not === 'boolean') {
      if (this.check(s.not as Schema, v, at) === undefined) errs.push(fail('not failed'));
    }
    if (Array.isArray(s.allOf)) {
      const causes = (s.allOf as Schema[]).map((sub) => this.check(sub, v, at)).filter((e) => e !== undefined);
      if (causes.length) errs.push(fail('allOf failed', causes));
    }
    if (Array.isArray(s.anyOf)) {
      const results = (s.anyOf as Schema[]).map((sub) => this.check(sub, v, at));
      if (results.every((e) => e !== undefined)) errs.push(fail('anyOf failed', results as SchemaFailure[]));
    }
    if (Array.isArray(s.oneOf)) {
      const results = (s.oneOf as Schema[]).map((sub) => this.check(sub, v, at));
      const matched = results.flatMap((e, i) => (e === undefined ? [i] : []));
      if (matched.length === 0) errs.push(fail('oneOf failed, none matched', results as SchemaFailure[]));
      else if (matched.length > 1) errs.push(fail(`oneOf failed, subschemas ${matched[0]}, ${matched[1]} matched`));
    }
    if (s.if !== undefined) {
      const branch = this.check(s.if as Schema, v, at) === undefined ? s.then : s.else;
      if (branch !== undefined) add(this.check(branch as Schema, v, at));
    }
    return errs;
  }

  private object(s: Record<string, unknown>, obj: Record<string, unknown>, at: string[], errs: SchemaFailure[]): void {
    const n = Object.keys(obj).length;
    if (typeof s.minProperties === 'number' && n < s.minProperties) errs.push({ at, message: `minProperties: got ${goNumber(n)}, want ${goNumber(s.minProperties)}`, causes: [] });
    if (typeof s.maxProperties === 'number' && n > s.maxProperties) errs.push({ at, message: `maxProperties: got ${goNumber(n)}, want ${goNumber(s.maxProperties)}`, causes: [] });
    const missingOf = (names: unknown): string[] => (Array.isArray(names) ? (names as string[]).filter((p) => !(p in obj)) : []);
    const missing = missingOf(s.required);
    if (missing.length === 1) errs.push({ at, message: `missing property ${quote(missing[0]!)}`, causes: [] });
    else if (missing.length > 1) errs.push({ at, message: `missing properties ${missing.map(quote).join(', ')}`, causes: [] });
    const props = isTable(s.properties) ? s.properties : {};
    const patterns = isTable(s.patternProperties) ? Object.entries(s.patternProperties).map(([re, sub]) => [new RegExp(re, 'u'), sub] as const) : [];
    const additional: string[] = [];
    for (const [name, value] of Object.entries(obj)) {
      let evaluated = false;
      if (name in props) {
        evaluated = true;
        const e = this.check(props[name] as Schema, value, [...at, name]);
        if (e) errs.push(e);
      }
      for (const [re, sub] of patterns) {
        if (!re.test(name)) continue;
        evaluated = true;
        const e = this.check(sub as Schema, value, [...at, name]);
        if (e) errs.push(e);
      }
      if (!evaluated && s.additionalProperties === false) additional.push(name);
      else if (!evaluated && isTable(s.additionalProperties)) {
        const e = this.check(s.additionalProperties, value, [...at, name]);
        if (e) errs.push(e);
      }
    }
    if (additional.length) errs.push({ at, message: `additional properties ${additional.map(quote).join(', ')} not allowed`, causes: [] });
    if (s.propertyNames !== undefined) {
      for (const name of Object.keys(obj)) {
        const e = this.check(s.propertyNames as Schema, name, at);
        if (e) errs.push({ ...e, message: `invalid propertyName ${quote(name)}` });
      }
    }
    if (isTable(s.dependentRequired)) {
      for (const [prop, names] of Object.entries(s.dependentRequired)) {
        const m = prop in obj ? missingOf(names) : [];
        if (m.length) errs.push({ at, message: `properties ${m.map(quote).join(', ')} required, if ${quote(prop)} exists`, causes: [] });
      }
    }
  }

  private array(s: Record<string, unknown>, arr: unknown[], at: string[], errs: SchemaFailure[]): void {
    if (typeof s.minItems === 'number' && arr.length < s.minItems) errs.push({ at, message: `minItems: got ${goNumber(arr.length)}, want ${goNumber(s.minItems)}`, causes: [] });
    if (typeof s.maxItems === 'number' && arr.length > s.maxItems) errs.push({ at, message: `maxItems: got ${goNumber(arr.length)}, want ${goNumber(s.maxItems)}`, causes: [] });
    if (s.uniqueItems === true) {
      outer: for (let i = 0; i < arr.length; i++) {
        for (let j = i + 1; j < arr.length; j++) {
          if (equal(arr[i], arr[j])) {
            errs.push({ at, message: `items at ${i} and ${j} are equal`, causes: [] });
            break outer;
          }
        }
      }
    }
    const each = (sub: unknown, from: number, to = arr.length): void => {
      for (let i = from; i < Math.min(to, arr.length); i++) {
        const e = this.check(sub as Schema, arr[i], [...at, String(i)]);
        if (e) errs.push(e);
      }
    };
    const prefix = this.draft >= 2020 ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
    const rest = this.draft >= 2020 ? s.items : Array.isArray(s.items) ? s.additionalItems : s.items;
    const tuple = Array.isArray(prefix) ? (prefix as Schema[]) : [];
    tuple.forEach((sub, i) => each(sub, i, i + 1));
    if (rest === false && arr.length > tuple.length && tuple.length > 0) errs.push({ at, message: `last ${arr.length - tuple.length} additionalItem(s) not allowed`, causes: [] });
    else if (rest !== undefined) each(rest, tuple.length);
    if (s.contains !== undefined) {
      const results = arr.map((item, i) => this.check(s.contains as Schema, item, [...at, String(i)]));
      const matched = results.flatMap((e, i) => (e === undefined ? [i] : []));
      const failed = results.filter((e) => e !== undefined);
      if (typeof s.minContains === 'number' && this.draft >= 2019) {
        if (matched.length < s.minContains) {
          const message = matched.length === 0
            ? `min ${s.minContains} items required to match contains schema, but none matched`
            : `min ${s.minContains} items required to match contains schema, but matched ${matched.length} items at ${matched.join(' ')}`;
          errs.push({ at, message, causes: failed });
        }
      } else if (matched.length === 0) errs.push({ at, message: 'no items match contains schema', causes: failed });
      if (typeof s.maxContains === 'number' && this.draft >= 2019 && matched.length > s.maxContains) {
        errs.push({ at, message: `max ${s.maxContains} items required to match contains schema, but matched ${matched.length} items at ${matched.join(' ')}`, causes: [] });
      }
    }
  }

  private string(s: Record<string, unknown>, str: string, errs: SchemaFailure[], fail: (m: string) => SchemaFailure): void {
    const len = [...str].length;
    if (typeof s.minLength === 'number' && len < s.minLength) errs.push(fail(`minLength: got ${goNumber(len)}, want ${goNumber(s.minLength)}`));
    if (typeof s.maxLength === 'number' && len > s.maxLength) errs.push(fail(`maxLength: got ${goNumber(len)}, want ${goNumber(s.maxLength)}`));
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(str)) errs.push(fail(`${quote(str)} does not match pattern ${quote(s.pattern)}`));
  }

  private number(s: Record<string, unknown>, n: number, errs: SchemaFailure[], fail: (m: string) => SchemaFailure): void {
    const bound = (name: string, bad: (limit: number) => boolean): void => {
      const limit = s[name];
      if (typeof limit === 'number' && bad(limit)) errs.push(fail(`${name}: got ${goNumber(n)}, want ${goNumber(limit)}`));
    };
    bound('minimum', (l) => n < l);
    bound('maximum', (l) => n > l);
    bound('exclusiveMinimum', (l) => n <= l);
    bound('exclusiveMaximum', (l) => n >= l);
    bound('multipleOf', (l) => !Number.isInteger(n / l));
  }
}

function render(e: SchemaFailure, indent: number, out: string[]): void {
  out.push(`${'  '.repeat(indent)}- at ${quote(pointer(e.at))}: ${e.message}`);
  for (const c of e.causes) render(c, indent + 1, out);
}

/** urn: references Helm leaves unresolved become permissive `true` schemas (Helm 3.18.4's behaviour). */
function urnRefs(s: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(s)) for (const x of s) urnRefs(x, out);
  else if (isTable(s)) {
    for (const [k, v] of Object.entries(s)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('urn:')) out.add(v.replace(/#.*$/, ''));
      else urnRefs(v, out);
    }
  }
  return out;
}

/** The values as JSON sees them: --set's int64s (bigints) as numbers. */
function jsonNumbers(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(jsonNumbers);
  if (isTable(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonNumbers(x)]));
  return v;
}

/**
 * chartutil.ValidateAgainstSingleSchema: the error text for values that fail this schema ("" when they pass),
 * each failure a "- at '<pointer>': <message>" line, ending in a newline.
 */
export function validateAgainstSingleSchema(typedValues: Values, schemaJSON: string): string {
  const values = jsonNumbers(typedValues);
  let schema: Schema;
  try {
    schema = JSON.parse(schemaJSON) as Schema;
  } catch (e) {
    throw new HelmSchemaError((e as Error).message);
  }
  const draft = draftOf(schema);
  const metaFailure = (lines: string[]): HelmSchemaError =>
    new HelmSchemaError(`"${SCHEMA_URL}#" is not valid against metaschema: jsonschema validation failed with '${draft.metaschema}'\n${lines.join('\n')}`);
  if (typeof schema !== 'boolean' && !isTable(schema)) throw metaFailure([`- at '': got ${typeOf(schema)}, want boolean or object`]);
  const opts = { strict: false, allErrors: true, validateFormats: draft.year < 2019 };
  const ajv = draft.year === 2020 ? new Ajv2020(opts) : draft.year === 2019 ? new Ajv2019(opts) : new Ajv(opts);
  addFormats(ajv);
  for (const urn of urnRefs(schema, new Set())) ajv.addSchema({ $id: urn }, urn);
  // The draft is chosen above; ajv knows each metaschema under one spelling only (http vs https, trailing #).
  const forAjv: Schema = isTable(schema) ? { ...schema, $id: SCHEMA_URL } : schema;
  if (isTable(forAjv)) delete forAjv.$schema;
  if (!ajv.validateSchema(forAjv)) {
    throw metaFailure((ajv.errors ?? []).map((e) => `- at ${quote(e.instancePath)}: ${e.message ?? e.keyword}`));
  }
  let valid: boolean;
  try {
    const validate = ajv.compile(forAjv);
    valid = validate(values) === true;
    if (valid) return '';
    const failures = new Walker(schema, draft.year).keywords(schema, values, []);
    const lines: string[] = [];
    for (const f of failures) render(f, 0, lines);
    // Where the walk knows no keyword that failed (formats, remote references), ajv's own words stand in.
    if (lines.length === 0) for (const e of validate.errors ?? []) lines.push(`- at ${quote(e.instancePath)}: ${e.message ?? e.keyword}`);
    return lines.join('\n') + '\n';
  } catch (e) {
    if (e instanceof HelmSchemaError) throw e;
    throw new HelmSchemaError((e as Error).message);
  }
}

/** chartutil.ValidateAgainstSchema: the chart's schema, then each subchart's against its values, "name:\n" before each. */
export function validateAgainstSchema(chart: Chart, values: Values): string {
  let out = '';
  if (chart.schema !== undefined) {
    let err: string;
    try {
      err = validateAgainstSingleSchema(values, chart.schema.toString());
    } catch (e) {
      err = (e as Error).message;
    }
    if (err) out += `${chart.metadata.name}:\n${err}`;
  }
  for (const sub of chart.dependencies) {
    const raw = values[sub.metadata.name];
    if (raw === undefined || raw === null) continue;
    if (!isTable(raw)) {
      out += `${sub.metadata.name}:\ninvalid type for values: expected object (map), got ${goTypeName(raw)}\n`;
      continue;
    }
    out += validateAgainstSchema(sub, raw);
  }
  return out;
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return 'float64';
  return Array.isArray(v) ? '[]interface {}' : 'interface {}';
}

/** The check install, upgrade and template run on the coalesced values; throws Helm's message. */
export function validateValuesSchema(chart: Chart, values: Values): void {
  const err = validateAgainstSchema(chart, values);
  if (err) throw new HelmSchemaError(`values don't meet the specifications of the schema(s) in the following chart(s):\n${err}`);
}

// values.schema.json validation: helm/helm v3.19.2's pkg/chartutil/jsonschema_test.go cases as a table, and the
// schema goldens of cmd/helm/install_test.go through `bosun helm template` (same check, same message; `helm
// install` adds "INSTALLATION FAILED: ", `helm template` does not).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { runHelmTemplate, type HelmTemplateFlags } from '../../../src/cli/commands/helm.ts';
import type { Chart } from '../../../src/template/helm/chart.ts';
import { validateAgainstSchema, validateAgainstSingleSchema } from '../../../src/template/helm/schema.ts';
import type { Values } from '../../../src/template/helm/values.ts';

const TESTDATA = join(import.meta.dirname, 'testdata');
const read = (p: string): string => readFileSync(join(TESTDATA, p), 'utf8');
const values = (p: string): Values => parseYaml(read(p)) as Values;

const subchartSchema = `{
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "Values",
  "type": "object",
  "properties": {
    "age": {
      "description": "Age",
      "minimum": 0,
      "type": "integer"
    }
  },
  "required": [
    "age"
  ]
}
`;

const subchartSchema2020 = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"title": "Values",
	"type": "object",
	"properties": {
		"data": {
			"type": "array",
			"contains": { "type": "string" },
			"unevaluatedItems": { "type": "number" }
		}
	},
	"required": ["data"]
}
`;

function chartWithSubchart(schema: string): Chart {
  const chrt: Chart = { metadata: { name: 'chrt' }, values: {}, templates: [], files: [], crds: [], dependencies: [] };
  const sub: Chart = { metadata: { name: 'subchart' }, values: {}, templates: [], files: [], crds: [], dependencies: [], schema: Buffer.from(schema), parent: chrt };
  chrt.dependencies.push(sub);
  return chrt;
}

test('ValidateAgainstSingleSchema: valid values pass', () => {
  assert.equal(validateAgainstSingleSchema(values('chartutil/test-values.yaml'), read('chartutil/test-values.schema.json')), '');
});

test('ValidateAgainstSingleSchema: a schema that is not a schema fails against the metaschema', () => {
  assert.throws(() => validateAgainstSingleSchema(values('chartutil/test-values.yaml'), read('chartutil/test-values-invalid.schema.json')), {
    message: `"file:///values.schema.json#" is not valid against metaschema: jsonschema validation failed with 'https://json-schema.org/draft/2020-12/schema#'
- at '': got number, want boolean or object`,
  });
});

test('ValidateAgainstSingleSchema: negative values list every failure', () => {
  assert.equal(validateAgainstSingleSchema(values('chartutil/test-values-negative.yaml'), read('chartutil/test-values.schema.json')), `- at '': missing property 'employmentInfo'
- at '/age': minimum: got -5, want 0
`);
});

test('ValidateAgainstSingleSchema: an unresolved urn: reference is ignored', () => {
  const schema = `{"$schema": "https://json-schema.org/draft-07/schema#", "$ref": "urn:example:helm:schemas:v1:helm-schema-validation-conditions:v1/helmSchemaValidation-true"}`;
  assert.equal(validateAgainstSingleSchema({ any: 'value' }, schema), '');
});

const SUBCHART_CASES: [string, string, Values, string][] = [
  ['subchart values pass', subchartSchema, { name: 'John', subchart: { age: 25 } }, ''],
  ['subchart values fail', subchartSchema, { name: 'John', subchart: {} }, `subchart:\n- at '': missing property 'age'\n`],
  ['2020-12 contains passes', subchartSchema2020, { name: 'John', subchart: { data: ['hello', 12] } }, ''],
  ['2020-12 contains fails with its causes', subchartSchema2020, { name: 'John', subchart: { data: [12] } }, `subchart:
- at '/data': no items match contains schema
  - at '/data/0': got number, want string
`],
  ['missing subchart values are not checked', subchartSchema, { name: 'John' }, ''],
  ['null subchart values are not checked', subchartSchema, { name: 'John', subchart: null }, ''],
  ['subchart values of the wrong type', subchartSchema, { name: 'John', subchart: 'oops' }, `subchart:\ninvalid type for values: expected object (map), got string\n`],
];

for (const [name, schema, vals, want] of SUBCHART_CASES) {
  test(`ValidateAgainstSchema: ${name}`, () => assert.equal(validateAgainstSchema(chartWithSubchart(schema), vals), want));
}

// santhosh-tekuri's messages for the other common keywords, and several failures of one object as a group.
const KEYWORD_CASES: [string, object, unknown, string][] = [
  ['enum', { properties: { a: { enum: ['x', 'y'] } } }, { a: 'z' }, `- at '/a': value must be one of 'x', 'y'\n`],
  ['const', { properties: { a: { const: 3 } } }, { a: 2 }, `- at '/a': value must be 3\n`],
  ['pattern', { properties: { a: { pattern: '^v' } } }, { a: '1.0' }, `- at '/a': '1.0' does not match pattern '^v'\n`],
  ['additionalProperties', { additionalProperties: false, properties: { a: {} } }, { a: 1, b: 2, c: 3 }, `- at '': additional properties 'b', 'c' not allowed\n`],
  ['maximum with grouping', { properties: { a: { maximum: 1000 } } }, { a: 12345 }, `- at '/a': maximum: got 12,345, want 1,000\n`],
  ['several in one object', { properties: { o: { required: ['x'], properties: { y: { type: 'string' } } } } }, { o: { y: 1 } }, `- at '/o': validation failed
  - at '/o': missing property 'x'
  - at '/o/y': got number, want string
`],
  ['anyOf', { properties: { a: { anyOf: [{ type: 'string' }, { type: 'boolean' }] } } }, { a: 1 }, `- at '/a': anyOf failed
  - at '/a': got number, want string
  - at '/a': got number, want boolean
`],
  ['$ref to definitions', { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { port: { type: 'integer' } }, properties: { p: { $ref: '#/definitions/port' } } }, { p: 'http' }, `- at '/p': got string, want integer\n`],
];

for (const [name, schema, vals, want] of KEYWORD_CASES) {
  test(`santhosh-tekuri message: ${name}`, () => assert.equal(validateAgainstSingleSchema(vals as Values, JSON.stringify(schema)), want));
}

const FLAGS: HelmTemplateFlags = { values: [], set: [], setString: [], namespace: 'default', apiVersions: [], showOnly: [] };

/** `bosun helm template` from testdata/: its output, or "Error: message" as the command prints it. */
function template(args: string[], flags: Partial<HelmTemplateFlags>): string {
  const cwd = process.cwd();
  process.chdir(TESTDATA);
  try {
    return runHelmTemplate(args, { ...FLAGS, ...flags });
  } catch (e) {
    return `Error: ${(e as Error).message}\n`;
  } finally {
    process.chdir(cwd);
  }
}

// [golden (install_test.go), chart, flags]
const GOLDEN_CASES: [string, string, Partial<HelmTemplateFlags>][] = [
  ['schema-negative.txt', 'testcharts/chart-with-schema-negative', {}],
  ['schema-negative.txt', 'testcharts/chart-with-schema', { values: ['testcharts/chart-with-schema/extra-values.yaml'] }],
  ['schema-negative-cli.txt', 'testcharts/chart-with-schema', { set: ['age=-5'] }],
  ['subchart-schema-negative.txt', 'testcharts/chart-with-schema-and-subchart', {}],
  ['subchart-schema-cli-negative.txt', 'testcharts/chart-with-schema-and-subchart', { set: ['lastname=doe', 'subchart-with-schema.age=-25'] }],
];

for (const [golden, chart, flags] of GOLDEN_CASES) {
  test(`helm template ${chart} ${JSON.stringify(flags)} fails as ${golden}`, () => {
    assert.equal(template(['schema', chart], flags), read(`output/${golden}`).replace('INSTALLATION FAILED: ', ''));
  });
}

test('helm template: values that meet the schemas render; --skip-schema-validation skips the check', () => {
  assert.doesNotMatch(template(['schema', 'testcharts/chart-with-schema'], {}), /^Error/);
  assert.doesNotMatch(template(['schema', 'testcharts/chart-with-schema-and-subchart'], { set: ['lastname=doe', 'subchart-with-schema.age=25'] }), /^Error/);
  assert.doesNotMatch(template(['schema', 'testcharts/chart-with-schema-negative'], { skipSchemaValidation: true }), /^Error/);
});

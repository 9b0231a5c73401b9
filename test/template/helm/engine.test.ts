// Ported from helm/helm v3.19.2 pkg/engine/engine_test.go: template order, error formats, rendering.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromJSONValue, newMap, type GoMap } from '../../../src/template/index.ts';
import { renderTemplates, sortTemplates, type Renderable } from '../../../src/template/helm/render.ts';

test('TestSortTemplates', () => {
  const got = sortTemplates([
    '/mychart/templates/foo.tpl', '/mychart/templates/charts/foo/charts/bar/templates/foo.tpl', '/mychart/templates/bar.tpl',
    '/mychart/templates/charts/foo/templates/bar.tpl', '/mychart/templates/_foo.tpl', '/mychart/templates/charts/foo/templates/foo.tpl',
    '/mychart/templates/charts/bar/templates/foo.tpl',
  ]);
  assert.deepEqual(got, [
    '/mychart/templates/charts/foo/charts/bar/templates/foo.tpl', '/mychart/templates/charts/foo/templates/foo.tpl',
    '/mychart/templates/charts/foo/templates/bar.tpl', '/mychart/templates/charts/bar/templates/foo.tpl',
    '/mychart/templates/foo.tpl', '/mychart/templates/bar.tpl', '/mychart/templates/_foo.tpl',
  ]);
});

function vals(): GoMap {
  const v = newMap();
  v.Values = newMap();
  return v;
}

function render(tpls: Record<string, string>, values: GoMap = vals()): Map<string, string> {
  const m = new Map<string, Renderable>();
  for (const [name, text] of Object.entries(tpls)) m.set(name, { text, vals: values, basePath: '' });
  return renderTemplates(m);
}

test('TestParseErrors', () => {
  assert.throws(() => render({ undefined_function: '{{foo}}' }), { message: 'parse error at (undefined_function:1): function "foo" not defined' });
});

const EXEC_ERRORS: [string, string, string, string][] = [
  ['MissingRequired', 'missing_required', '{{required "foo is required" .Values.foo}}', 'execution error at (missing_required:1:2): foo is required'],
  ['MissingRequiredWithColons', 'missing_required_with_colons', '{{required ":this: message: has many: colons:" .Values.foo}}', 'execution error at (missing_required_with_colons:1:2): :this: message: has many: colons:'],
  ['Issue6044', 'issue6044', '{{ $someEmptyValue := "" }}\n{{ $myvar := "abc" }}\n{{- required (printf "%s: something is missing" $myvar) $someEmptyValue | repeat 0 }}', 'execution error at (issue6044:3:4): abc: something is missing'],
  ['MissingRequiredWithNewlines', 'issue9981', '{{required "foo is required\\nmore info after the break" .Values.foo}}', 'execution error at (issue9981:1:2): foo is required\nmore info after the break'],
  ['FailWithNewlines', 'issue9981', '{{fail "something is wrong\\nlinebreak"}}', 'execution error at (issue9981:1:2): something is wrong\nlinebreak'],
  ['TestFailErrors', 'failtpl', 'All your base are belong to us{{ fail "This is an error" }}', 'execution error at (failtpl:1:33): This is an error'],
];

for (const [name, file, tpl, message] of EXEC_ERRORS) {
  test(`TestExecErrors: ${name}`, () => assert.throws(() => render({ [file]: tpl }), { message }));
}

test('TestRenderInternals', () => {
  const v = vals();
  v.Values = fromJSONValue({ Name: 'one', Value: 'two' });
  const out = render({
    one: 'Hello {{title .Name}}',
    two: 'Goodbye {{upper .Value}}',
    three: '{{template "two" dict "Value" "three"}}',
  }, v.Values as GoMap);
  assert.equal(out.get('one'), 'Hello One');
  assert.equal(out.get('two'), 'Goodbye TWO');
  assert.equal(out.get('three'), 'Goodbye THREE');
});

test('TestAlterFuncMap_include', () => {
  const v = newMap();
  v.Values = '';
  v.Release = fromJSONValue({ Name: 'Mistah Kurtz' });
  const out = render({
    'conrad/templates/quote': '{{include "conrad/templates/_partial" . | indent 2}} dead.',
    'conrad/templates/_partial': '{{.Release.Name}} - he',
  }, v);
  assert.equal(out.get('conrad/templates/quote'), '  Mistah Kurtz - he dead.');
  assert.throws(() => render({
    'nested/templates/quote': '{{include "nested/templates/quote" . | indent 2}} dead.',
    'nested/templates/_partial': '{{.Release.Name}} - he',
  }, v), /nested\/templates\/quote/);
});

// Deviation: JavaScript's stack runs out before Helm's 1000 nested includes, so the engine's own depth error
// may come first; either way the render fails instead of hanging or crashing.
test('TestRenderRecursionLimit: a template including itself stops at the limit', () => {
  assert.throws(() => render({ 'overlook/templates/quote': '{{define "recursion"}}{{include "recursion" . }}{{end}}{{ include "recursion" . }}' }),
    /recursion/);
});

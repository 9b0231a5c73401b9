// A template error in an installation's status: lastError (and its Warning Event) stays a readable message with
// the execution, line and column, and names the template input's top-level keys instead of dumping the input
// (gzip/base64 once it is long) into the object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventsResource } from '../../../src/apimachinery/builtin-resources.ts';
import { T, blueprint, createData, createInst, deployExecution, installation, until, untilFinished, type Env, withEnv } from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

const longValue = 'x'.repeat(2000);

const template = [
  'deployItems:',
  '- name: item',
  '  type: landscaper.gardener.cloud/mock',
  '  config:',
  '    size: {{ .imports.big | len }}',
  '    required: {{ if not .imports.missing }}{{ fail "missing is required" }}{{ end }}',
  '',
].join('\n');

function assertReadable(message: string, what: string): void {
  assert.match(message, /deploy execution "main": template: main:6:\d+: executing "main" at <fail "missing is required">/, what);
  assert.match(message, /template source:\n/, what);
  assert.match(message, /\ntemplate input keys: blueprint, blueprintDef, cd, components, imports, state$/, what);
  assert.doesNotMatch(message, /gzip|base64|template input:\n/, what);
  assert.ok(message.length < 1500, `${what} is short: ${message.length} characters`);
}

test('a template error leaves a readable lastError and Warning Event without a dump of the template input', T, async () => {
  const ns = await env.namespace('tplerr');
  await createData(env, ns, 'big', longValue);
  const bp = blueprint({
    imports: [{ name: 'big', type: 'data', schema: { type: 'string' } }],
    deployExecutions: [deployExecution(template, 'main')],
  });
  await createInst(env, installation('broken', ns, bp, { imports: { data: [{ name: 'big', dataRef: 'big' }] } }));
  const inst = await untilFinished(env, ns, 'broken');
  assert.equal(inst.status?.phase, 'Failed');
  assertReadable(inst.status?.lastError?.message ?? '', 'lastError');

  const warning = await until(
    'the Warning Event of the template error',
    async () => (await env.client.list(eventsResource, { namespace: ns })).items.find((e) => e['type'] === 'Warning' && e['reason'] === 'TemplateExecutionError'),
    (e) => e !== undefined,
  );
  assertReadable(String(warning?.['message']), 'the Warning Event');
});

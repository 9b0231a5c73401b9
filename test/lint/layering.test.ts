// The layering of src/ as eslint.config.js enforces it (npm run lint): ESLint's own API lints deliberately
// wrong imports placed in each layer and must report them, and correct ones must pass.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { ESLint } from 'eslint';

const root = new URL('../../', import.meta.url).pathname;
const RULE = 'no-restricted-imports';

// Only the layering rule, on source text that need not exist on disk: no type information needed.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

/** The layering messages ESLint reports for `import … from source` in the file at `filePath`. */
async function reported(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { x } from '${source}';\nexport { x };\n`, { filePath });
  assert.ok(result, filePath);
  return result.messages.map((m) => m.message);
}

async function refused(filePath: string, source: string): Promise<void> {
  const messages = await reported(filePath, source);
  assert.equal(messages.length, 1, `${filePath} importing ${source} should be refused`);
  assert.match(messages[0]!, /may import only src\//);
}

async function accepted(filePath: string, source: string): Promise<void> {
  assert.deepEqual(await reported(filePath, source), [], `${filePath} importing ${source} should pass`);
}

test('a family imports only the runtime, the client, apimachinery, the template engine and itself', async () => {
  for (const family of ['landscaper', 'terrakojo', 'chaos', 'node', 'workloads']) {
    const top = `src/${family}/probe.ts`;
    const deep = `src/${family}/controller/phases/probe.ts`;
    for (const wrong of ['../apiserver/index.ts', '../cli/families.ts', '../crds/index.ts', '../../bench/landscaper.bench.ts']) await refused(top, wrong);
    await refused(top, family === 'landscaper' ? '../chaos/family.ts' : '../landscaper/family.ts');
    await refused(deep, '../../../apiserver/table/jsonpath.ts');
    await refused(deep, '../../../cli/commands/up.ts');
    for (const right of ['../runtime/index.ts', '../client/client.ts', '../apimachinery/object.ts', '../template/index.ts', `../${family}/api/types.ts`, './sibling.ts', 'node:fs', 'yaml']) await accepted(top, right);
    for (const right of ['../../../runtime/index.ts', '../../api/types.ts', '../phase.ts']) await accepted(deep, right);
  }
});

/** A deep import of the runtime, refused with the public-surface message. */
async function refusedDeepRuntime(filePath: string, source: string): Promise<void> {
  const messages = await reported(filePath, source);
  assert.equal(messages.length, 1, `${filePath} importing ${source} should be refused`);
  assert.match(messages[0]!, /import the runtime only through src\/runtime\/index\.ts/);
}

test('a family and the example family reach the runtime only through its public surface, src/runtime/index.ts', async () => {
  for (const family of ['landscaper', 'terrakojo', 'chaos', 'node', 'workloads']) {
    for (const wrong of ['../runtime/manager.ts', '../runtime/informer/backoff.ts', '../runtime/webhook/index.ts']) await refusedDeepRuntime(`src/${family}/probe.ts`, wrong);
    await refusedDeepRuntime(`src/${family}/controller/phases/probe.ts`, '../../../runtime/phases/phase-machine.ts');
  }
  await refusedDeepRuntime('examples/family/probe.ts', '../../src/runtime/finalizer.ts');
  await accepted('examples/family/probe.ts', '../../src/runtime/index.ts');
  // Inside the runtime, and in tests, its files import each other directly.
  await accepted('src/runtime/controller/probe.ts', '../informer/backoff.ts');
});

test('the runtime imports only the client and apimachinery; the client only apimachinery', async () => {
  for (const wrong of ['../apiserver/index.ts', '../template/index.ts', '../landscaper/family.ts', '../cli/families.ts']) await refused('src/runtime/probe.ts', wrong);
  await refused('src/runtime/controller/probe.ts', '../../landscaper/family.ts');
  for (const right of ['../client/client.ts', '../apimachinery/object.ts', './manager.ts']) await accepted('src/runtime/probe.ts', right);
  await accepted('src/runtime/controller/probe.ts', '../../client/errors.ts');
  for (const wrong of ['../runtime/manager.ts', '../apiserver/index.ts', '../template/index.ts']) await refused('src/client/probe.ts', wrong);
  await accepted('src/client/probe.ts', '../apimachinery/object.ts');
});

test('the API server imports only apimachinery; the template engine and apimachinery nothing of Bosun', async () => {
  for (const wrong of ['../client/client.ts', '../runtime/manager.ts', '../landscaper/family.ts']) await refused('src/apiserver/probe.ts', wrong);
  await refused('src/apiserver/http/probe.ts', '../../client/client.ts');
  await accepted('src/apiserver/http/probe.ts', '../../apimachinery/object.ts');
  await accepted('src/apiserver/http/probe.ts', '../registry/registry.ts');
  for (const wrong of ['../apimachinery/object.ts', '../landscaper/yaml.ts']) await refused('src/template/probe.ts', wrong);
  await refused('src/template/functions/sprig/probe.ts', '../../../apimachinery/object.ts');
  await accepted('src/template/functions/sprig/probe.ts', '../../value.ts');
  for (const wrong of ['../client/client.ts', '../template/index.ts']) await refused('src/apimachinery/probe.ts', wrong);
  await accepted('src/apimachinery/probe.ts', './object.ts');
});

test('the manifest deployer takes JSONPath from apimachinery, no longer from the API server', async () => {
  const readiness = 'src/landscaper/deployers/manifest/readiness.ts';
  await refused(readiness, '../../../apiserver/table/jsonpath.ts');
  await accepted(readiness, '../../../apimachinery/jsonpath.ts');
  await refused(readiness, '../../../apiserver/index.ts');
  await refused('src/landscaper/deployers/manifest/probe.ts', '../../../apiserver/table/jsonpath.ts');
});

test('every source file of a layered folder is under the rule, however deep it sits', async () => {
  const files = execFileSync('git', ['ls-files', 'src/apimachinery', 'src/apiserver', 'src/client', 'src/runtime', 'src/template', 'src/landscaper'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  assert.ok(files.length > 100);
  const uncovered: string[] = [];
  for (const file of files) {
    const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, unknown> };
    const setting = config.rules?.[RULE];
    if (!Array.isArray(setting) || setting[0] !== 2) uncovered.push(file);
  }
  assert.deepEqual(uncovered, []);
});

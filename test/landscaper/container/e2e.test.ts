// The container deployer on `bosun up` with its node agent: a program that reads its imports, writes exports
// and state succeeds; its state survives an update; DELETE runs the delete operation; deleting the item leaves
// no pod or Secret behind; a program that exits 1 fails the item with its last log lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { eventually } from '../../helpers/api-server.ts';
import { deleteItem, finishedJob } from '../deploy-item-jobs.ts';
import { runToEnd } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from '../../node/e2e/bosun-up.ts';

const EXAMPLE = 'examples/landscaper/container/deployitem.yaml';
const LABEL = 'container.deployer.landscaper.gardener.cloud/deployitem-name';
let up: BosunUp;

before(async () => {
  up = await startBosunUp();
  await eventually(async () => (await up.kubectl(['get', 'context', 'default', '-n', 'default'])).code === 0, 60_000, 'the default Context');
});

after(async () => {
  await up?.close();
});

async function exported(name: string): Promise<unknown> {
  return JSON.parse(Buffer.from(await up.ok(['get', 'secret', `${name}-export`, '-n', 'default', '-o', 'jsonpath={.data.config}']), 'base64').toString('utf8'));
}

async function leftovers(name: string): Promise<string> {
  // The deployer makes no ServiceAccount, Role or RoleBinding, and none of them may be left (upstream #353).
  return (await up.ok(['get', 'pods,secrets,serviceaccounts,roles,rolebindings', '-n', 'default', '-l', `${LABEL}=${name}`, '-o', 'name'])).trim();
}

test('a program reads imports, writes exports and state; the state survives an update; DELETE runs; nothing is left', async () => {
  await up.ok(['apply', '-f', EXAMPLE]);
  const first = await finishedJob(up, 'counter');
  assert.equal(first.phase, 'Succeeded', JSON.stringify(first));
  assert.deepEqual(await exported('counter'), { runs: 1, imports: { message: 'hello' } });
  assert.ok(first.conditions?.some((c) => c.type === 'InitContainer' && c.status === 'True'), JSON.stringify(first.conditions));

  await up.ok(['patch', 'di', 'counter', '-n', 'default', '--type=merge', '-p', JSON.stringify({ spec: { config: { importValues: { message: 'again' } } } })]);
  await up.ok(['annotate', 'di', 'counter', '-n', 'default', 'landscaper.gardener.cloud/operation=test-reconcile']);
  const second = await finishedJob(up, 'counter', first.jobID);
  assert.equal(second.phase, 'Succeeded', JSON.stringify(second));
  assert.deepEqual(await exported('counter'), { runs: 2, imports: { message: 'again' } }, 'the second run saw the first run\'s state');
  assert.equal((await up.ok(['get', 'secrets', '-n', 'default', '-l', `${LABEL}=counter,container.deployer.landscaper.gardener.cloud/type=state`, '-o', 'name'])).trim().split('\n').length, 1, 'one state group');

  await deleteItem(up, 'counter');
  const events = await up.ok(['get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=counter,reason=DeleteFinished', '-o', 'jsonpath={.items[*].message}']);
  assert.match(events, /deleting after 2 runs/);
  assert.equal(await leftovers('counter'), '');
  const exportSecret = await up.kubectl(['get', 'secret', 'counter-export', '-n', 'default']);
  assert.notEqual(exportSecret.code, 0, 'the export Secret is gone');
});

test('a program that exits 1 fails the item with its last log lines; force-cleanup deletes without DELETE', async () => {
  const manifest = readFileSync(EXAMPLE, 'utf8')
    .replace('name: counter', 'name: broken')
    .replace(/args:\n[\s\S]*?importValues:/, "args:\n      - 'echo step one; echo \"boom: disk full\" >&2; exit 1'\n    importValues:");
  await up.ok(['apply', '-f', '-'], manifest);
  const failed = await finishedJob(up, 'broken');
  assert.equal(failed.phase, 'Failed', JSON.stringify(failed));
  assert.match(failed.lastError?.message ?? '', /container main .* exited with code 1/);
  assert.match(failed.lastError?.message ?? '', /boom: disk full/);

  await up.ok(['annotate', 'di', 'broken', '-n', 'default', 'container.deployer.landscaper.gardener.cloud/force-cleanup=true']);
  await deleteItem(up, 'broken');
  assert.equal(await leftovers('broken'), '');
  const deleteEvents = await up.ok(['get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=broken,reason=DeleteFinished', '-o', 'name']);
  assert.equal(deleteEvents.trim(), '', 'force-cleanup ran no DELETE pod');
});

// The deployer does not uninstall here: the API server's garbage collector follows the owner references.
test('delete-without-uninstall skips DELETE; the item\'s pods and Secrets are collected all the same (#353)', async () => {
  await up.ok(['apply', '-f', '-'], readFileSync(EXAMPLE, 'utf8').replace('name: counter', 'name: orphan'));
  assert.equal((await finishedJob(up, 'orphan')).phase, 'Succeeded');
  await up.ok(['annotate', 'di', 'orphan', '-n', 'default', 'landscaper.gardener.cloud/delete-without-uninstall=true']);
  await deleteItem(up, 'orphan');
  await up.ok(['wait', '--for=delete', 'pods,secrets', '-n', 'default', '-l', `${LABEL}=orphan`, '--timeout=60s']);
  assert.equal(await leftovers('orphan'), '');
  const deleteEvents = await up.ok(['get', 'events', '-n', 'default', '--field-selector', 'involvedObject.name=orphan,reason=DeleteFinished', '-o', 'name']);
  assert.equal(deleteEvents.trim(), '', 'no DELETE pod ran');
});

test('examples/landscaper/container: the README runs as written', async () => {
  const readme = readFileSync('examples/landscaper/container/README.md', 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  // `bosun up` and its KUBECONFIG are this test's own.
  const script = block.split('\n').filter((line) => !line.startsWith('npx bosun up') && !line.startsWith('export KUBECONFIG')).join('\n');
  const run = await runToEnd('sh', ['-ec', script], { env: { ...process.env, KUBECONFIG: join(up.dataDir, 'kubeconfig'), KUBECACHEDIR: join(up.dataDir, 'kubectl-cache') } });
  assert.equal(run.code, 0, `stdout: ${run.stdout}\nstderr: ${run.stderr}`);
  assert.match(run.stdout, /\{"runs":1,"imports":\{"message":"hello"\}\}/);
  assert.match(run.stdout, /run 1 with imports/);
  assert.match(run.stdout, /deleting after 2 runs/);
});

// Controllers killed with SIGKILL mid-job and restarted reach the same final state. A child `bosun up`
// runs the API server and the Landscaper controllers in one process. A baseline installation (a
// three-layer mock deploy item DAG plus a subinstallation) finishes undisturbed; the same installation in
// another namespace is killed while its job is Progressing, the child restarts on the same data dir and
// port, and both namespaces must end alike: every phase Succeeded, jobID == jobIDFinished everywhere, the
// same deploy items and the same exports.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { exited, freePort, startBosun } from '../../helpers/bosun-process.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { dataObjectsResource, deployItemsResource, installationsResource } from '../../../src/landscaper/api/resources.ts';
import { createNamespace, dagBlueprint, dataObject, getOrUndefined, installation, jobDone, landscapeState, RECONCILE, until, untilFinished } from './fixtures.ts';

const LAYERS = 3;
const WIDTH = 12;

const EXPORTS = ['result-data', 'sub-data'];

async function apply(client: KubeClient, ns: string): Promise<void> {
  await createNamespace(client, ns);
  await client.create(dataObjectsResource, dataObject('seed', ns, 'v1'));
  await client.create(
    installationsResource,
    installation('dag', ns, dagBlueprint(LAYERS, WIDTH, true), {
      imports: { data: [{ name: 'seed', dataRef: 'seed' }] },
      exports: { data: [{ name: 'result', dataRef: 'result-data' }, { name: 'sub', dataRef: 'sub-data' }] },
    }),
  );
}

test('controllers killed with SIGKILL mid-job and restarted reach the same final state as an undisturbed run', { timeout: 240_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-ls-kill-'));
  const port = await freePort();
  let child = await startBosun(dataDir, port);
  const kubeconfig = readFileSync(join(dataDir, 'kubeconfig'), 'utf8');
  let client = createKubeClient({ kubeconfig });
  try {
    // The undisturbed run.
    await apply(client, 'baseline');
    const base = await untilFinished(client, 'baseline', 'dag', 60_000);
    assert.equal(base.status?.phase, 'Succeeded', base.status?.lastError?.message);
    const expected = await landscapeState(client, 'baseline', EXPORTS);

    // The same installation, killed while its deploy items are running.
    await apply(client, 'killed');
    let killedAt: { finished: number; items: number; phase?: string; attempt: number } | undefined;
    const deadline = Date.now() + 60_000;
    let attempt = 1;
    let job: string | undefined;
    while (killedAt === undefined && Date.now() < deadline) {
      const inst = await getOrUndefined<Installation>(client, installationsResource, 'dag', 'killed');
      job ??= inst?.status?.jobID;
      if (inst !== undefined && jobDone(inst) && inst.status?.jobID === job && attempt < 3) {
        // The job outran the poll (a fast machine): start another one and kill that.
        attempt++;
        job = undefined;
        await client.patch(installationsResource, 'dag', { metadata: { annotations: RECONCILE } }, { type: 'merge', namespace: 'killed' });
        await until('the next job', () => getOrUndefined<Installation>(client, installationsResource, 'dag', 'killed'), (i) => i?.status?.jobID !== inst.status?.jobID);
        continue;
      }
      if (inst?.status?.phase === 'Progressing') {
        const items = (await client.list<DeployItem>(deployItemsResource, { namespace: 'killed' })).items;
        const finished = items.filter((d) => jobDone(d)).length;
        if (finished > 0) {
          child.kill('SIGKILL');
          killedAt = { finished, items: items.length, phase: inst.status.phase, attempt };
        }
      }
      if (killedAt === undefined) await new Promise((r) => setTimeout(r, 2));
    }
    await exited(child);
    assert.ok(killedAt !== undefined, 'the job was seen Progressing with finished items');
    assert.ok(killedAt.finished < LAYERS * WIDTH + 1, `killed mid-job: ${JSON.stringify(killedAt)}`);

    await client.close();
    child = await startBosun(dataDir, port);
    client = createKubeClient({ kubeconfig });
    const after = await untilFinished(client, 'killed', 'dag', 90_000);
    assert.equal(after.status?.phase, 'Succeeded', after.status?.lastError?.message);
    const actual = await landscapeState(client, 'killed', EXPORTS);
    assert.deepEqual(actual, expected, `killed at ${JSON.stringify(killedAt)}`);
    for (const group of [actual.installations, actual.executions, actual.deployItems]) {
      for (const o of group) assert.ok(o.phase === 'Succeeded' && o.jobDone, JSON.stringify(o));
    }
    assert.ok(actual.installations.every((i) => i.sameJobAsRoot), 'the subinstallation finished the root job');
    assert.deepEqual(actual.exports, { 'result-data': `l${LAYERS - 1}-i0-v1`, 'sub-data': 'child-v1' });
    assert.equal(actual.deployItems.length, LAYERS * WIDTH + 1);
    console.log(`# killed at ${JSON.stringify(killedAt)}`);
  } finally {
    await client.close();
    child.kill('SIGTERM');
    await exited(child);
  }
});

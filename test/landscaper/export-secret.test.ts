// The deployers' export Secret (`<di>-export`) across a lost status write: a controller killed between creating
// the Secret and recording status.exportRef leaves the Secret behind, and the next try (the new leader) must
// take it over rather than fail on AlreadyExists forever; a Secret of that name owned by something else is not
// taken over.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import { AlreadyExistsError } from '../../src/client/errors.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { writeExportSecret } from '../../src/landscaper/deployers/contract/exports.ts';
import { createNamespace, startServer, type Server } from './deployer-harness.ts';

const ns = 'exports';
let ls: Server;

before(async () => {
  ls = await startServer(false);
  await createNamespace(ls.client, ns, false);
});
after(async () => {
  await ls.close();
});

const item = (name: string, uid: string): DeployItem => ({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem', metadata: { name, namespace: ns, uid }, spec: { type: 'landscaper.gardener.cloud/mock' } }) as DeployItem;

async function leftover(name: string, ownerUid: string): Promise<void> {
  await ls.client.create(secretsResource, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: ns, ownerReferences: [{ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DeployItem', name: 'x', uid: ownerUid }] },
    data: { config: Buffer.from('{"old":true}').toString('base64') },
  });
}

const config = async (name: string): Promise<string> => Buffer.from(String(((await ls.client.get(secretsResource, name, { namespace: ns })).data as Record<string, string>)['config']), 'base64').toString();

test("an earlier try's Secret, owned by the item but not in its status, is updated and referenced", async () => {
  await leftover('mine-export', 'uid-mine');
  const ref = await writeExportSecret(ls.client, item('mine', 'uid-mine'), { data: '{"new":true}' });
  assert.deepEqual(ref, { name: 'mine-export', namespace: ns });
  assert.equal(await config('mine-export'), '{"new":true}');
});

test('a Secret of that name owned by something else is left alone and the write fails', async () => {
  await leftover('theirs-export', 'uid-other');
  await assert.rejects(writeExportSecret(ls.client, item('theirs', 'uid-theirs'), { data: '{"new":true}' }), AlreadyExistsError);
  assert.equal(await config('theirs-export'), '{"old":true}');
});

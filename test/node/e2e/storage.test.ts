// Issue 24's storage with real kubectl against `bosun up` (root): the default `local-path` StorageClass k3s
// ships, a claim without a class getting it, a pod's first use provisioning a directory under the node's data
// dir and binding the claim (Bound, VOLUME, STORAGECLASS in `kubectl get pvc`), reclaimPolicy Delete removing
// the directory with the claim; and a static volume bound to the claim that fits it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const json = (object: unknown) => JSON.stringify(object);

const claim = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra },
});

const writer = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'writer' },
  spec: {
    terminationGracePeriodSeconds: 1,
    containers: [{ name: 'w', image: 'busybox', command: ['sh', '-c', 'echo hello > /data/hello && exec sleep 3600'], volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
  },
};

let up: BosunUp;
let staticDir: string;
before(async () => {
  up = await startBosunUp();
  staticDir = mkdtempSync(join(tmpdir(), 'bosun-static-pv-'));
});
after(async () => {
  await up.close();
  rmSync(staticDir, { recursive: true, force: true });
});

test('local-path is the default StorageClass', async () => {
  const listed = await up.ok(['get', 'storageclass']);
  assert.match(listed, /^NAME\s+PROVISIONER\s+RECLAIMPOLICY\s+VOLUMEBINDINGMODE\s+ALLOWVOLUMEEXPANSION\s+AGE$/m);
  assert.match(listed, /^local-path \(default\)\s+rancher\.io\/local-path\s+Delete\s+WaitForFirstConsumer\s+false\s+\S+$/m);
});

test('a claim is provisioned on its first pod, bound, mounted, and deleted with its directory', { timeout: 180_000 }, async () => {
  await up.ok(['apply', '-f', '-'], json(claim('data')));
  assert.equal(await up.ok(['get', 'pvc', 'data', '-o', 'jsonpath={.spec.storageClassName}']), 'local-path');
  // WaitForFirstConsumer: nothing happens before a pod uses it.
  assert.equal(await up.ok(['get', 'pvc', 'data', '-o', 'jsonpath={.status.phase}']), 'Pending');
  await up.ok(['apply', '-f', '-'], json(writer));
  await up.ok(['wait', '--for=jsonpath={.status.phase}=Bound', 'pvc/data', '--timeout=60s']);
  await up.ok(['wait', '--for=condition=Ready', 'pod/writer', '--timeout=60s']);
  const uid = await up.ok(['get', 'pvc', 'data', '-o', 'jsonpath={.metadata.uid}']);
  const volume = `pvc-${uid}`;
  assert.match(await up.ok(['get', 'pvc', 'data']), new RegExp(`^data\\s+Bound\\s+${volume}\\s+1Gi\\s+RWO\\s+local-path\\s+<unset>\\s+\\S+$`, 'm'));
  assert.match(await up.ok(['get', 'pv', volume]), new RegExp(`^${volume}\\s+1Gi\\s+RWO\\s+Delete\\s+Bound\\s+default/data\\s+local-path\\s+<unset>\\s+\\S*\\s*\\S+$`, 'm'));
  const node = await up.ok(['get', 'pod', 'writer', '-o', 'jsonpath={.spec.nodeName}']);
  assert.equal(await up.ok(['get', 'pvc', 'data', '-o', 'jsonpath={.metadata.annotations.volume\\.kubernetes\\.io/selected-node}']), node);
  const dir = await up.ok(['get', 'pv', volume, '-o', 'jsonpath={.spec.hostPath.path}']);
  assert.ok(dir.startsWith(up.dataDir), `${dir} is under the data dir`);
  for (;;) {
    if (existsSync(join(dir, 'hello'))) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(readFileSync(join(dir, 'hello'), 'utf8'), 'hello\n');

  await up.ok(['delete', 'pod', 'writer', '--wait']);
  await up.ok(['delete', 'pvc', 'data', '--wait']);
  await up.ok(['wait', '--for=delete', `pv/${volume}`, '--timeout=60s']);
  assert.equal(existsSync(dir), false, 'reclaimPolicy Delete removed the directory');
});

test('a static volume binds the claim that fits it', { timeout: 60_000 }, async () => {
  const volume = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'manual' },
    spec: { capacity: { storage: '2Gi' }, accessModes: ['ReadWriteOnce'], storageClassName: 'manual', hostPath: { path: staticDir } },
  };
  await up.ok(['apply', '-f', '-'], json(volume));
  await up.ok(['wait', '--for=jsonpath={.status.phase}=Available', 'pv/manual', '--timeout=30s']);
  await up.ok(['apply', '-f', '-'], json(claim('small', { storageClassName: 'manual' })));
  await up.ok(['wait', '--for=jsonpath={.status.phase}=Bound', 'pvc/small', '--timeout=30s']);
  assert.match(await up.ok(['get', 'pvc', 'small']), /^small\s+Bound\s+manual\s+2Gi\s+RWO\s+manual\s+/m);
  assert.equal(await up.ok(['get', 'pv', 'manual', '-o', 'jsonpath={.spec.claimRef.name}/{.status.phase}']), 'small/Bound');
  // Retain (a static volume's default): the claim going leaves the volume Released, its data in place.
  await up.ok(['delete', 'pvc', 'small', '--wait']);
  await up.ok(['wait', '--for=jsonpath={.status.phase}=Released', 'pv/manual', '--timeout=30s']);
  assert.ok(existsSync(staticDir));
});

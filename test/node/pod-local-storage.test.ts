// Issue 27, finding 8: emptyDir sizeLimit and ephemeral-storage limits, enforced as kubelet's eviction
// manager enforces them: the pod is killed, Failed with reason Evicted and kubelet's message, and a Warning
// Event says why. 300 MiB written into 50Mi limits used to go unnoticed.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { localStorageLimits, localStorageViolation } from '../../src/node/agent/pods/local-storage.ts';
import type { Pod } from '../../src/apimachinery/api/index.ts';
import { containerRunPath } from '../../src/node/sandbox/run-dir.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
before(async () => {
  // kubelet measures every 10 s; the test measures often so that it ends soon.
  h = await startPodHarness({ localStorageIntervalMs: 200 });
});
after(async () => {
  await h.close();
});

const status = (name: string) => h.pod(name)?.status;
const WRITE_8MIB = (path: string) => `head -c 8388608 /dev/zero > ${path}; echo written; exec sleep 600`;

async function expectEvicted(name: string, message: string): Promise<void> {
  await h.until(() => status(name)?.phase === 'Failed', `${name} Failed`, 30_000);
  assert.equal(status(name)?.reason, 'Evicted');
  assert.equal(status(name)?.message, message);
  await h.until(() => h.events(name).some((e) => e.reason === 'Evicted'), `${name} Evicted Event`);
  const event = h.events(name).find((e) => e.reason === 'Evicted');
  assert.equal(event?.type, 'Warning');
  assert.equal(event?.message, message);
  await h.until(() => {
    const main = h.container(name, 'main');
    return main?.state?.terminated !== undefined;
  }, `${name}'s container killed`);
}

test('an emptyDir past its sizeLimit evicts the pod with kubelet\'s message', { timeout: 40_000 }, async () => {
  await h.create('full-volume', {
    volumes: [{ name: 'data', emptyDir: { sizeLimit: '5Mi' } }],
    containers: [busybox('main', WRITE_8MIB('/data/f'), { volumeMounts: [{ name: 'data', mountPath: '/data' }] })],
  });
  await expectEvicted('full-volume', 'Usage of EmptyDir volume "data" exceeds the limit "5Mi". ');
});

test('a container past its ephemeral-storage limit evicts the pod, as over the total of the containers\' limits', { timeout: 40_000 }, async () => {
  await h.create('full-scratch', { containers: [busybox('main', WRITE_8MIB('/tmp/f'), { resources: { limits: { 'ephemeral-storage': '5Mi' } } })] });
  await expectEvicted('full-scratch', 'Pod ephemeral local storage usage exceeds the total limit of containers 5Mi. ');
});

test('a pod within its limits runs to completion', { timeout: 40_000 }, async () => {
  await h.create('within', {
    restartPolicy: 'Never',
    volumes: [{ name: 'data', emptyDir: { sizeLimit: '50Mi' } }],
    containers: [busybox('main', 'head -c 1048576 /dev/zero > /data/f; head -c 1048576 /dev/zero > /tmp/f; sleep 1', { volumeMounts: [{ name: 'data', mountPath: '/data' }], resources: { limits: { 'ephemeral-storage': '50Mi' } } })],
  });
  await h.until(() => status('within')?.phase === 'Succeeded', 'within Succeeded', 30_000);
  assert.equal(status('within')?.reason, undefined);
});

test('one container past its own limit, the pod within the total: kubelet\'s container message', async () => {
  const podDir = await mkdtemp(join(tmpdir(), 'bosun-local-storage-'));
  try {
    const pod: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'two', namespace: 'default' },
      spec: { containers: [{ name: 'small', resources: { limits: { 'ephemeral-storage': '1Mi' } } }, { name: 'large', resources: { limits: { 'ephemeral-storage': '1Gi' } } }] },
    };
    const limits = localStorageLimits(pod, podDir, new Map());
    assert.equal(limits?.pod?.text, '1025Mi');
    const scratch = join(containerRunPath(podDir, 'small'), 'scratch');
    await mkdir(scratch, { recursive: true });
    assert.equal(await localStorageViolation(limits!), undefined);
    await writeFile(join(scratch, 'f'), Buffer.alloc(2 * 1024 * 1024, 1));
    assert.equal(await localStorageViolation(limits!), 'Container small exceeded its local ephemeral storage limit "1Mi". ');
  } finally {
    await rm(podDir, { recursive: true, force: true });
  }
});

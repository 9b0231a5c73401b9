// Live configMap, secret and downwardAPI volumes on a real node agent: a change of the ConfigMap, the Secret or
// the pod's labels reaches the running container's files through the atomic ..data swap; a subPath mount keeps
// its value, as on a kubelet; the agent watches only the objects its pods name and lets go of them with the pod.
import assert from 'node:assert/strict';
import { readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { configMapsResource, podsResource, secretsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { ConfigMap, Secret } from '../../src/apimachinery/api/index.ts';
import { waitForLog } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

let h: PodHarness;
before(async () => {
  h = await startPodHarness();
});
after(async () => {
  await h.close();
});

const logOf = (name: string) => h.agent.containers.logPath({ namespace: 'default', pod: name, container: 'main' }, false) ?? '';

test('configMap, secret and downwardAPI volumes follow their sources; a subPath mount does not', { timeout: 40_000 }, async () => {
  await h.client.create<ConfigMap>(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'live' }, data: { v: 'one' } }, { namespace: 'default' });
  await h.client.create<Secret>(secretsResource, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'live' }, data: { s: Buffer.from('hush1').toString('base64') } }, { namespace: 'default' });
  // The container reads its files in a loop: its log is what the test waits on.
  const script = 'while true; do echo "cm=$(cat /cfg/v) sub=$(cat /sub/v) secret=$(cat /sec/s) labels=$(cat /pod/labels | tr "\\n" ,)"; sleep 0.2; done';
  await h.create('reader', {
    terminationGracePeriodSeconds: 1,
    volumes: [
      { name: 'cfg', configMap: { name: 'live' } },
      { name: 'sec', secret: { secretName: 'live' } },
      { name: 'pod', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
    ],
    containers: [
      busybox('main', script, {
        volumeMounts: [
          { name: 'cfg', mountPath: '/cfg' },
          { name: 'cfg', mountPath: '/sub/v', subPath: 'v' },
          { name: 'sec', mountPath: '/sec' },
          { name: 'pod', mountPath: '/pod' },
        ],
      }),
    ],
  });
  await h.until(() => h.pod('reader')?.status?.phase === 'Running', 'reader Running');
  await waitForLog(logOf('reader'), 'cm=one sub=one secret=hush1 labels=', 10_000);
  const uid = h.pod('reader')?.metadata.uid ?? '';
  const configDir = join(h.dataDir, 'pods', uid, 'volumes', 'kubernetes.io~configmap', 'cfg');
  const firstData = await readlink(join(configDir, '..data'));

  const cm = await h.client.get<ConfigMap>(configMapsResource, 'live', { namespace: 'default' });
  await h.client.update<ConfigMap>(configMapsResource, { ...cm, data: { v: 'two' } }, { namespace: 'default' });
  await waitForLog(logOf('reader'), 'cm=two sub=one secret=hush1', 10_000);
  assert.notEqual(await readlink(join(configDir, '..data')), firstData, 'the update swapped ..data');

  const secret = await h.client.get<Secret>(secretsResource, 'live', { namespace: 'default' });
  await h.client.update<Secret>(secretsResource, { ...secret, data: { s: Buffer.from('hush2').toString('base64') } }, { namespace: 'default' });
  await waitForLog(logOf('reader'), 'cm=two sub=one secret=hush2', 10_000);

  await h.client.patch(podsResource, 'reader', { metadata: { labels: { tier: 'web' } } }, { namespace: 'default', type: 'merge' });
  await waitForLog(logOf('reader'), 'cm=two sub=one secret=hush2 labels=tier="web"', 10_000);

  // A non-optional source deleted: the volume keeps its content, with kubelet's FailedMount Event.
  await h.client.delete(configMapsResource, 'live', { namespace: 'default' });
  await h.until(() => h.events('reader').some((e) => e.reason === 'FailedMount' && e.message === 'MountVolume.SetUp failed for volume "cfg" : configmap "live" not found'), 'a FailedMount Event');
  assert.equal(await readFile(join(configDir, 'v'), 'utf8'), 'two');
});

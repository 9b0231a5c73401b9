// Issue 24's StatefulSet "Must show" with real kubectl against `bosun up` (root): a StatefulSet of 3 starts web-0,
// web-1 and web-2 in order, each only once the one before is Ready, each with its own claim directory on the
// node; another pod resolves web-0.web.default.svc.cluster.local through the headless Service; deleting web-1
// brings back web-1 on the same claim; scaling down removes the highest ordinals first and keeps the claims.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const json = (object: unknown) => JSON.stringify(object);

const headless = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ name: 'web', port: 80 }] } };

/** Each pod appends a line to /data/boots when it starts; it is Ready once /data/ready exists (the test makes it). */
const statefulSet = {
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'web' },
  spec: {
    serviceName: 'web',
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'web',
            image: 'busybox',
            command: ['sh', '-c', 'echo "$(hostname)" >> /data/boots && exec sleep 3600'],
            volumeMounts: [{ name: 'www', mountPath: '/data' }],
            readinessProbe: { exec: { command: ['cat', '/data/ready'] }, periodSeconds: 1, failureThreshold: 1 },
          },
        ],
      },
    },
    volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
};

describe('a StatefulSet on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const exists = async (name: string): Promise<boolean> => (await up.kubectl(['get', 'pod', name, '-o', 'name'])).code === 0;
  let node = '';
  const claimDir = (claim: string): string => join(up.dataDir, 'nodes', node, 'volumes', 'pvc', 'default', claim);

  before(async () => {
    up = await startBosunUp();
    node = (await ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    await ok(['run', 'client', '--image=busybox', '--restart=Never', '--', 'sleep', '3600']);
    await ok(['apply', '-f', '-'], json(headless));
  });
  after(async () => {
    await up?.close();
  });

  test('web-0, web-1 and web-2 start in order, each Ready before the next, each with its own claim directory', { timeout: 240_000 }, async () => {
    await ok(['apply', '-f', '-'], json(statefulSet));
    for (let i = 0; i < 3; i++) {
      await ok(['wait', '--for=jsonpath={.status.phase}=Running', `pod/web-${i}`, '--timeout=90s']);
      assert.equal(await exists(`web-${i + 1}`), false, `web-${i + 1} exists before web-${i} is Ready`);
      await ok(['exec', `web-${i}`, '--', 'touch', '/data/ready']);
      await ok(['wait', '--for=condition=Ready', `pod/web-${i}`, '--timeout=60s']);
    }
    assert.equal(await ok(['rollout', 'status', 'sts/web', '--timeout=90s']), 'partitioned roll out complete: 3 new pods have been updated...\n');
    assert.match(await ok(['get', 'sts', 'web', '--no-headers']), /^web\s+3\/3\s+\S+\n$/);
    assert.deepEqual((await ok(['get', 'pvc', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(' ').sort(), ['www-web-0', 'www-web-1', 'www-web-2']);
    for (let i = 0; i < 3; i++) {
      assert.equal(readFileSync(join(claimDir(`www-web-${i}`), 'boots'), 'utf8'), `web-${i}\n`, `web-${i} wrote into its own claim directory`);
      assert.equal((await ok(['get', 'pod', `web-${i}`, '-o', 'jsonpath={.spec.volumes[0].persistentVolumeClaim.claimName}'])).trim(), `www-web-${i}`);
    }
  });

  test('another pod resolves web-0.web.default.svc.cluster.local to web-0', { timeout: 120_000 }, async () => {
    await ok(['wait', '--for=condition=Ready', 'pod/client', '--timeout=60s']);
    const podIP = (await ok(['get', 'pod', 'web-0', '-o', 'jsonpath={.status.podIP}'])).trim();
    await ok(['wait', '--for=jsonpath={.subsets[0].addresses[2].hostname}', 'endpoints/web', '--timeout=60s']);
    const answer = await ok(['exec', 'client', '--', 'getent', 'hosts', 'web-0.web.default.svc.cluster.local']);
    assert.match(answer, new RegExp(`^${podIP.replaceAll('.', '\\.')}\\s+web-0\\.web\\.default\\.svc\\.cluster\\.local\\n$`));
    // The pod's own hosts file names it by the same FQDN, as kubelet writes it.
    assert.match(await ok(['exec', 'web-0', '--', 'cat', '/etc/hosts']), new RegExp(`^${podIP.replaceAll('.', '\\.')}\\tweb-0\\.web\\.default\\.svc\\.cluster\\.local\\tweb-0$`, 'm'));
  });

  test('deleting web-1 brings back web-1 on the same claim', { timeout: 120_000 }, async () => {
    const uid = (await ok(['get', 'pod', 'web-1', '-o', 'jsonpath={.metadata.uid}'])).trim();
    const claimUid = (await ok(['get', 'pvc', 'www-web-1', '-o', 'jsonpath={.metadata.uid}'])).trim();
    await ok(['delete', 'pod', 'web-1']);
    await ok(['wait', '--for=condition=Ready', 'pod/web-1', '--timeout=90s']);
    assert.notEqual((await ok(['get', 'pod', 'web-1', '-o', 'jsonpath={.metadata.uid}'])).trim(), uid);
    assert.equal((await ok(['get', 'pvc', 'www-web-1', '-o', 'jsonpath={.metadata.uid}'])).trim(), claimUid);
    assert.equal(readFileSync(join(claimDir('www-web-1'), 'boots'), 'utf8'), 'web-1\nweb-1\n', 'the second web-1 found the first one\'s data');
    assert.equal((await ok(['exec', 'web-1', '--', 'cat', '/data/boots'])), 'web-1\nweb-1\n');
  });

  test('kubectl scale sts removes the highest ordinals first and keeps their claims', { timeout: 120_000 }, async () => {
    assert.equal((await ok(['scale', 'sts', 'web', '--replicas=1'])).trim(), 'statefulset.apps/web scaled');
    await ok(['wait', '--for=delete', 'pod/web-2', 'pod/web-1', '--timeout=90s']);
    await ok(['wait', '--for=jsonpath={.status.replicas}=1', 'sts/web', '--timeout=60s']);
    const events = JSON.parse(await ok(['get', 'events', '--field-selector', 'involvedObject.name=web,reason=SuccessfulDelete', '-o', 'json'])) as {
      items: { message: string; metadata: { resourceVersion: string } }[];
    };
    const deletions = events.items.sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion)).map((e) => e.message);
    assert.deepEqual(deletions.slice(-2), ['delete Pod web-2 in StatefulSet web successful', 'delete Pod web-1 in StatefulSet web successful']);
    assert.equal(await exists('web-0'), true);
    assert.deepEqual((await ok(['get', 'pvc', '-o', 'jsonpath={.items[*].metadata.name}'])).trim().split(' ').sort(), ['www-web-0', 'www-web-1', 'www-web-2']);
    assert.ok(existsSync(join(claimDir('www-web-2'), 'boots')));
  });
});

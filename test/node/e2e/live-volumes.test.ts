// Issue 24's live volumes with real kubectl against `bosun up`: a running pod sees `kubectl apply` of its
// ConfigMap and Secret and `kubectl label` of itself in its volume files, while a subPath mount keeps the old
// value. The container waits for each value itself and prints it: the test waits on the pod, never on a clock.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const SCRIPT = [
  'wait_for() { until grep -q "$2" "$1" 2>/dev/null; do sleep 0.2; done; }',
  'echo started',
  'wait_for /cfg/v two; echo "cm=$(cat /cfg/v) sub=$(cat /sub/v)"',
  'wait_for /sec/s hush2; echo "secret=$(cat /sec/s)"',
  'wait_for /pod/labels tier; echo "labels=$(cat /pod/labels)"',
].join('\n');

describe('live volumes on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  const applied = async (args: string[]) => ok(['apply', '-f', '-'], await ok([...args, '--dry-run=client', '-o', 'yaml']));

  before(async () => {
    up = await startBosunUp();
  });
  after(async () => {
    await up.close();
  });

  test('configMap, secret and downwardAPI files follow kubectl apply and label; subPath does not', async () => {
    await applied(['create', 'configmap', 'live', '--from-literal=v=one']);
    await applied(['create', 'secret', 'generic', 'live', '--from-literal=s=hush1']);
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'live-reader' },
      spec: {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        volumes: [
          { name: 'cfg', configMap: { name: 'live' } },
          { name: 'sec', secret: { secretName: 'live' } },
          { name: 'pod', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
        ],
        containers: [
          {
            name: 'c',
            image: 'busybox',
            command: ['sh', '-c', SCRIPT],
            volumeMounts: [
              { name: 'cfg', mountPath: '/cfg' },
              { name: 'cfg', mountPath: '/sub/v', subPath: 'v' },
              { name: 'sec', mountPath: '/sec' },
              { name: 'pod', mountPath: '/pod' },
            ],
          },
        ],
      },
    };
    await ok(['apply', '-f', '-'], JSON.stringify(pod));
    await ok(['wait', '--for=condition=Ready', 'pod/live-reader', '--timeout=60s']);
    await applied(['create', 'configmap', 'live', '--from-literal=v=two']);
    await applied(['create', 'secret', 'generic', 'live', '--from-literal=s=hush2']);
    await ok(['label', 'pod', 'live-reader', 'tier=web']);
    await ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/live-reader', '--timeout=60s']);
    assert.equal(await ok(['logs', 'live-reader']), 'started\ncm=two sub=one\nsecret=hush2\nlabels=tier="web"\n');
  });
});

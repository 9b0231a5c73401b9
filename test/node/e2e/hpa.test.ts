// Issue 24's HorizontalPodAutoscaler "Must show" with real kubectl against `bosun up` (root): `kubectl autoscale`
// on a Deployment whose pods burn CPU (request 50m) scales it up to its maximum on the readings of
// metrics.k8s.io, and back down to its minimum once the load stops (a ConfigMap volume the pods read turns it
// off; the autoscaler's behavior gives scale-down a short stabilization window).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const json = (object: unknown) => JSON.stringify(object);

const load = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'load' }, data: { mode: 'burn' } };

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'burn',
            image: 'busybox',
            // Burns a CPU until the ConfigMap has a `stop` key, then idles.
            command: ['sh', '-c', 'while [ ! -e /etc/load/stop ]; do :; done; exec sleep 3600'],
            resources: { requests: { cpu: '50m' } },
            volumeMounts: [{ name: 'load', mountPath: '/etc/load' }],
          },
        ],
        volumes: [{ name: 'load', configMap: { name: 'load' } }],
      },
    },
  },
};

let up: BosunUp;
before(async () => {
  up = await startBosunUp();
});
after(async () => {
  await up.close();
});

test('kubectl autoscale scales a CPU-burning Deployment up under load and back down when it stops', { timeout: 300_000 }, async (t) => {
  await up.ok(['apply', '-f', '-'], json(load));
  await up.ok(['apply', '-f', '-'], json(deployment));
  await up.ok(['rollout', 'status', 'deployment/web', '--timeout=60s']);
  await up.ok(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=1', '--max=3']);
  await up.ok(['patch', 'hpa', 'web', '--type=merge', '-p', json({ spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 5 } } } })]);

  await up.ok(['wait', '--for=jsonpath={.spec.replicas}=3', 'deployment/web', '--timeout=120s']);
  await up.ok(['wait', '--for=jsonpath={.status.currentReplicas}=3', 'hpa/web', '--timeout=60s']);
  const listed = await up.ok(['get', 'hpa', 'web']);
  t.diagnostic(listed);
  assert.match(listed, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/m);
  assert.match(listed, /^web\s+Deployment\/web\s+cpu: \d+%\/50%\s+1\s+3\s+3\s+\S+$/m);
  const hpa = JSON.parse(await up.ok(['get', 'hpa', 'web', '-o', 'json'])) as { status: { currentMetrics: { resource: { name: string; current: { averageUtilization: number } } }[]; conditions: { type: string; status: string; reason: string }[] } };
  const cpu = hpa.status.currentMetrics[0]?.resource;
  assert.equal(cpu?.name, 'cpu');
  assert.ok((cpu?.current.averageUtilization ?? 0) > 50, `utilization ${cpu?.current.averageUtilization}%`);
  assert.deepEqual(hpa.status.conditions.find((c) => c.type === 'ScalingActive')?.status, 'True');

  await up.ok(['patch', 'configmap', 'load', '--type=merge', '-p', json({ data: { stop: 'yes' } })]);
  await up.ok(['wait', '--for=jsonpath={.spec.replicas}=1', 'deployment/web', '--timeout=150s']);
  const described = await up.ok(['describe', 'hpa', 'web']);
  t.diagnostic(described);
  assert.match(described, /SuccessfulRescale\s+.*New size: 3; reason: cpu resource utilization \(percentage of request\) above target/);
  assert.match(described, /SuccessfulRescale\s+.*New size: 1; reason: All metrics below target/);
});

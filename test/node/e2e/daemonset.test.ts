// Issue 24's DaemonSet "Must show" with real kubectl against `bosun up` and a second `bosun node` (root): a
// DaemonSet runs one pod on each of the two nodes and a rolling update replaces them; after the second node is
// tainted NoSchedule, a DaemonSet without the toleration runs on the first node only (the running pods stay).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bin, exited, startReady } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const json = (object: unknown) => JSON.stringify(object);

function daemonSet(name: string): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }] } },
    },
  };
}

describe('a DaemonSet on bosun up and a second node with real kubectl', () => {
  let up: BosunUp;
  let second: ChildProcess | undefined;
  let first = '';
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  /** node=pod-name lines of the app's pods that are not terminating, sorted by node. */
  const placement = async (app: string): Promise<string[]> =>
    (await ok(['get', 'pods', '-l', `app=${app}`, '-o', 'jsonpath={range .items[*]}{.spec.nodeName}={.metadata.name}={.metadata.deletionTimestamp}{"\\n"}{end}']))
      .split('\n')
      .filter((line) => line !== '' && line.endsWith('='))
      .map((line) => line.slice(0, -1))
      .sort();

  before(async () => {
    up = await startBosunUp();
    first = (await ok(['get', 'nodes', '-o', 'jsonpath={.items[0].metadata.name}'])).trim();
    second = await startReady([bin, 'node', '--kubeconfig', join(up.dataDir, 'kubeconfig'), '--name', 'second', '--data-dir', join(up.dataDir, 'second'), '--container-runtime', 'host'], 'bosun node is ready');
    await ok(['wait', '--for=condition=Ready', 'node/second', '--timeout=60s']);
  });
  after(async () => {
    await up?.kubectl(['delete', 'ds', '--all', '--wait=true', '--timeout=60s']);
    await up?.kubectl(['delete', 'pods', '--all', '--wait=true', '--timeout=60s']);
    if (second && second.exitCode === null && second.signalCode === null) second.kill('SIGTERM');
    if (second) await exited(second);
    await up?.close();
  });

  test('one pod on each node; a rolling update replaces them; none on a node tainted NoSchedule', { timeout: 240_000 }, async () => {
    await ok(['apply', '-f', '-'], json(daemonSet('agent')));
    await ok(['rollout', 'status', 'ds/agent', '--timeout=120s']);
    const pods = await placement('agent');
    assert.deepEqual(pods.map((p) => p.split('=')[0]), [first, 'second'].sort());
    assert.match(await ok(['get', 'ds', 'agent', '--no-headers']), /^agent\s+2\s+2\s+2\s+2\s+2\s+<none>\s/);

    await ok(['set', 'env', 'ds/agent', 'VERSION=2']);
    await ok(['rollout', 'status', 'ds/agent', '--timeout=120s']);
    const rolled = await placement('agent');
    assert.deepEqual(rolled.map((p) => p.split('=')[0]), [first, 'second'].sort());
    assert.ok(rolled.every((p) => !pods.includes(p)), `replaced: ${pods.join(' ')} -> ${rolled.join(' ')}`);
    assert.match(await ok(['rollout', 'history', 'ds/agent']), /^2\s+<none>$/m);

    await ok(['taint', 'nodes', 'second', 'dedicated=infra:NoSchedule']);
    await ok(['apply', '-f', '-'], json(daemonSet('picky')));
    await ok(['rollout', 'status', 'ds/picky', '--timeout=120s']);
    assert.deepEqual((await placement('picky')).map((p) => p.split('=')[0]), [first]);
    assert.equal((await ok(['get', 'ds', 'picky', '-o', 'jsonpath={.status.desiredNumberScheduled}'])).trim(), '1');
    // NoSchedule keeps new pods off; the pod already there stays.
    assert.deepEqual(await placement('agent'), rolled);
  });
});

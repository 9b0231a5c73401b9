// Issue 24's "kubectl drain evicts while honouring a PDB", with real kubectl against `bosun up` (root): a
// Deployment of 2 on the first node with a PodDisruptionBudget of minAvailable 1; a second `bosun node` joins;
// `kubectl drain first --ignore-daemonsets --delete-emptydir-data` cordons the node and evicts the two pods one at
// a time: the second eviction is refused with 429 until the first one's replacement is Ready on the second node.
import assert from 'node:assert/strict';
import { type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bin, exited, startReady } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'web', image: 'busybox', command: ['sleep', '3600'] }] },
    },
  },
};

const budget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } };

describe('kubectl drain honours a PodDisruptionBudget on bosun up', () => {
  let up: BosunUp;
  let second: ChildProcess | undefined;

  before(async () => {
    up = await startBosunUp(['--node-name', 'first']);
  });
  after(async () => {
    if (second && second.exitCode === null && second.signalCode === null) second.kill('SIGTERM');
    if (second) await exited(second);
    await up?.close();
  });

  test('drain evicts one pod at a time; the replacement lands on the second node', { timeout: 240_000 }, async () => {
    await up.ok(['apply', '-f', '-'], JSON.stringify(deployment));
    await up.ok(['rollout', 'status', 'deployment/web', '--timeout=120s']);
    await up.ok(['apply', '-f', '-'], JSON.stringify(budget));
    await up.ok(['wait', '--for=jsonpath={.status.disruptionsAllowed}=1', 'pdb/web', '--timeout=60s']);
    assert.match(await up.ok(['get', 'pdb', 'web']), /\nweb\s+1\s+N\/A\s+1\s+\S+\n/);

    // Alone, the node cannot be drained: the first pod goes, its replacement stays Pending (the node is cordoned),
    // so the budget keeps the second one running until drain gives up.
    const stuck = await up.kubectl(['drain', 'first', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=15s']);
    assert.notEqual(stuck.code, 0, stuck.stdout);
    assert.match(stuck.stdout, /node\/first cordoned/);
    const phases = (await up.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}/{.status.phase}{"\\n"}{end}'])).trim().split('\n').sort();
    assert.deepEqual(phases, ['/Pending', 'first/Running']);
    assert.equal((await up.ok(['get', 'pdb', 'web', '-o', 'jsonpath={.status.disruptionsAllowed}'])).trim(), '0');

    // A second node takes the replacement; once it is Ready the budget lets the last pod go and drain completes.
    second = await startReady([bin, 'node', '--kubeconfig', join(up.dataDir, 'kubeconfig'), '--name', 'second', '--data-dir', join(up.dataDir, 'second'), '--container-runtime', 'host'], 'bosun node is ready');
    await up.ok(['wait', '--for=condition=Ready', 'node/second', '--timeout=60s']);
    const drain = await up.kubectl(['drain', 'first', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=180s']);
    assert.equal(drain.code, 0, drain.stderr);
    assert.match(drain.stdout, /node\/first drained/);
    assert.equal((await up.ok(['get', 'node', 'first', '-o', 'jsonpath={.spec.unschedulable}'])).trim(), 'true');

    await up.ok(['rollout', 'status', 'deployment/web', '--timeout=120s']);
    const nodes = (await up.ok(['get', 'pods', '-l', 'app=web', '-o', 'jsonpath={range .items[*]}{.spec.nodeName}{"\\n"}{end}'])).trim().split('\n');
    assert.deepEqual(nodes, ['second', 'second']);
    await up.ok(['wait', '--for=jsonpath={.status.disruptionsAllowed}=1', 'pdb/web', '--timeout=60s']);
  });
});

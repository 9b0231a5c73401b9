// Issue 10's "Must show" for nodes, with real kubectl: two node agents on one machine (`bosun up` and `bosun
// node`) share pods by their requests, a cordon keeps new pods off a node, an agent that dies leaves its Node
// NotReady; and a SIGKILLed `bosun up` restarts without orphaned processes while its pods converge.
import assert from 'node:assert/strict';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { bin, exited, freePort, startBosun, startReady } from '../../helpers/bosun-process.ts';
import { kubectlFor, type Kubectl } from '../../helpers/kubectl.ts';

/** The pids of processes whose whole command line is marker (a container's process, not its sandbox helpers). */
function processesWith(marker: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `^${marker}$`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('node agents with real kubectl', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const ok = async (kubectl: Kubectl, args: string[], input?: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  const stopped = async (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited(child);
  };

  test('two agents share pods by their requests; a cordon keeps pods off a node; a dead agent\'s Node goes NotReady', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bosun-e2e-'));
    const bosun = await startBosun(dataDir, await freePort(), ['--node-name', 'first', '--node-monitor-grace-period', '4s', '--node-lease-duration-seconds', '2']);
    const kubeconfig = join(dataDir, 'kubeconfig');
    const second = await startReady([bin, 'node', '--kubeconfig', kubeconfig, '--name', 'second', '--data-dir', join(dataDir, 'second'), '--node-lease-duration-seconds', '2', '--container-runtime', 'host', '--max-parallel-pod-starts', '2'], 'bosun node is ready');
    cleanups.push(async () => {
      await stopped(second);
      await stopped(bosun);
      rmSync(dataDir, { recursive: true, force: true });
    });
    const kubectl = kubectlFor(kubeconfig);
    await ok(kubectl, ['wait', '--for=condition=Ready', 'node/first', 'node/second', '--timeout=60s']);

    // Each node has the host's CPUs; two pods that each ask for more than half of them cannot share one.
    const big = `${Math.floor(cpus().length * 1000 * 0.6)}m`;
    for (const name of ['big-a', 'big-b']) {
      await ok(kubectl, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'], resources: { requests: { cpu: big } } }] } }));
    }
    await ok(kubectl, ['wait', '--for=condition=Ready', 'pod/big-a', 'pod/big-b', '--timeout=60s']);
    const nodes = (await ok(kubectl, ['get', 'pods', 'big-a', 'big-b', '-o', 'jsonpath={.items[*].spec.nodeName}'])).split(' ').sort();
    assert.deepEqual(nodes, ['first', 'second']);

    await ok(kubectl, ['cordon', 'second']);
    for (const name of ['small-a', 'small-b', 'small-c']) {
      await ok(kubectl, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '3600'], resources: { requests: { cpu: '10m' } } }] } }));
    }
    await ok(kubectl, ['wait', '--for=condition=Ready', 'pod/small-a', 'pod/small-b', 'pod/small-c', '--timeout=60s']);
    assert.equal(await ok(kubectl, ['get', 'pods', 'small-a', 'small-b', 'small-c', '-o', 'jsonpath={.items[*].spec.nodeName}']), 'first first first');

    second.kill('SIGKILL');
    await exited(second);
    await ok(kubectl, ['wait', '--for=condition=Ready=Unknown', 'node/second', '--timeout=60s']);
    assert.match(await ok(kubectl, ['get', 'node', 'second', '--no-headers']), /^second\s+NotReady,SchedulingDisabled\s/);
    // The agent comes back on its data dir: it finds the processes it left and takes its pods over again.
    const again = await startReady([bin, 'node', '--kubeconfig', kubeconfig, '--name', 'second', '--data-dir', join(dataDir, 'second'), '--node-lease-duration-seconds', '2', '--container-runtime', 'host'], 'bosun node is ready');
    cleanups.push(() => stopped(again));
    await ok(kubectl, ['wait', '--for=condition=Ready', 'node/second', '--timeout=60s']);
    await ok(kubectl, ['delete', 'pods', '--all', '--wait=true', '--timeout=60s']);
  });

  test('SIGKILL of bosun up with running pods, then a restart: no orphaned process, the pods converge', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bosun-e2e-'));
    const port = await freePort();
    let bosun = await startBosun(dataDir, port);
    cleanups.push(async () => {
      await stopped(bosun);
      rmSync(dataDir, { recursive: true, force: true });
    });
    const kubectl = kubectlFor(join(dataDir, 'kubeconfig'));
    const marker = `sleep ${36000 + Math.floor(Math.random() * 999)}`;
    await ok(kubectl, ['create', 'deployment', 'survivor', '--image=busybox', '--replicas=2', '--', 'sh', '-c', `exec ${marker}`]);
    await ok(kubectl, ['rollout', 'status', 'deployment/survivor', '--timeout=90s']);
    const before = processesWith(marker);
    assert.equal(before.length, 2, 'one process per replica');

    bosun.kill('SIGKILL');
    await exited(bosun);
    bosun = await startBosun(dataDir, port);
    await ok(kubectl, ['wait', '--for=jsonpath={.status.readyReplicas}=2', 'deployment/survivor', '--timeout=90s']);
    await ok(kubectl, ['wait', '--for=condition=Ready', 'pod', '-l', 'app=survivor', '--timeout=90s']);
    const afterRestart = processesWith(marker);
    assert.equal(afterRestart.length, 2, `exactly the replicas' processes remain: ${afterRestart.join(', ')}`);
    assert.equal(await ok(kubectl, ['get', 'pods', '-l', 'app=survivor', '--no-headers', '-o', 'custom-columns=S:.status.phase']), 'Running\nRunning\n');
    await ok(kubectl, ['delete', 'deployment', 'survivor', '--wait=true', '--timeout=60s']);
    await ok(kubectl, ['wait', '--for=delete', 'pod', '-l', 'app=survivor', '--timeout=60s']);
    assert.deepEqual(processesWith(marker), []);
  });
});

// Pods on the agent's bridge network: each gets an address of the node's block in its own namespace, kubelet's
// /etc/hosts names it, probes reach it at that address, and deletion releases it.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { podsResource } from '../../src/apimachinery/builtin-resources.ts';
import { BridgeNetwork } from '../../src/node/network/bridge-network.ts';
import { runHostCommand } from '../../src/node/network/host-command.ts';
import { logContents } from './harness.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

// Apart from network-bridge.test.ts's cluster, so the two can run side by side.
const CLUSTER = '10.247.0.0/16';
const BRIDGE = `pl${process.pid % 100000}`;

let h: PodHarness;
let network: BridgeNetwork;
let stateDir: string;
before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'bosun-pod-network-'));
  network = await BridgeNetwork.open({ stateDir, bridgeName: BRIDGE, clusterCIDR: CLUSTER });
  h = await startPodHarness({ network });
});
after(async () => {
  await h.close();
  await network.teardown().catch(() => undefined);
  await runHostCommand(['ip', 'link', 'del', BRIDGE]).catch(() => undefined);
  await rm(stateDir, { recursive: true, force: true });
});

test('a pod gets its own address, named in /etc/hosts, and a tcpSocket probe reaches it there', { timeout: 30_000 }, async () => {
  const pod = await h.create('served', {
    // python3 as pid 1 ignores SIGTERM: keep the wait for SIGKILL short.
    terminationGracePeriodSeconds: 1,
    containers: [
      busybox('main', 'cat /etc/hosts; exec python3 -m http.server 8080', { ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 1 } }),
    ],
  });
  await h.until(() => h.pod('served')?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true, 'served Ready', 25_000);
  const podIP = h.pod('served')?.status?.podIP ?? '';
  assert.match(podIP, /^10\.247\.\d+\.\d+$/);
  assert.deepEqual(h.pod('served')?.status?.podIPs, [{ ip: podIP }]);
  assert.equal(h.pod('served')?.status?.hostIP, '127.0.0.1');
  const hosts = await logContents(h.agent.containers.logPath({ namespace: 'default', pod: 'served', container: 'main' }, false) ?? '');
  assert.ok(hosts.includes(`${podIP}\tserved`), hosts.join('\n'));
  assert.ok((await network.attached()).includes(pod.metadata.uid ?? ''));

  await h.client.delete(podsResource, 'served', { namespace: 'default' });
  await h.until(() => h.pod('served') === undefined, 'served gone');
  // The API server may remove the pod once its status is terminal, before the agent has released the address.
  await retryUntil(async () => !(await network.attached()).includes(pod.metadata.uid ?? ''), 'the address released');
});

/** Re-checks with backoff: the network provider has no change event. */
async function retryUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (let delay = 10; !(await check()); delay = Math.min(delay * 2, 500)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

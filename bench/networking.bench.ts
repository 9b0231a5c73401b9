// `npm run bench:networking`: the node's service proxy. An embedded API server and a node agent with its pod
// network and proxy run in this process, on a bridge of their own. Measured:
// 1. Service created → reachable, p50/p99: a pod retries wget on the ClusterIP in a tight loop while the
//    Service is created (its EndpointSlice already exists); the time from the create call to the loop's end,
//    so it includes the watch, the nft transaction and one wget;
// 2. requests/s through the ClusterIP against the pod IP directly, in the same run: ApacheBench in a pod
//    against busybox httpd in another, rounds alternating between the two addresses (target ≥ 0.8×).
import { mkdtemp, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod, Service } from '../src/apimachinery/api/core-v1.ts';
import type { EndpointSlice } from '../src/apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, podsResource, servicesResource } from '../src/apimachinery/builtin-resources.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { startNodeAgent } from '../src/node/agent/node-agent.ts';
import { BridgeNetwork } from '../src/node/network/bridge-network.ts';
import { runHostCommand } from '../src/node/network/host-command.ts';
import { startServiceProxy } from '../src/node/proxy/service-proxy.ts';
import { Informer } from '../src/runtime/informer/informer.ts';
import { createLogger } from '../src/runtime/logger.ts';

const SERVICES = Number(process.env['BENCH_SERVICES'] ?? 30);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 2000);
const ROUNDS = 3;
const BRIDGE = 'pxbench0';
const NODE = 'bench-node';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bosun-bench-networking-'));
  const server = await startApiServer({ inMemory: true, port: 0 });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const logger = createLogger({ level: 'warn' });
  const network = await BridgeNetwork.open({ stateDir: join(work, 'network'), bridgeName: BRIDGE, clusterCIDR: '10.242.0.0/16' });
  const agent = await startNodeAgent({ client, nodeName: NODE, dataDir: join(work, 'node'), network, hostIP: network.gateway, cgroup: { placement: 'agent', name: `bosun-bench-${process.pid}` }, logger });
  const proxy = await startServiceProxy({ client, bridge: BRIDGE, podCIDR: network.nodeCIDR, logger });
  const pods = new Informer<Pod>({ client, resource: podsResource, onError: () => undefined });
  pods.start();
  await pods.waitForSync();
  const running = (name: string) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const pod = pods.get(name, 'default');
        if (pod?.status?.phase === 'Running' && pod.status.podIP) {
          stop();
          resolve(pod.status.podIP);
        }
      };
      const stop = pods.addEventHandler({ onAdd: check, onUpdate: check });
      check();
    });
  const create = (name: string, script: string) =>
    client.create<Pod>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: NODE, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', script] }] } }, { namespace: 'default' });
  const exec = async (pod: string, script: string) => {
    const handle = agent.containers.running({ namespace: 'default', pod, container: 'main' });
    if (!handle) throw new Error(`${pod} is not running`);
    const proc = await handle.exec(['sh', '-c', script]);
    let stdout = '';
    proc.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr?.resume();
    const { exitCode } = await proc.exited;
    if (exitCode !== 0) throw new Error(`${script}: exit ${exitCode}`);
    return stdout;
  };
  try {
    await create('web', 'mkdir -p /tmp/www && echo hello > /tmp/www/index.html && exec busybox httpd -f -p 8080 -h /tmp/www');
    await create('probe', 'exec sleep 3600');
    const [podIP] = await Promise.all([running('web'), running('probe')]);

    // 1. Service created → reachable.
    const latencies: number[] = [];
    const programmed: number[] = [];
    for (let i = 0; i < SERVICES; i++) {
      const name = `svc-${i}`;
      const clusterIP = `10.96.77.${i + 10}`;
      const slice: EndpointSlice = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name, namespace: 'default', labels: { 'kubernetes.io/service-name': name } },
        addressType: 'IPv4',
        endpoints: [{ addresses: [podIP], conditions: { ready: true } }],
        ports: [{ name: 'http', protocol: 'TCP', port: 8080 }],
      };
      await client.create(endpointSlicesResource, slice, { namespace: 'default' });
      const reachable = exec('probe', `until busybox wget -qO- http://${clusterIP}/ >/dev/null 2>&1; do :; done`);
      const service: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { clusterIP, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } };
      // Let the loop start before the clock does: it must already be failing when the Service appears.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const start = performance.now();
      const applied = proxy.whenApplied((rules) => rules.some((rule) => rule.clusterIP === clusterIP && rule.endpoints.length > 0)).then(() => programmed.push(performance.now() - start));
      await client.create(servicesResource, service, { namespace: 'default' });
      await reachable;
      latencies.push(performance.now() - start);
      await applied;
    }

    // 2. requests/s, ClusterIP against the pod IP.
    const rate = async (url: string) => {
      const out = await exec('probe', `ab -q -n ${REQUESTS} -c 4 ${url} 2>&1`);
      const match = /Requests per second:\s+([\d.]+)/.exec(out);
      const failed = /Failed requests:\s+(\d+)/.exec(out)?.[1];
      if (!match || failed !== '0') throw new Error(`ab against ${url}: ${out}`);
      return Number(match[1]);
    };
    const direct: number[] = [];
    const viaService: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      direct.push(await rate(`http://${podIP}:8080/index.html`));
      viaService.push(await rate('http://10.96.77.10/index.html'));
    }

    const sorted = [...latencies].sort((a, b) => a - b);
    const sortedProgrammed = [...programmed].sort((a, b) => a - b);
    console.log(`service proxy, one node (nft table ${proxy.table})`);
    console.log(`  Service created → reachable from a pod, ${SERVICES} Services one at a time: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}, max ${ms(sorted.at(-1) ?? NaN)} (of which Service created → nft transaction done: p50 ${ms(percentile(sortedProgrammed, 50))}, p99 ${ms(percentile(sortedProgrammed, 99))})`);
    console.log(
      `  requests/s, ab -n ${REQUESTS} -c 4 against busybox httpd, median of ${ROUNDS} alternating rounds: through the ClusterIP ${median(viaService).toFixed(0)}, ` +
        `pod IP directly ${median(direct).toFixed(0)} (ratio ${(median(viaService) / median(direct)).toFixed(2)}×, target ≥ 0.8×)`,
    );
  } finally {
    await pods.stop();
    await proxy.stop();
    await agent.stop({ killPods: true });
    await Promise.allSettled(agent.sandbox.cgroupLayout.hierarchies.map((hierarchy) => rmdir(hierarchy.root)));
    await network.teardown().catch(() => undefined);
    await runHostCommand(['ip', 'link', 'del', BRIDGE]).catch(() => undefined);
    await client.close();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();

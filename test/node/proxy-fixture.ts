// Real pods on a bridge of their own with the service proxy beside the node agent: Services and EndpointSlices
// written through the API, probes run inside pods by exec (busybox wget and nc, python3 for what they lack).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { endpointSlicesResource, servicesResource } from '../../src/apimachinery/builtin-resources.ts';
import type { Service, ServicePort } from '../../src/apimachinery/api/core-v1.ts';
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../../src/apimachinery/api/discovery-v1.ts';
import { BridgeNetwork } from '../../src/node/network/bridge-network.ts';
import { runHostCommand } from '../../src/node/network/host-command.ts';
import { startServiceProxy, type ServiceProxy } from '../../src/node/proxy/service-proxy.ts';
import type { ServicePortRule } from '../../src/node/proxy/service-port-rule.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { busybox, startPodHarness, type PodHarness } from './pod-harness.ts';

export interface ProxyFixture {
  h: PodHarness;
  network: BridgeNetwork;
  proxy: ServiceProxy;
  bridge: string;
  /** Starts the proxy again (after proxy.stop()). */
  restartProxy(): Promise<ServiceProxy>;
  /** A pod serving its own name over HTTP on 8080 (busybox httpd); resolves with its IP once it runs. */
  backend(name: string): Promise<string>;
  /** A pod that only sleeps, to run probes in. */
  client(name: string): Promise<string>;
  /** Runs argv on the host's tools inside the pod's network namespace, as root with every capability. */
  inPodNetwork(pod: string, argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** Runs argv in the pod's container. */
  inPod(pod: string, argv: string[], namespace?: string): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  /** Creates (or replaces) a Service and its one EndpointSlice, and waits until the proxy has applied both. */
  service(name: string, spec: { clusterIP: string; ports?: ServicePort[]; type?: 'ClusterIP' | 'NodePort'; sessionAffinity?: 'ClientIP'; endpoints: { ip: string; ready?: boolean }[] }): Promise<void>;
  close(): Promise<void>;
}

let uniq = 0;
/** A ClusterIP of 10.96.0.0/12 that no other test in this process uses. */
export function clusterIP(): string {
  uniq++;
  return `10.${96 + (process.pid % 16)}.${(process.pid >> 4) % 256}.${(uniq % 250) + 2}`;
}

export async function startProxyFixture(clusterCIDR: string): Promise<ProxyFixture> {
  const bridge = `px${process.pid % 100000}`;
  const stateDir = await mkdtemp(join(tmpdir(), 'bosun-proxy-'));
  const network = await BridgeNetwork.open({ stateDir, bridgeName: bridge, clusterCIDR });
  const h = await startPodHarness({ network, hostIP: network.gateway });
  const logger = createLogger({ level: (process.env['POD_TEST_LOG'] as 'debug' | undefined) ?? 'silent' });
  const start = () => startServiceProxy({ client: h.client, bridge, podCIDR: network.nodeCIDR, logger });
  const running = async (name: string, namespace = 'default') => {
    await h.until(() => h.pod(name, namespace)?.status?.phase === 'Running' && h.pod(name, namespace)?.status?.podIP !== undefined, `${name} running`, 30_000);
    return h.pod(name, namespace)?.status?.podIP ?? '';
  };
  const f: ProxyFixture = {
    h,
    network,
    bridge,
    proxy: await start(),
    async restartProxy() {
      f.proxy = await start();
      return f.proxy;
    },
    async backend(name) {
      await h.create(name, {
        terminationGracePeriodSeconds: 1,
        containers: [busybox('main', `mkdir -p /tmp/www && echo ${name} > /tmp/www/index.html && exec busybox httpd -f -p 8080 -h /tmp/www`)],
      });
      return running(name);
    },
    async client(name) {
      await h.create(name, { terminationGracePeriodSeconds: 1, containers: [busybox('main', 'exec sleep 3600')] });
      return running(name);
    },
    async inPodNetwork(pod, argv) {
      const metadata = h.pod(pod)?.metadata;
      // attach of an attached pod returns its attachment: the namespace file.
      const attachment = await network.attach({ uid: metadata?.uid ?? '', name: pod, namespace: 'default' });
      if (attachment.network.kind !== 'namespace') throw new Error(`${pod} has no network namespace`);
      const [program = 'true', ...args] = argv;
      try {
        return { exitCode: 0, stdout: await runHostCommand(['nsenter', `--net=${attachment.network.path}`, '--', program, ...args]), stderr: '' };
      } catch (error) {
        return { exitCode: 1, stdout: '', stderr: (error as Error).message };
      }
    },
    async inPod(pod, argv, namespace = 'default') {
      const handle = h.agent.containers.running({ namespace, pod, container: 'main' });
      if (!handle) throw new Error(`${namespace}/${pod} has no running container`);
      const proc = await handle.exec(argv);
      const collect = (stream: NodeJS.ReadableStream | null) => {
        const chunks: Buffer[] = [];
        stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
        return () => Buffer.concat(chunks).toString('utf8');
      };
      const stdout = collect(proc.stdout);
      const stderr = collect(proc.stderr);
      const { exitCode } = await proc.exited;
      return { exitCode, stdout: stdout(), stderr: stderr() };
    },
    async service(name, spec) {
      const ports = spec.ports ?? [{ name: 'http', port: 80, targetPort: 8080 }];
      const service: Service = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, namespace: 'default' },
        spec: { type: spec.type ?? 'ClusterIP', clusterIP: spec.clusterIP, ports, ...(spec.sessionAffinity ? { sessionAffinity: spec.sessionAffinity } : {}) },
      };
      const slice: EndpointSlice = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { name: `${name}-1`, namespace: 'default', labels: { [SERVICE_NAME_LABEL]: name } },
        addressType: 'IPv4',
        endpoints: spec.endpoints.map(({ ip, ready }) => ({ addresses: [ip], conditions: { ready: ready ?? true } })),
        ports: ports.map((p) => ({ ...(p.name !== undefined ? { name: p.name } : {}), protocol: p.protocol ?? 'TCP', port: typeof p.targetPort === 'number' ? p.targetPort : p.port })),
      };
      await upsert(h, servicesResource, service);
      await upsert(h, endpointSlicesResource, slice);
      const want = spec.endpoints.filter((e) => e.ready !== false).map((e) => e.ip).sort().join(',');
      await f.proxy.whenApplied((rules) => rules.some((rule: ServicePortRule) => rule.id.startsWith(`default/${name}/`) && rule.clusterIP === spec.clusterIP && rule.endpoints.map((e) => e.ip).sort().join(',') === want));
    },
    async close() {
      await f.proxy.stop().catch(() => undefined);
      await h.close();
      await network.teardown().catch(() => undefined);
      await runHostCommand(['ip', 'link', 'del', bridge]).catch(() => undefined);
      await rm(stateDir, { recursive: true, force: true });
    },
  };
  return f;
}

async function upsert<T extends Service | EndpointSlice>(h: PodHarness, resource: typeof servicesResource, object: T): Promise<void> {
  const namespace = object.metadata.namespace ?? 'default';
  const existing = await h.client.get<T>(resource, object.metadata.name ?? '', { namespace }).catch(() => undefined);
  if (existing === undefined) await h.client.create<T>(resource, object, { namespace });
  else await h.client.update<T>(resource, { ...object, metadata: { ...object.metadata, resourceVersion: existing.metadata.resourceVersion } }, { namespace });
}

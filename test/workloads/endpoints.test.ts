// The endpointslice and endpoints controllers against the embedded API server over HTTP: pods are created through
// the API with a node name and their status (pod IP, Ready) written through the status subresource, as a kubelet
// would; Services select them; the slices and Endpoints are read back from watches and with real kubectl.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Endpoint, EndpointSlice, Endpoints, Node, Pod, Service } from '../../src/apimachinery/api/index.ts';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from '../../src/apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, endpointsResource, nodesResource, podsResource, servicesResource } from '../../src/apimachinery/builtin-resources.ts';
import { nowTime } from '../../src/apimachinery/time.ts';
import type { Informer } from '../../src/runtime/informer/informer.ts';
import { updateStatus } from '../../src/runtime/status.ts';
import { startWorkloads, type WorkloadsHarness } from './harness.ts';

const NODE = 'node-b';
const ns = 'default';

describe('endpointslice and endpoints controllers', () => {
  let h: WorkloadsHarness;
  let slices: Informer<EndpointSlice>;
  let endpoints: Informer<Endpoints>;
  let nextIP = 1;

  const slicesOf = (service: string): EndpointSlice[] => slices.list(ns).filter((s) => s.metadata.labels?.[SERVICE_NAME_LABEL] === service);
  const endpointsOf = (service: string): Endpoint[] => slicesOf(service).flatMap((s) => s.endpoints ?? []);
  const endpointOf = (service: string, pod: string): Endpoint | undefined => endpointsOf(service).find((e) => e.targetRef?.name === pod);
  const readyIPs = (name: string): string[] => (endpoints.get(name, ns)?.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip)).sort();
  const notReadyIPs = (name: string): string[] => (endpoints.get(name, ns)?.subsets ?? []).flatMap((s) => (s.notReadyAddresses ?? []).map((a) => a.ip)).sort();

  async function service(name: string, spec: Service['spec'], labels?: Record<string, string>): Promise<Service> {
    return h.client.create<Service>(servicesResource, { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns, ...(labels ? { labels } : {}) }, spec }, { namespace: ns });
  }

  /** A pod bound to NODE, Running with a fresh IP, Ready unless ready is false. */
  async function pod(name: string, labels: Record<string, string>, options: { ready?: boolean; ports?: { name: string; containerPort: number }[]; hostname?: string; subdomain?: string } = {}): Promise<Pod> {
    const created = await h.client.create<Pod>(
      podsResource,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: ns, labels },
        spec: {
          nodeName: NODE,
          ...(options.hostname ? { hostname: options.hostname } : {}),
          ...(options.subdomain ? { subdomain: options.subdomain } : {}),
          containers: [{ name: 'c', image: 'busybox', ...(options.ports ? { ports: options.ports } : {}) }],
        },
      },
      { namespace: ns },
    );
    const ip = `10.244.${Math.floor(nextIP / 250)}.${(nextIP % 250) + 2}`;
    nextIP++;
    return setReady(created, options.ready !== false, ip);
  }

  async function setReady(target: Pod, ready: boolean, ip?: string): Promise<Pod> {
    const current = await h.client.get<Pod>(podsResource, target.metadata.name ?? '', { namespace: ns });
    return updateStatus<Pod>(h.client, podsResource, current, (draft) => {
      const podIP = ip ?? draft.status?.podIP ?? '';
      const status = ready ? 'True' : 'False';
      draft.status = { ...draft.status, phase: 'Running', podIP, podIPs: [{ ip: podIP }], conditions: [{ type: 'Ready', status, lastTransitionTime: nowTime() }] };
    });
  }

  async function patchLabels(name: string, labels: Record<string, string | null>): Promise<void> {
    await h.client.patch(podsResource, name, { metadata: { labels } }, { type: 'merge', namespace: ns });
  }

  async function deletePod(name: string): Promise<void> {
    await h.client.delete(podsResource, name, { namespace: ns, gracePeriodSeconds: 0 });
  }

  before(async () => {
    h = await startWorkloads({ workloads: { scheduler: false, job: false, replicaSet: false, deployment: false, nodeLifecycle: false }, kubelet: { nodes: [] } });
    await h.client.create<Node>(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: NODE, labels: { 'topology.kubernetes.io/zone': 'zone-a' } } });
    slices = h.watch<EndpointSlice>(endpointSlicesResource);
    endpoints = h.watch<Endpoints>(endpointsResource);
    await Promise.all([slices.waitForSync(), endpoints.waitForSync()]);
  });
  after(async () => {
    await h.close();
  });

  test('a Service over 3 ready pods: one slice with 3 ready endpoints, Endpoints with 3 addresses', async () => {
    const svc = await service('web', { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] }, { tier: 'front' });
    const pods = await Promise.all(['web-1', 'web-2', 'web-3'].map((n) => pod(n, { app: 'web' })));
    await h.until(() => endpointsOf('web').filter((e) => e.conditions?.ready).length === 3 && readyIPs('web').length === 3, 'three ready endpoints in slices and Endpoints');
    const [slice] = slicesOf('web');
    assert.equal(slicesOf('web').length, 1);
    assert.equal(slice!.addressType, 'IPv4');
    assert.match(slice!.metadata.name ?? '', /^web-[a-z0-9]{5}$/);
    assert.equal(slice!.metadata.labels?.[MANAGED_BY_LABEL], 'endpointslice-controller.k8s.io');
    assert.equal(slice!.metadata.labels?.['tier'], 'front');
    assert.deepEqual(slice!.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(slice!.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const first = pods[0]!;
    assert.deepEqual(endpointOf('web', 'web-1'), {
      addresses: [first.status?.podIP],
      conditions: { ready: true, serving: true, terminating: false },
      targetRef: { kind: 'Pod', namespace: ns, name: 'web-1', uid: first.metadata.uid },
      nodeName: NODE,
      zone: 'zone-a',
    });
    assert.ok(slice!.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time']);

    const ep = endpoints.get('web', ns)!;
    assert.deepEqual(readyIPs('web'), pods.map((p) => p.status?.podIP ?? '').sort());
    assert.deepEqual(ep.subsets?.[0]?.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(ep.metadata.labels, { tier: 'front' }, "the Service's labels, without the headless marker: it has a ClusterIP");
    assert.match(ep.metadata.annotations?.['endpoints.kubernetes.io/last-change-trigger-time'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.equal(ep.metadata.ownerReferences?.[0]?.uid, svc.metadata.uid);
  });

  test('a pod turning unready flips ready=false and moves to notReadyAddresses; nothing else is rewritten', async () => {
    let sliceUpdates = 0;
    let endpointsUpdates = 0;
    const offSlices = slices.addEventHandler({ onUpdate: (_o, s) => void (s.metadata.labels?.[SERVICE_NAME_LABEL] === 'web' && sliceUpdates++) });
    const offEndpoints = endpoints.addEventHandler({ onUpdate: (_o, e) => void (e.metadata.name === 'web' && endpointsUpdates++) });
    // A label the selector ignores: a sync that must write nothing.
    await patchLabels('web-1', { unrelated: 'x' });
    const web2 = await setReady({ metadata: { name: 'web-2' } } as Pod, false);
    await h.until(() => endpointOf('web', 'web-2')?.conditions?.ready === false && notReadyIPs('web').length === 1, 'web-2 not ready');
    assert.deepEqual(endpointOf('web', 'web-2')?.conditions, { ready: false, serving: false, terminating: false });
    assert.deepEqual(notReadyIPs('web'), [web2.status?.podIP]);
    assert.equal(readyIPs('web').length, 2);
    offSlices();
    offEndpoints();
    assert.equal(sliceUpdates, 1, 'one slice write for one change');
    assert.equal(endpointsUpdates, 1, 'one Endpoints write for one change');
  });

  test('deleting a pod removes its endpoint', async () => {
    await deletePod('web-3');
    await h.until(() => endpointOf('web', 'web-3') === undefined && readyIPs('web').length === 1, 'web-3 gone from slices and Endpoints');
    assert.equal(endpointsOf('web').length, 2);
  });

  test('a terminating pod stays in the slice as terminating, not ready, and leaves the Endpoints', async () => {
    const p = await pod('web-t', { app: 'web' });
    await h.until(() => endpointOf('web', 'web-t')?.conditions?.ready === true && readyIPs('web').includes(p.status?.podIP ?? ''), 'web-t ready');
    // Bound to a node, the pod waits for its kubelet to confirm: deletionTimestamp is set, the object stays.
    await h.client.delete(podsResource, 'web-t', { namespace: ns, gracePeriodSeconds: 30 });
    await h.until(() => endpointOf('web', 'web-t')?.conditions?.terminating === true && !readyIPs('web').includes(p.status?.podIP ?? ''), 'web-t terminating');
    assert.deepEqual(endpointOf('web', 'web-t')?.conditions, { ready: false, serving: true, terminating: true });
    assert.ok(!notReadyIPs('web').includes(p.status?.podIP ?? ''), 'Endpoints leave terminating pods out');
    await deletePod('web-t');
    await h.until(() => endpointOf('web', 'web-t') === undefined, 'web-t gone');
  });

  test('a label change moves a pod out of a Service and back in', async () => {
    await patchLabels('web-1', { app: 'other' });
    await h.until(() => endpointOf('web', 'web-1') === undefined && readyIPs('web').length === 0, 'web-1 left web');
    await patchLabels('web-1', { app: 'web' });
    await h.until(() => endpointOf('web', 'web-1')?.conditions?.ready === true && readyIPs('web').length === 1, 'web-1 back in web');
  });

  test('publishNotReadyAddresses lists not-ready pods as ready', async () => {
    await service('peers', { selector: { app: 'peers' }, publishNotReadyAddresses: true, ports: [{ port: 7000 }] });
    const p = await pod('peers-1', { app: 'peers' }, { ready: false });
    await h.until(() => endpointOf('peers', 'peers-1') !== undefined && readyIPs('peers').length === 1, 'peers-1 published');
    assert.deepEqual(endpointOf('peers', 'peers-1')?.conditions, { ready: true, serving: false, terminating: false });
    assert.deepEqual(readyIPs('peers'), [p.status?.podIP]);
    assert.deepEqual(notReadyIPs('peers'), []);
  });

  test('a named targetPort resolves per pod; pods are grouped by the ports they have', async () => {
    await service('named', { selector: { app: 'named' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] });
    const a = await pod('named-a', { app: 'named' }, { ports: [{ name: 'http', containerPort: 8080 }] });
    const b = await pod('named-b', { app: 'named' }, { ports: [{ name: 'http', containerPort: 9090 }] });
    await pod('named-c', { app: 'named' }, { ports: [{ name: 'metrics', containerPort: 9100 }] });
    await h.until(() => endpointsOf('named').length === 3 && readyIPs('named').length === 2, 'three endpoints in slices, two addresses in Endpoints');
    const portsOf = (podName: string) => slicesOf('named').find((s) => s.endpoints?.some((e) => e.targetRef?.name === podName))?.ports;
    assert.deepEqual(portsOf('named-a'), [{ name: 'web', port: 8080, protocol: 'TCP' }]);
    assert.deepEqual(portsOf('named-b'), [{ name: 'web', port: 9090, protocol: 'TCP' }]);
    assert.deepEqual(portsOf('named-c'), [], 'a pod without the named port gets a slice without ports');
    assert.equal(slicesOf('named').length, 3);
    const subsets = endpoints.get('named', ns)?.subsets ?? [];
    const portFor = (ip: string | undefined) => subsets.find((s) => s.addresses?.some((x) => x.ip === ip))?.ports?.[0]?.port;
    assert.equal(portFor(a.status?.podIP), 8080);
    assert.equal(portFor(b.status?.podIP), 9090);
  });

  test('a headless Service gives pods with hostname and subdomain their hostname', async () => {
    await service('db', { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 5432 }] });
    await pod('db-0', { app: 'db' }, { hostname: 'db-0', subdomain: 'db' });
    await pod('db-x', { app: 'db' }, { hostname: 'db-x', subdomain: 'elsewhere' });
    await h.until(() => endpointsOf('db').length === 2 && readyIPs('db').length === 2, 'both db pods listed');
    assert.equal(endpointOf('db', 'db-0')?.hostname, 'db-0');
    assert.equal(endpointOf('db', 'db-x')?.hostname, undefined);
    assert.equal(slicesOf('db')[0]?.metadata.labels?.['service.kubernetes.io/headless'], '');
    const addresses = (endpoints.get('db', ns)?.subsets ?? []).flatMap((s) => s.addresses ?? []);
    assert.equal(addresses.find((x) => x.targetRef?.name === 'db-0')?.hostname, 'db-0');
    assert.equal(addresses.find((x) => x.targetRef?.name === 'db-x')?.hostname, undefined);
  });

  test('a selectorless Service gets nothing; the slices and Endpoints others wrote stay as written', async () => {
    await service('manual', { ports: [{ port: 80 }] });
    const mine = await h.client.create<Endpoints>(endpointsResource, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'manual', namespace: ns }, subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 80 }] }] }, { namespace: ns });
    // A slice someone else writes with the controller's label (as the API server may for its own Services).
    const foreign = await h.client.create<EndpointSlice>(
      endpointSlicesResource,
      { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'manual', namespace: ns, labels: { [SERVICE_NAME_LABEL]: 'manual', [MANAGED_BY_LABEL]: 'endpointslice-controller.k8s.io' } }, addressType: 'IPv4', endpoints: [{ addresses: ['192.0.2.10'] }], ports: [{ port: 80 }] },
      { namespace: ns },
    );
    // Created after: once its slices exist, the selectorless one has been synced too.
    await service('sentinel', { selector: { app: 'sentinel' }, ports: [{ port: 80 }] });
    await h.until(() => slicesOf('sentinel').length === 1 && endpoints.get('sentinel', ns) !== undefined, 'the sentinel synced');
    assert.deepEqual(slicesOf('manual').map((x) => x.metadata.resourceVersion), [foreign.metadata.resourceVersion]);
    assert.equal(endpoints.get('manual', ns)?.metadata.resourceVersion, mine.metadata.resourceVersion);
    assert.deepEqual(slicesOf('sentinel')[0]?.endpoints ?? [], [], 'a Service without pods keeps one empty placeholder slice');
  });

  test('250 pods make 3 slices of at most 100 endpoints; deleting the Service removes them', async () => {
    await service('big', { selector: { app: 'big' }, ports: [{ port: 80 }] });
    const names = Array.from({ length: 250 }, (_, i) => `big-${i}`);
    for (let i = 0; i < names.length; i += 25) await Promise.all(names.slice(i, i + 25).map((n) => pod(n, { app: 'big' })));
    await h.until(() => endpointsOf('big').length === 250 && readyIPs('big').length === 250, '250 endpoints', 60_000);
    assert.deepEqual(slicesOf('big').map((s) => s.endpoints.length).sort(), [100, 100, 50]);
    assert.equal(new Set(endpointsOf('big').map((e) => e.targetRef?.name)).size, 250);

    await h.client.delete(servicesResource, 'big', { namespace: ns });
    await h.until(() => slicesOf('big').length === 0 && endpoints.get('big', ns) === undefined, 'slices and Endpoints of big gone', 60_000);
  });

  test('a pod on a node that does not exist waits for it, with a Warning on the Service', async () => {
    await service('late', { selector: { app: 'late' }, ports: [{ port: 80 }] });
    const created = await h.client.create<Pod>(podsResource, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late-1', namespace: ns, labels: { app: 'late' } }, spec: { nodeName: 'node-late', containers: [{ name: 'c', image: 'busybox' }] } }, { namespace: ns });
    const p = await setReady(created, true, '10.244.99.1');
    const warned = () => h.events('late').some((e) => e.reason === 'FailedToUpdateEndpointSlices' && e.type === 'Warning' && e.involvedObject.kind === 'Service' && e.message === 'Error updating Endpoint Slices for Service default/late: skipping Pod late-1 for Service default/late: Node node-late Not Found');
    await h.until(() => warned() && readyIPs('late').length === 1, 'the Warning, and the Endpoints (which do not look at nodes) list the pod');
    assert.deepEqual(endpointsOf('late'), [], 'only the placeholder slice');
    await h.client.create<Node>(nodesResource, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-late' } });
    await h.until(() => endpointOf('late', 'late-1')?.conditions?.ready === true, 'the pod listed once its node exists');
    assert.deepEqual(endpointOf('late', 'late-1')?.addresses, [p.status?.podIP]);
    assert.equal(slicesOf('late').length, 1, 'the placeholder was reused');
  });

  test('a Service that loses its selector loses its slices; its Endpoints stay for their new owner', async () => {
    await service('dropped', { selector: { app: 'dropped' }, ports: [{ port: 80 }] });
    await pod('dropped-1', { app: 'dropped' });
    await h.until(() => endpointsOf('dropped').length === 1 && readyIPs('dropped').length === 1, 'dropped synced');
    await h.client.patch(servicesResource, 'dropped', { spec: { selector: null } }, { type: 'merge', namespace: ns });
    await h.until(() => slicesOf('dropped').length === 0, 'its slices deleted');
    assert.equal(readyIPs('dropped').length, 1);
  });

  test('kubectl lists the slices by service-name label and the Endpoints', async () => {
    const got = await h.kubectl(['get', 'endpointslices', '-l', `${SERVICE_NAME_LABEL}=web`, '-o', 'name']);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout.trim(), /^endpointslice\.discovery\.k8s\.io\/web-[a-z0-9]{5}$/);
    const table = await h.kubectl(['get', 'endpointslices', '-l', `${SERVICE_NAME_LABEL}=web`]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/m);
    assert.match(table.stdout, /^web-[a-z0-9]{5}\s+IPv4\s+8080\s+10\.244\.\d+\.\d+,10\.244\.\d+\.\d+\s+\d+s$/m);
    const list = await h.kubectl(['get', 'endpoints']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /^NAME\s+ENDPOINTS\s+AGE$/m);
    assert.match(list.stdout, new RegExp(`^web\\s+${readyIPs('web').map((ip) => `${ip.replaceAll('.', '\\.')}:8080`).join(',')}\\s`, 'm'));
    assert.match(list.stdout, /^manual\s+192\.0\.2\.10:80\s/m);
    const eps = await h.kubectl(['get', 'endpoints', 'web', '-o', 'jsonpath={.subsets[*].addresses[*].ip}']);
    assert.equal(eps.code, 0, eps.stderr);
    assert.deepEqual(eps.stdout.trim().split(' ').sort(), readyIPs('web'));
  });

  test('the controllers stay within the family RBAC rules', () => {
    assert.deepEqual(h.deniedToControllers(), []);
  });
});

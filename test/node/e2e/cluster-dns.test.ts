// Cluster DNS on `bosun up` (root): the node serves DNS on its bridge gateway and publishes kube-dns-<node>,
// a pod's /etc/resolv.conf names the cluster DNS with kubelet's search path, and a pod resolves the
// kubernetes Service at the gateway. (Reaching it through 10.96.0.10 is the proxy's DNAT.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

let up: BosunUp;
before(async () => {
  up = await startBosunUp();
});
after(async () => {
  await up.close();
});

test('a pod gets kubelet\'s resolv.conf and resolves kubernetes.default at the node\'s DNS server', { timeout: 120_000 }, async () => {
  // The API server creates default/kubernetes once Services are allocated there; until then the test does.
  const created = await up.kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default' }, spec: { clusterIP: '10.96.0.1', clusterIPs: ['10.96.0.1'], ports: [{ name: 'https', port: 443, protocol: 'TCP' }] } }));
  assert.ok(created.code === 0 || created.stderr.includes('AlreadyExists'), created.stderr);

  await up.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'dns-client' },
    spec: {
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 1,
      containers: [{
        name: 'c',
        image: 'busybox',
        command: ['sh', '-c', 'cat /etc/resolv.conf; echo ---; /bin/busybox nslookup kubernetes.default.svc.cluster.local "$NODE_DNS"'],
        env: [{ name: 'NODE_DNS', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } }],
      }],
    },
  }));
  await up.ok(['wait', '--for=jsonpath={.status.phase}=Succeeded', 'pod/dns-client', '--timeout=60s']);
  const [resolv = '', lookup = ''] = (await up.ok(['logs', 'dns-client'])).split('---\n');
  const lines = resolv.trim().split('\n');
  assert.match(lines[0] ?? '', /^search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local( |$)/);
  assert.deepEqual(lines.slice(1), ['nameserver 10.96.0.10', 'options ndots:5']);
  assert.match(lookup, /Name:\s+kubernetes\.default\.svc\.cluster\.local\nAddress: 10\.96\.0\.1\n/);

  // The node's slice points the kube-dns Service at the address the pod asked.
  const gateway = await up.ok(['get', 'pod', 'dns-client', '-o', 'jsonpath={.status.hostIP}']);
  const node = await up.ok(['get', 'pod', 'dns-client', '-o', 'jsonpath={.spec.nodeName}']);
  const slice = JSON.parse(await up.ok(['get', 'endpointslice', '-n', 'kube-system', `kube-dns-${node}`, '-o', 'json'])) as { endpoints: { addresses: string[] }[]; ports: { name: string; protocol: string; port: number }[] };
  assert.deepEqual(slice.endpoints.map((e) => e.addresses), [[gateway]]);
  assert.deepEqual(slice.ports.map((p) => `${p.name}/${p.protocol}/${p.port}`).sort(), ['dns-tcp/TCP/53', 'dns/UDP/53']);
});

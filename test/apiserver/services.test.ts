// Services as kube-apiserver serves them, through the real kubectl: defaults, validation with kube's messages,
// ClusterIP and NodePort allocation over the service CIDR, kubectl's table columns, the system Services the
// server keeps (and makes again when deleted), and minimal Endpoints/EndpointSlice validation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { allow, createValidating, startWebhookServer, type Answer } from './admission/support.ts';

type Body = Record<string, any>;

const services = '/api/v1/namespaces/default/services';

function inDefaultRange(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number);
  return a === 10 && b !== undefined && b >= 96 && b <= 111;
}

function service(name: string, spec: Body): Body {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec };
}

describe('services in the embedded API server', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Body }> => {
    const res = await server.api(path, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const getJson = async (args: string[]): Promise<Body> => {
    const r = await kubectl([...args, '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as Body;
  };

  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('kubectl expose makes a ClusterIP Service in the service CIDR with the deployment selector; kubectl get svc prints its columns', async () => {
    assert.equal((await kubectl(['create', 'deployment', 'echo', '--image=busybox', '--', 'httpd', '-f', '-p', '8080'])).code, 0);
    const exposed = await kubectl(['expose', 'deployment', 'echo', '--port', '80', '--target-port', '8080']);
    assert.equal(exposed.code, 0, exposed.stderr);
    assert.equal(exposed.stdout.trim(), 'service/echo exposed');
    const svc = await getJson(['get', 'svc', 'echo']);
    const ip = svc['spec']['clusterIP'] as string;
    assert.ok(inDefaultRange(ip) && ip !== '10.96.0.1' && ip !== '10.96.0.10', ip);
    assert.deepEqual(svc['spec']['clusterIPs'], [ip]);
    assert.deepEqual(svc['spec']['selector'], { app: 'echo' });
    assert.deepEqual(svc['spec']['ports'], [{ port: 80, protocol: 'TCP', targetPort: 8080 }]);
    assert.equal(svc['spec']['type'], 'ClusterIP');
    assert.equal(svc['spec']['sessionAffinity'], 'None');
    assert.deepEqual(svc['spec']['ipFamilies'], ['IPv4']);
    assert.equal(svc['spec']['ipFamilyPolicy'], 'SingleStack');
    assert.equal(svc['spec']['internalTrafficPolicy'], 'Cluster');

    const table = await kubectl(['get', 'svc', 'echo']);
    assert.match(table.stdout, /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\n/);
    assert.match(table.stdout, new RegExp(`\\necho\\s+ClusterIP\\s+${ip.replaceAll('.', '\\.')}\\s+<none>\\s+80/TCP\\s+\\d+s\\n`));
    const wide = await kubectl(['get', 'svc', 'echo', '-o', 'wide']);
    assert.match(wide.stdout, /PORT\(S\)\s+AGE\s+SELECTOR\n/);
    assert.match(wide.stdout, /80\/TCP\s+\d+s\s+app=echo\n/);
  });

  test('kubectl cluster-info names the control plane; get all -A lists the system Services; their endpoints point at the server', async () => {
    const info = await kubectl(['cluster-info']);
    assert.equal(info.code, 0, info.stderr);
    assert.match(info.stdout, new RegExp(`Kubernetes control plane is running at ${server.url.replaceAll('.', '\\.')}`));
    const all = await kubectl(['get', 'all', '-A']);
    assert.match(all.stdout, /default\s+service\/kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP/);
    assert.match(all.stdout, /kube-system\s+service\/kube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP/);

    const kubernetes = await getJson(['get', 'svc', 'kubernetes']);
    assert.deepEqual(kubernetes['metadata']['labels'], { component: 'apiserver', provider: 'kubernetes' });
    assert.deepEqual(kubernetes['spec']['ports'], [{ name: 'https', port: 443, protocol: 'TCP', targetPort: server.port }]);
    assert.equal(kubernetes['spec']['selector'], undefined);
    const dns = await getJson(['get', 'svc', 'kube-dns', '-n', 'kube-system']);
    assert.deepEqual(dns['metadata']['labels'], { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' });
    assert.deepEqual(
      dns['spec']['ports'].map((p: Body) => `${p['name']} ${p['port']}/${p['protocol']}`),
      ['dns 53/UDP', 'dns-tcp 53/TCP', 'metrics 9153/TCP'],
    );

    const ep = await kubectl(['get', 'ep', 'kubernetes']);
    assert.match(ep.stdout, /^NAME\s+ENDPOINTS\s+AGE\n/);
    assert.match(ep.stdout, new RegExp(`\\nkubernetes\\s+127\\.0\\.0\\.1:${server.port}\\s+`));
    const slices = await kubectl(['get', 'endpointslices', 'kubernetes']);
    assert.match(slices.stdout, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\n/);
    assert.match(slices.stdout, new RegExp(`\\nkubernetes\\s+IPv4\\s+${server.port}\\s+127\\.0\\.0\\.1\\s+`));
    const slice = await getJson(['get', 'endpointslices', 'kubernetes']);
    assert.equal(slice['metadata']['labels']['kubernetes.io/service-name'], 'kubernetes');
  });

  test('the system Services, and the kubernetes endpoints, come back after deletion', async () => {
    for (const args of [
      ['delete', 'svc', 'kubernetes'],
      ['delete', 'svc', 'kube-dns', '-n', 'kube-system'],
      ['delete', 'endpoints', 'kubernetes'],
      ['delete', 'endpointslices', 'kubernetes'],
    ]) {
      const r = await kubectl(args);
      assert.equal(r.code, 0, r.stderr);
    }
    await eventually(async () => (await send('GET', `${services}/kubernetes`)).body['spec']?.['clusterIP'] === '10.96.0.1', 5000, 'default/kubernetes again');
    await eventually(async () => (await send('GET', '/api/v1/namespaces/kube-system/services/kube-dns')).body['spec']?.['clusterIP'] === '10.96.0.10', 5000, 'kube-dns again');
    await eventually(async () => (await send('GET', '/api/v1/namespaces/default/endpoints/kubernetes')).status === 200, 5000, 'kubernetes Endpoints again');
    await eventually(async () => (await send('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).status === 200, 5000, 'kubernetes EndpointSlice again');
    // Changed by someone else, the server's endpoints are put back.
    const patched = await kubectl(['patch', 'endpointslice', 'kubernetes', '--type=merge', '-p', '{"ports":[{"name":"https","port":1,"protocol":"TCP"}]}']);
    assert.equal(patched.code, 0, patched.stderr);
    await eventually(async () => (await send('GET', '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes')).body['ports']?.[0]?.['port'] === server.port, 5000, 'the slice put back');
    const ports = await kubectl(['patch', 'svc', 'kubernetes', '--type=json', '-p', '[{"op":"replace","path":"/spec/ports/0/port","value":8443}]']);
    assert.equal(ports.code, 0, ports.stderr);
    await eventually(async () => (await send('GET', `${services}/kubernetes`)).body['spec']?.['ports']?.[0]?.['port'] === 443, 5000, 'the Service port put back');
  });

  test('headless and ExternalName Services', async () => {
    assert.equal((await kubectl(['create', 'service', 'clusterip', 'headless', '--clusterip=None', '--tcp=80:8080'])).code, 0);
    const headless = await getJson(['get', 'svc', 'headless']);
    assert.equal(headless['spec']['clusterIP'], 'None');
    assert.deepEqual(headless['spec']['clusterIPs'], ['None']);
    assert.equal(headless['spec']['ipFamilyPolicy'], 'SingleStack');
    // Headless and selectorless: kube defaults to RequireDualStack with both families, and allocates nothing.
    const bare = await send('POST', services, service('bare', { clusterIP: 'None' }));
    assert.equal(bare.status, 201, JSON.stringify(bare.body));
    assert.equal(bare.body['spec']['ipFamilyPolicy'], 'RequireDualStack');
    assert.deepEqual(bare.body['spec']['ipFamilies'], ['IPv4', 'IPv6']);

    const created = await kubectl(['create', 'service', 'externalname', 'docs', '--external-name=example.com']);
    assert.equal(created.code, 0, created.stderr);
    const external = await getJson(['get', 'svc', 'docs']);
    assert.equal(external['spec']['externalName'], 'example.com');
    assert.equal(external['spec']['clusterIP'], undefined);
    assert.equal(external['spec']['ipFamilies'], undefined);
    const table = await kubectl(['get', 'svc', 'docs', 'headless']);
    assert.match(table.stdout, /\ndocs\s+ExternalName\s+<none>\s+example\.com\s+<none>\s+/);
    assert.match(table.stdout, /\nheadless\s+ClusterIP\s+None\s+<none>\s+80\/TCP\s+/);

    const missing = await send('POST', services, service('noname', { type: 'ExternalName' }));
    assert.equal(missing.status, 422);
    assert.equal(missing.body['message'], 'Service "noname" is invalid: spec.externalName: Required value');
    const withIP = await send('POST', services, service('withip', { type: 'ExternalName', externalName: 'example.com', clusterIP: '10.96.3.3' }));
    assert.equal(withIP.status, 422);
    assert.match(withIP.body['message'], /spec\.clusterIPs: Forbidden: may not be set for ExternalName services/);
    const nodePortHeadless = await send('POST', services, service('nph', { type: 'NodePort', clusterIP: 'None', ports: [{ port: 80 }] }));
    assert.equal(nodePortHeadless.status, 422);
    assert.match(nodePortHeadless.body['message'], /spec\.clusterIPs\[0\]: Invalid value: "None": may not be set to 'None' for NodePort services/);
  });

  test('NodePorts are allocated in 30000-32767; a clash or a port out of range is 422 as kube-apiserver answers', async () => {
    const first = await kubectl(['create', 'service', 'nodeport', 'web', '--tcp=80:8080', '--node-port=30080']);
    assert.equal(first.code, 0, first.stderr);
    const clash = await kubectl(['create', 'service', 'nodeport', 'web2', '--tcp=80:8080', '--node-port=30080']);
    assert.equal(clash.code, 1);
    assert.equal(clash.stderr.trim(), 'error: failed to create NodePort service: Service "web2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const outside = await send('POST', services, service('far', { type: 'NodePort', ports: [{ port: 80, nodePort: 40000 }] }));
    assert.equal(outside.status, 422);
    assert.equal(outside.body['reason'], 'Invalid');
    assert.equal(outside.body['message'], 'Service "far" is invalid: spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. The range of valid ports is 30000-32767');
    const auto = await send('POST', services, service('auto', { type: 'NodePort', selector: { app: 'x' }, ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }));
    assert.equal(auto.status, 201, JSON.stringify(auto.body));
    const nodePorts = auto.body['spec']['ports'].map((p: Body) => p['nodePort'] as number);
    for (const port of nodePorts) assert.ok(port >= 30000 && port <= 32767 && port !== 30080, String(port));
    assert.notEqual(nodePorts[0], nodePorts[1]);
    assert.equal(auto.body['spec']['externalTrafficPolicy'], 'Cluster');
    const table = await kubectl(['get', 'svc', 'web']);
    assert.match(table.stdout, /\nweb\s+NodePort\s+10\.\d+\.\d+\.\d+\s+<none>\s+80:30080\/TCP\s+/);
    // kubectl apply of a manifest without nodePort keeps the allocated ones; a type change to ClusterIP frees them.
    const replaced = await send('PUT', `${services}/auto`, { ...service('auto', { type: 'NodePort', selector: { app: 'x' }, ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }), metadata: { name: 'auto', resourceVersion: auto.body['metadata']['resourceVersion'] } });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(replaced.body['spec']['ports'].map((p: Body) => p['nodePort']), nodePorts);
    assert.equal(replaced.body['spec']['clusterIP'], auto.body['spec']['clusterIP']);
    assert.equal((await kubectl(['patch', 'svc', 'web', '-p', '{"spec":{"type":"ClusterIP"}}'])).code, 0);
    const reused = await kubectl(['create', 'service', 'nodeport', 'web3', '--tcp=80:8080', '--node-port=30080']);
    assert.equal(reused.code, 0, reused.stderr);
  });

  test('an invalid, out-of-range or taken clusterIP is 422; a deleted Service frees its address', async () => {
    const invalid = await send('POST', services, service('badip', { clusterIP: '10.96.0.500', ports: [{ port: 80 }] }));
    assert.equal(invalid.status, 422);
    assert.equal(invalid.body['message'], 'Service "badip" is invalid: spec.clusterIPs[0]: Invalid value: "10.96.0.500": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
    const outside = await kubectl(['create', 'service', 'clusterip', 'outside', '--clusterip=10.200.0.1', '--tcp=80:80']);
    assert.equal(outside.code, 1);
    assert.equal(
      outside.stderr.trim(),
      'error: failed to create ClusterIP service: Service "outside" is invalid: spec.clusterIPs: Invalid value: []string{"10.200.0.1"}: failed to allocate IP 10.200.0.1: the provided IP (10.200.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
    );
    const reserved = await kubectl(['create', 'service', 'clusterip', 'reserved', '--clusterip=10.96.0.10', '--tcp=80:80']);
    assert.equal(reserved.code, 1);
    assert.match(reserved.stderr, /spec\.clusterIPs: Invalid value: \[\]string\{"10\.96\.0\.10"\}: failed to allocate IP 10\.96\.0\.10: provided IP is already allocated/);
    assert.equal((await kubectl(['create', 'service', 'clusterip', 'fixed', '--clusterip=10.96.7.7', '--tcp=80:80'])).code, 0);
    const taken = await send('POST', services, service('again', { clusterIP: '10.96.7.7', ports: [{ port: 80 }] }));
    assert.equal(taken.status, 422);
    assert.equal(taken.body['message'], 'Service "again" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.7.7"}: failed to allocate IP 10.96.7.7: provided IP is already allocated');
    assert.equal((await kubectl(['delete', 'svc', 'fixed'])).code, 0);
    const freed = await send('POST', services, service('again', { clusterIP: '10.96.7.7', ports: [{ port: 80 }] }));
    assert.equal(freed.status, 201, JSON.stringify(freed.body));
  });

  test('clusterIP is immutable; an update without it keeps it', async () => {
    const created = await send('POST', services, service('stable', { selector: { app: 's' }, ports: [{ port: 80 }] }));
    assert.equal(created.status, 201);
    const ip = created.body['spec']['clusterIP'] as string;
    const changed = await kubectl(['patch', 'svc', 'stable', '-p', '{"spec":{"clusterIP":"10.96.5.5"}}']);
    assert.equal(changed.code, 1);
    assert.equal(changed.stderr.trim(), 'The Service "stable" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.5.5"}: may not change once set');
    const manifest = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: stable\nspec:\n  selector:\n    app: s\n  ports:\n  - port: 80\n    targetPort: 9090\n';
    const replaced = await kubectl(['replace', '-f', '-'], manifest);
    assert.equal(replaced.code, 0, replaced.stderr);
    const after = await getJson(['get', 'svc', 'stable']);
    assert.equal(after['spec']['clusterIP'], ip);
    assert.equal(after['spec']['ports'][0]['targetPort'], 9090);
  });

  test('kubectl apply (client- and server-side) merges ports by port and keeps the allocation; kubectl explain knows Services', async () => {
    const manifest = (name: string, ports: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  selector:\n    app: web\n  ports:\n${ports}`;
    const one = '  - name: http\n    port: 80\n    targetPort: 8080\n';
    const two = '  - name: http\n    port: 80\n    targetPort: 9090\n  - name: https\n    port: 443\n';
    for (const [name, flags] of [
      ['applied', []],
      ['ssa', ['--server-side']],
    ] as const) {
      assert.equal((await kubectl(['apply', ...flags, '-f', '-'], manifest(name, one))).code, 0);
      const ip = (await getJson(['get', 'svc', name]))['spec']['clusterIP'];
      const again = await kubectl(['apply', ...flags, '-f', '-'], manifest(name, two));
      assert.equal(again.code, 0, again.stderr);
      const spec = (await getJson(['get', 'svc', name]))['spec'];
      assert.equal(spec['clusterIP'], ip);
      assert.deepEqual(spec['ports'], [
        { name: 'http', port: 80, protocol: 'TCP', targetPort: 9090 },
        { name: 'https', port: 443, protocol: 'TCP', targetPort: 443 },
      ]);
    }
    const explain = await kubectl(['explain', 'svc.spec.clusterIP']);
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /FIELD: clusterIP <string>/);
  });

  test('40 concurrent creates get 40 distinct addresses', async () => {
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => send('POST', '/api/v1/namespaces/kube-public/services', service(`many-${i}`, { selector: { app: `a${i}` }, ports: [{ port: 80 }] }))),
    );
    const ips = created.map((c) => {
      assert.equal(c.status, 201, JSON.stringify(c.body));
      return c.body['spec']['clusterIP'] as string;
    });
    assert.equal(new Set(ips).size, 40);
    for (const ip of ips) assert.ok(inDefaultRange(ip), ip);
  });

  test('validation answers with kube-apiserver field errors', async () => {
    const cases: [Body, string][] = [
      [service('1abc', { ports: [{ port: 80 }] }), `Service "1abc" is invalid: metadata.name: Invalid value: "1abc": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`],
      [service('noports', { selector: { app: 'x' } }), 'Service "noports" is invalid: spec.ports: Required value'],
      [service('unnamed', { ports: [{ port: 80 }, { port: 81 }] }), 'Service "unnamed" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]'],
      [service('range', { ports: [{ port: 70000 }] }), 'Service "range" is invalid: [spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive]'],
      [service('proto', { ports: [{ port: 80, protocol: 'ICMP' }] }), 'Service "proto" is invalid: spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
      [service('kind', { type: 'Magic', ports: [{ port: 80 }] }), 'Service "kind" is invalid: spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'],
      [service('np', { ports: [{ port: 80, nodePort: 30001 }] }), "Service \"np\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
      [service('tp', { ports: [{ port: 80, targetPort: 'HTTP' }] }), 'Service "tp" is invalid: spec.ports[0].targetPort: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
      [service('dup', { ports: [{ name: 'a', port: 80 }, { name: 'a', port: 80 }] }), 'Service "dup" is invalid: [spec.ports[1].name: Duplicate value: "a", spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}]'],
      [service('v6', { clusterIP: 'fd00::1', ports: [{ port: 80 }] }), 'Service "v6" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::1"}: IPv6 is not configured on this cluster'],
      [service('aff', { sessionAffinity: 'Sticky', ports: [{ port: 80 }] }), 'Service "aff" is invalid: spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"'],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', services, body);
      assert.equal(res.status, 422, `${body['metadata']['name']}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body['message'], message);
    }
    const sticky = await send('POST', services, service('sticky', { sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }));
    assert.equal(sticky.status, 201);
    assert.deepEqual(sticky.body['spec']['sessionAffinityConfig'], { clientIP: { timeoutSeconds: 10800 } });
  });

  test('Endpoints and EndpointSlices: address types, loopback refused, at most 1000 endpoints', async () => {
    const slices = '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices';
    const slice = (name: string, extra: Body): Body => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name }, ...extra });
    const good = await send('POST', slices, slice('good', { addressType: 'IPv4', endpoints: [{ addresses: ['10.244.0.5'] }], ports: [{ port: 8080 }] }));
    assert.equal(good.status, 201, JSON.stringify(good.body));
    assert.deepEqual(good.body['ports'], [{ name: '', port: 8080, protocol: 'TCP' }]);
    const cases: [Body, string][] = [
      [slice('notype', { endpoints: [] }), 'EndpointSlice.discovery.k8s.io "notype" is invalid: addressType: Required value'],
      [slice('badtype', { addressType: 'IPv5', endpoints: [] }), 'EndpointSlice.discovery.k8s.io "badtype" is invalid: addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"'],
      [slice('mismatch', { addressType: 'IPv4', endpoints: [{ addresses: ['fd00::5'] }] }), 'EndpointSlice.discovery.k8s.io "mismatch" is invalid: endpoints[0].addresses[0]: Invalid value: "fd00::5": must be a valid IPv4 address'],
      [slice('loop', { addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.1'] }] }), 'EndpointSlice.discovery.k8s.io "loop" is invalid: endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)'],
      [slice('port', { addressType: 'IPv4', endpoints: [], ports: [{ port: 70000 }] }), 'EndpointSlice.discovery.k8s.io "port" is invalid: ports[0].port: Invalid value: 70000: must be between 0 and 65535, inclusive'],
      [slice('many', { addressType: 'IPv4', endpoints: Array.from({ length: 1001 }, (_, i) => ({ addresses: [`10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`] })) }), 'EndpointSlice.discovery.k8s.io "many" is invalid: endpoints: Too many: 1001: must have at most 1000 items'],
    ];
    for (const [body, message] of cases) {
      const res = await send('POST', slices, body);
      assert.equal(res.status, 422, `${body['metadata']['name']}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body['message'], message);
    }
    const endpoints = '/api/v1/namespaces/default/endpoints';
    const loop = await send('POST', endpoints, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'loop' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }] }] });
    assert.equal(loop.status, 422);
    assert.equal(loop.body['message'], 'Endpoints "loop" is invalid: subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)');
    const ok = await send('POST', endpoints, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ok' }, subsets: [{ addresses: [{ ip: '10.244.0.7' }], ports: [{ port: 80 }] }] });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body['subsets'][0]['ports'][0]['protocol'], 'TCP');
  });
});

test('a small range is shared out exactly: concurrent creates held in admission get distinct addresses, then it is full', async () => {
  // 10.0.0.0/28: 14 usable addresses, two kept for the system Services, 12 for these creates.
  const server = await startTestServer({ serviceClusterIPRange: '10.0.0.0/28' });
  const hook = await startWebhookServer();
  try {
    // A validating webhook holds every create until all twelve are in admission: each was prepared before any is stored.
    const held: (() => void)[] = [];
    hook.on('/hold', () =>
      new Promise<Answer>((resolve) => {
        held.push(() => resolve(allow()));
        if (held.length >= 12) for (const release of held) release();
      }),
    );
    const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['services'] }];
    await createValidating(server, 'hold', [{ name: 'hold.bosun.test', url: hook.url('/hold'), caBundle: hook.caBundle, rules }]);
    const create = (name: string) =>
      server.api('/api/v1/namespaces/default/services', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(service(name, { selector: { app: name }, ports: [{ port: 80 }] })) });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => create(`fill-${i}`)));
    const ips: string[] = [];
    for (const res of answers) {
      const body = (await res.json()) as Body;
      assert.equal(res.status, 201, JSON.stringify(body));
      ips.push(body['spec']['clusterIP'] as string);
    }
    assert.equal(new Set(ips).size, 12);
    assert.ok(!ips.includes('10.0.0.1') && !ips.includes('10.0.0.10'));
    const full = await create('one-more');
    assert.equal(full.status, 500);
    assert.equal(((await full.json()) as Body)['message'], 'Internal error occurred: failed to allocate a serviceIP: range is full');
  } finally {
    await hook.close();
    await server.close();
  }
});

test('a configured service CIDR and cluster DNS address', async () => {
  const server = await startTestServer({ serviceClusterIPRange: '10.0.0.0/24', clusterDNS: '10.0.0.53' });
  try {
    const kubectl = kubectlFor(server.kubeconfigFile);
    const all = await kubectl(['get', 'svc', '-A']);
    assert.match(all.stdout, /default\s+kubernetes\s+ClusterIP\s+10\.0\.0\.1\s+/);
    assert.match(all.stdout, /kube-system\s+kube-dns\s+ClusterIP\s+10\.0\.0\.53\s+/);
    const outside = await kubectl(['create', 'service', 'clusterip', 'outside', '--clusterip=10.96.0.20', '--tcp=80:80']);
    assert.match(outside.stderr, /The range of valid IPs is 10\.0\.0\.0\/24/);
    const inside = await kubectl(['create', 'service', 'clusterip', 'inside', '--tcp=80:80', '-o', 'jsonpath={.spec.clusterIP}']);
    assert.match(inside.stdout, /^10\.0\.0\.\d+$/);
  } finally {
    await server.close();
  }
  await assert.rejects(startTestServer({ serviceClusterIPRange: '10.0.0.0/24', clusterDNS: '10.1.0.10' }), /cluster DNS address "10\.1\.0\.10" is not in the service CIDR 10\.0\.0\.0\/24/);
});

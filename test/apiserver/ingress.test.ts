// networking.k8s.io/v1 Ingress and IngressClass as kube-apiserver serves them, driven with real kubectl: discovery
// and the `ing` short name, kubectl's columns, ValidateIngress and ValidateIngressClass's messages in a 422, the
// default-class admission (DefaultIngressClass), the parameters' scope default, the immutable controller and the
// status subresource.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { IngressClass } from '../../src/apimachinery/api/index.ts';
import { DEFAULT_INGRESS_CLASS_ANNOTATION } from '../../src/apimachinery/ingress-classes.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { ingressStrategy } from '../../src/apiserver/networking/ingress-strategy.ts';
import { protobufMediaType } from '../../src/apiserver/protobuf/decode.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';

const ingresses = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
const json = { 'content-type': 'application/json' };

const backend = (name = 'web', port: Record<string, unknown> = { number: 80 }) => ({ service: { name, port } });
const ingress = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name, ...(annotations ? { annotations } : {}) }, spec });
const ingressClass = (name: string, spec: Record<string, unknown>, isDefault = false) =>
  JSON.stringify({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name, ...(isDefault ? { annotations: { [DEFAULT_INGRESS_CLASS_ANNOTATION]: 'true' } } : {}) }, spec });
const rule = (host: string | undefined, path: Record<string, unknown>) => ({ ...(host === undefined ? {} : { host }), http: { paths: [path] } });

describe('Ingress and IngressClass', () => {
  let server: TestServer;
  let kubectl: Kubectl;
  const ok = async (args: string[], input?: string): Promise<string> => {
    const result = await kubectl(args, input);
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };
  /** kubectl's error for a refused create; `--validate=false` so the server, not kubectl's schema check, answers. */
  const refused = async (input: string): Promise<string> => {
    const result = await kubectl(['create', '--validate=false', '-f', '-'], input);
    assert.notEqual(result.code, 0, `refused: ${result.stdout}`);
    return result.stderr;
  };
  before(async () => {
    server = await startTestServer();
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  test('kubectl api-resources lists ingresses (ing, namespaced) and ingressclasses (cluster-scoped)', async () => {
    const out = await ok(['api-resources', '--api-group=networking.k8s.io', '--no-headers']);
    assert.match(out, /^ingressclasses\s+networking\.k8s\.io\/v1\s+false\s+IngressClass$/m);
    assert.match(out, /^ingresses\s+ing\s+networking\.k8s\.io\/v1\s+true\s+Ingress$/m);
  });

  test('create, get and list: kubectl prints NAME CLASS HOSTS ADDRESS PORTS AGE and NAME CONTROLLER PARAMETERS AGE', async () => {
    await ok(['create', '-f', '-'], ingressClass('plain', { controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'external-lb' } }));
    const classes = await ok(['get', 'ingressclass', 'plain']);
    assert.match(classes, /^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE\n/);
    assert.match(classes, /\nplain\s+example\.com\/ingress\s+IngressParameters\.k8s\.example\.com\/external-lb\s+\S+\n/);
    const stored = JSON.parse(await ok(['get', 'ingressclass', 'plain', '-o', 'json'])) as IngressClass;
    assert.equal(stored.spec?.parameters?.scope, 'Cluster', 'SetDefaults_IngressClass gives parameters the Cluster scope');

    const spec = {
      ingressClassName: 'plain',
      tls: [{ hosts: ['a.example.com'], secretName: 'tls' }],
      rules: ['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com'].map((host) => rule(host, { path: '/', pathType: 'Prefix', backend: backend() })),
    };
    await ok(['create', '-f', '-'], ingress('site', spec));
    const table = await ok(['get', 'ing']);
    assert.match(table, /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\n/);
    assert.match(table, /\nsite\s+plain\s+a\.example\.com,b\.example\.com,c\.example\.com \+ 1 more\.\.\.\s+80, 443\s+\S+\n/);
    const created = JSON.parse(await ok(['get', 'ingress', 'site', '-o', 'json'])) as KubeObject;
    assert.deepEqual(created['status'], { loadBalancer: {} });
    assert.equal(created.metadata.generation, 1);
    const list = JSON.parse(await ok(['get', 'ingresses', '-o', 'json'])) as { items: KubeObject[] };
    assert.deepEqual(list.items.map((i) => i.metadata.name), ['site']);
  });

  test('kubectl apply, client-side and server-side, replaces the rules as a whole (their lists are atomic)', async () => {
    const spec = (path: string) => ({ rules: [rule('apply.example.com', { path, pathType: 'Prefix', backend: backend() })] });
    for (const mode of [[], ['--server-side']]) {
      const name = `applied${mode.length}`;
      await ok(['apply', ...mode, '-f', '-'], ingress(name, spec('/one')));
      await ok(['apply', ...mode, '-f', '-'], ingress(name, spec('/two')));
      assert.equal(await ok(['get', 'ing', name, '-o', 'jsonpath={.spec.rules[*].http.paths[*].path}']), '/two');
    }
  });

  test('kubectl create ingress sends protobuf; the server stores what the same Ingress as JSON gives', async () => {
    const args = (name: string) => ['create', 'ingress', name, '--class=plain', '--rule=foo.com/bar=svc1:8080,tls=my-cert', '--rule=/path*=svc2:http', '--default-backend=defsvc:http', '--annotation=team=web'];
    const mark = server.mark();
    await ok(args('made'));
    const posts = server.since(mark).filter((r) => r.method === 'POST');
    assert.ok(posts.length === 1 && posts[0]?.contentType === protobufMediaType && posts[0].status === 201, JSON.stringify(posts));
    const asJson = await ok([...args('made-json'), '--dry-run=client', '-o', 'json']);
    await server.json(ingresses, { method: 'POST', headers: json, body: asJson, expect: 201 });
    const spec = async (name: string) => (await server.json<KubeObject>(`${ingresses}/${name}`))['spec'];
    assert.deepEqual(await spec('made'), await spec('made-json'));
    assert.deepEqual(await spec('made'), {
      ingressClassName: 'plain',
      defaultBackend: { service: { name: 'defsvc', port: { name: 'http' } } },
      tls: [{ hosts: ['foo.com'], secretName: 'my-cert' }],
      rules: [
        { host: 'foo.com', http: { paths: [{ path: '/bar', pathType: 'Exact', backend: { service: { name: 'svc1', port: { number: 8080 } } } }] } },
        { http: { paths: [{ path: '/path', pathType: 'Prefix', backend: { service: { name: 'svc2', port: { name: 'http' } } } }] } },
      ],
    });
  });

  test('the status subresource: a controller reports its address, which main-resource writes keep', async () => {
    await ok(['create', '-f', '-'], ingress('reported', { defaultBackend: backend() }));
    const current = await server.json<KubeObject>(`${ingresses}/reported`);
    const status = { loadBalancer: { ingress: [{ ip: '192.0.2.10' }] } };
    const reported = await server.json<KubeObject>(`${ingresses}/reported/status`, { method: 'PUT', headers: json, body: JSON.stringify({ ...current, status }), expect: 200 });
    assert.match(await ok(['get', 'ing', 'reported']), /\nreported\s+<none>\s+\*\s+192\.0\.2\.10\s+80\s+\S+\n/);
    const bad = await server.api(`${ingresses}/reported/status`, { method: 'PUT', headers: json, body: JSON.stringify({ ...reported, status: { loadBalancer: { ingress: [{ hostname: '192.0.2.11' }] } } }) });
    assert.equal(bad.status, 422);
    assert.match(((await bad.json()) as { message: string }).message, /status\.loadBalancer\.ingress\[0\]\.hostname: Invalid value: "192\.0\.2\.11": must be a DNS name, not an IP address/);
    await ok(['label', 'ingress', 'reported', 'team=web']);
    const relabelled = await server.json<KubeObject>(`${ingresses}/reported`);
    assert.deepEqual(relabelled['status'], status, 'a main-resource write keeps the status');
  });

  test('ValidateIngress: rules or a default backend, path types, paths, backends, hosts, TLS and the class, with kube-apiserver\'s messages', async () => {
    assert.match(await refused(ingress('empty', {})), /The Ingress "empty" is invalid: spec: Invalid value: \[\]networking\.IngressRule\(nil\): either `defaultBackend` or `rules` must be specified/);
    const cases: [Record<string, unknown>, RegExp][] = [
      [rule('a.example.com', { path: '/', backend: backend() }), /spec\.rules\[0\]\.http\.paths\[0\]\.pathType: Required value: pathType must be specified/],
      [rule('a.example.com', { path: '/', pathType: 'Regex', backend: backend() }), /spec\.rules\[0\]\.http\.paths\[0\]\.pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"/],
      [rule('a.example.com', { path: 'relative', pathType: 'Exact', backend: backend() }), /spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: "relative": must be an absolute path/],
      [rule('a.example.com', { path: '/a//b', pathType: 'Prefix', backend: backend() }), /spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: "\/a\/\/b": must not contain '\/\/'/],
      [rule('a.example.com', { path: '/a/..', pathType: 'Prefix', backend: backend() }), /spec\.rules\[0\]\.http\.paths\[0\]\.path: Invalid value: "\/a\/\.\.": cannot end with '\/\.\.'/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: { ...backend(), resource: { kind: 'Bucket', name: 'b' } } }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend: Invalid value: "": cannot set both resource and service backends/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: {} }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend: Invalid value: "": resource or service backend is required/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: backend('web', { name: 'http', number: 80 }) }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend: Invalid value: "": cannot set both port name & port number/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: backend('web', {}) }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend: Required value: port name or number is required/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: backend('9web') }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.name: Invalid value: "9web": a DNS-1035 label must consist of/],
      [rule('a.example.com', { path: '/', pathType: 'Prefix', backend: backend('web', { number: 70000 }) }), /spec\.rules\[0\]\.http\.paths\[0\]\.backend\.service\.port\.number: Invalid value: 70000: must be between 1 and 65535, inclusive/],
      [rule('10.0.0.1', { path: '/', pathType: 'Prefix', backend: backend() }), /spec\.rules\[0\]\.host: Invalid value: "10\.0\.0\.1": must be a DNS name, not an IP address/],
      [rule('a.*.example.com', { path: '/', pathType: 'Prefix', backend: backend() }), /spec\.rules\[0\]\.host: Invalid value: "a\.\*\.example\.com": a wildcard DNS-1123 subdomain must start with '\*\.'/],
    ];
    for (const [bad, message] of cases) assert.match(await refused(ingress('bad', { rules: [bad] })), message);
    assert.match(await refused(ingress('bad', { defaultBackend: backend(), tls: [{ secretName: 'Not_A_Secret' }] })), /spec\.tls\[0\]\.secretName: Invalid value: "Not_A_Secret": a lowercase RFC 1123 subdomain/);
    assert.match(
      await refused(ingress('bad', { defaultBackend: backend(), ingressClassName: 'plain' }, { 'kubernetes.io/ingress.class': 'other' })),
      /annotations\.kubernetes\.io\/ingress\.class: Invalid value: "other": must match `ingressClassName` when both are specified/,
    );
    // A wildcard host and ImplementationSpecific without a path are fine.
    await ok(['create', '-f', '-'], ingress('wildcard', { rules: [rule('*.example.com', { pathType: 'ImplementationSpecific', backend: { resource: { apiGroup: 'k8s.example.com', kind: 'StorageBucket', name: 'static' } } })] }));
    const answer = await server.api(ingresses, { method: 'POST', headers: json, body: ingress('status-code', {}) });
    assert.equal(answer.status, 422);
    assert.equal(((await answer.json()) as { reason: string }).reason, 'Invalid');
  });

  test('ValidateIngressClass: controller required, a domain-prefixed path and immutable; parameters\' scope and namespace', async () => {
    const fails = async (spec: Record<string, unknown>, message: RegExp) => assert.match(await refused(ingressClass('bad', spec)), message);
    await fails({}, /The IngressClass "bad" is invalid: spec\.controller: Required value/);
    await fails({ controller: 'nginx' }, /spec\.controller: Invalid value: "nginx": must be a domain-prefixed path \(such as "acme\.io\/foo"\)/);
    await fails({ controller: `example.com/${'x'.repeat(250)}` }, /spec\.controller: Too long: may not be more than 250 bytes/);
    await fails({ controller: 'example.com/c', parameters: { kind: 'P', name: 'p', scope: 'Galaxy' } }, /spec\.parameters\.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespace"/);
    await fails({ controller: 'example.com/c', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } }, /spec\.parameters\.namespace: Required value: `parameters\.scope` is set to 'Namespace'/);
    await fails({ controller: 'example.com/c', parameters: { kind: 'P', name: 'p', scope: 'Cluster', namespace: 'x' } }, /spec\.parameters\.namespace: Forbidden: `parameters\.scope` is set to 'Cluster'/);
    await fails({ controller: 'example.com/c', parameters: { name: 'p' } }, /spec\.parameters\.kind: Required value/);
    await ok(['create', '-f', '-'], ingressClass('fixed', { controller: 'example.com/one' }));
    const changed = await kubectl(['patch', 'ingressclass', 'fixed', '--type=merge', '-p', '{"spec":{"controller":"example.com/two"}}']);
    assert.notEqual(changed.code, 0);
    assert.match(changed.stderr, /spec\.controller: Invalid value: "example\.com\/two": field is immutable/);
  });

  test('DefaultIngressClass: an Ingress without a class gets the default one; one with a class or the legacy annotation keeps its own', async () => {
    await ok(['create', '-f', '-'], ingressClass('nginx', { controller: 'k8s.io/ingress-nginx' }, true));
    await ok(['create', '-f', '-'], ingress('defaulted', { defaultBackend: backend() }));
    assert.equal(await ok(['get', 'ing', 'defaulted', '-o', 'jsonpath={.spec.ingressClassName}']), 'nginx');
    await ok(['create', '-f', '-'], ingress('chosen', { defaultBackend: backend(), ingressClassName: 'plain' }));
    assert.equal(await ok(['get', 'ing', 'chosen', '-o', 'jsonpath={.spec.ingressClassName}']), 'plain');
    await ok(['create', '-f', '-'], ingress('legacy', { defaultBackend: backend() }, { 'kubernetes.io/ingress.class': 'traefik' }));
    assert.equal(await ok(['get', 'ing', 'legacy', '-o', 'jsonpath={.spec.ingressClassName}']), '');
  });
});

test('DefaultIngressClass with two defaults chooses the newest, as kube 1.28+ (ties by name)', () => {
  const cls = (name: string, creationTimestamp: string, isDefault = true): IngressClass => ({
    metadata: { name, creationTimestamp, ...(isDefault ? { annotations: { [DEFAULT_INGRESS_CLASS_ANNOTATION]: 'true' } } : {}) },
    spec: { controller: 'example.com/c' },
  });
  const admit = (classes: IngressClass[]) => {
    const object: KubeObject = { metadata: { name: 'i' }, spec: {} };
    ingressStrategy(() => classes).prepareForCreate?.(object);
    return (object['spec'] as { ingressClassName?: string }).ingressClassName;
  };
  assert.equal(admit([cls('aaa-old', '2026-01-01T00:00:00Z'), cls('zzz-new', '2026-06-01T00:00:00Z'), cls('not-default', '2026-12-01T00:00:00Z', false)]), 'zzz-new');
  assert.equal(admit([cls('b', '2026-01-01T00:00:00Z'), cls('a', '2026-01-01T00:00:00Z')]), 'a');
  assert.equal(admit([cls('not-default', '2026-12-01T00:00:00Z', false)]), undefined);
});

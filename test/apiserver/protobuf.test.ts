// Kubernetes protobuf request bodies: real kubectl's `create` commands send them, and Go's encoder is the
// reference, so field numbers are checked against bytes kubectl produced and against kubectl end to end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { widgetCrd } from '../helpers/widget-crd.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.ts';
import { decodeKubernetesProtobuf, protobufMediaType } from '../../src/apiserver/protobuf/decode.ts';
import { messages } from '../../src/apiserver/protobuf/schema.ts';

// Bodies captured from kubectl 1.32 (`create configmap foo --from-literal=a=b`, `create job j --image=busybox
// -- echo hi`, `create secret docker-registry reg --docker-server=r.io --docker-username=u --docker-password=p`).
const golden = {
  configmap: '6b3873000a0f0a0276311209436f6e6669674d6170121d0a130a03666f6f12001a0022002a0032003800420012060a01611201621a002200',
  job:
    '6b3873000a0f0a0862617463682f763112034a6f621282010a110a016a12001a0022002a00320038004200126332610a100a0012001a0022002a00320038004200124d122a0a016a120762757379626f781a046563686f1a0268692a0042006a007200800100880100900100a201001a054e65766572320042004a0052005800600068008201008a01009a0100c201001a082000280030003a001a002200',
  dockerSecret:
    '6b3873000a0c0a0276311206536563726574128c010a130a0372656712001a0022002a0032003800420012550a112e646f636b6572636f6e6669676a736f6e12407b226175746873223a7b22722e696f223a7b22757365726e616d65223a2275222c2270617373776f7264223a2270222c2261757468223a2264547077227d7d7d1a1e6b756265726e657465732e696f2f646f636b6572636f6e6669676a736f6e1a002200',
};

function decodeHex(hex: string, apiVersion = 'v1', kind = 'ConfigMap') {
  return decodeKubernetesProtobuf(Buffer.from(hex, 'hex'), { apiVersion, kind });
}

// A minimal encoder for fixtures kubectl cannot produce (it shares our field numbers, so it checks mapping
// semantics, not numbers; numbers are covered by the golden bytes and the kubectl tests).
function varint(value: bigint): Buffer {
  const out: number[] = [];
  let v = BigInt.asUintN(64, value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}
const num = (field: number, value: number | bigint | boolean) =>
  Buffer.concat([varint(BigInt(field << 3)), varint(typeof value === 'boolean' ? (value ? 1n : 0n) : BigInt(value))]);
const bytes = (field: number, value: Buffer | string) => {
  const data = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint(BigInt((field << 3) | 2)), varint(BigInt(data.length)), data]);
};
const msg = (field: number, ...parts: Buffer[]) => bytes(field, Buffer.concat(parts));
const entry = (field: number, key: string, value: Buffer) => msg(field, bytes(1, key), value);
const envelope = (apiVersion: string, kind: string, ...object: Buffer[]) =>
  Buffer.concat([Buffer.from('k8s\0', 'latin1'), msg(1, bytes(1, apiVersion), bytes(2, kind)), msg(2, ...object), bytes(3, ''), bytes(4, '')]);
// ObjectMeta the way gogo writes it: every non-pointer field, zero or not.
const meta = (name: string, ...extra: Buffer[]) =>
  msg(1, bytes(1, name), bytes(2, ''), bytes(3, ''), bytes(4, ''), bytes(5, ''), bytes(6, ''), num(7, 0), msg(8), ...extra);

describe('protobuf decoding', () => {
  test('the schema parses and every referenced message exists', () => {
    assert.ok(messages.get('PodSpec')?.byNumber.get(2)?.json === 'containers');
  });

  test('golden bodies from kubectl decode to what kubectl sends as JSON', () => {
    assert.deepEqual(decodeHex(golden.configmap), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'foo', creationTimestamp: null },
      data: { a: 'b' },
    });
    assert.deepEqual(decodeHex(golden.job, 'batch/v1', 'Job'), {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: { containers: [{ name: 'j', image: 'busybox', command: ['echo', 'hi'], resources: {} }], restartPolicy: 'Never' },
        },
      },
      status: {},
    });
    const docker = decodeHex(golden.dockerSecret, 'v1', 'Secret');
    assert.equal(docker['type'], 'kubernetes.io/dockerconfigjson');
    const data = docker['data'] as Record<string, string>;
    assert.deepEqual(JSON.parse(Buffer.from(data['.dockerconfigjson'] ?? '', 'base64').toString()), {
      auths: { 'r.io': { username: 'u', password: 'p', auth: 'dTpw' } },
    });
  });

  test('labels, annotations, bytes, times, quantities and int-or-strings map to their JSON forms', () => {
    const pod = envelope(
      'v1',
      'Pod',
      meta('p1', entry(11, 'app', bytes(2, 'web')), entry(12, 'note', bytes(2, '')), bytes(14, 'example.com/f'), msg(13, bytes(1, 'Job'), bytes(3, 'j'), bytes(4, 'u1'), bytes(5, 'batch/v1'), num(6, true))),
      msg(
        2,
        msg(
          2,
          bytes(1, 'c'),
          bytes(2, 'nginx'),
          msg(6, num(3, 8080), bytes(4, 'TCP'), num(2, 0)),
          msg(7, bytes(1, 'E'), bytes(2, 'v')),
          msg(8, entry(1, 'cpu', msg(2, bytes(1, '500m'))), entry(2, 'memory', msg(2, bytes(1, '64Mi')))),
          msg(11, msg(1, msg(2, bytes(1, '/healthz'), msg(2, num(1, 1), bytes(3, 'http')))), num(2, 3)),
          msg(10, msg(1, msg(3, msg(1, num(1, 0), num(2, 9000))))),
          num(16, false),
          bytes(5, ''),
        ),
        bytes(3, 'Always'),
        num(4, 0), // terminationGracePeriodSeconds is a pointer: an explicit 0 stays
        num(11, false),
        num(999, 7), // unknown field: skipped
        msg(998, bytes(1, 'x')),
        msg(7 /* nodeSelector */, bytes(1, 'disk'), bytes(2, 'ssd')),
      ),
    );
    assert.deepEqual(decodeKubernetesProtobuf(pod, { apiVersion: 'v1', kind: 'Pod' }), {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p1',
        creationTimestamp: null,
        labels: { app: 'web' },
        annotations: { note: '' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'j', uid: 'u1', controller: true }],
        finalizers: ['example.com/f'],
      },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            ports: [{ containerPort: 8080, protocol: 'TCP' }],
            env: [{ name: 'E', value: 'v' }],
            resources: { limits: { cpu: '500m' }, requests: { memory: '64Mi' } },
            livenessProbe: { tcpSocket: { port: 9000 } },
            readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 3 },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 0,
        nodeSelector: { disk: 'ssd' },
      },
    });

    const secret = envelope('v1', 'Secret', meta('s'), entry(2, 'bin', bytes(2, Buffer.from([0, 255, 1]))), bytes(3, 'Opaque'));
    assert.deepEqual(decodeKubernetesProtobuf(secret, { apiVersion: 'v1', kind: 'Secret' })['data'], { bin: 'AP8B' });

    const renew = msg(4, num(1, 1_700_000_000), num(2, 123_456_789));
    const lease = envelope('coordination.k8s.io/v1', 'Lease', meta('l'), msg(2, bytes(1, 'me'), num(2, 15), renew, num(5, 0)));
    assert.deepEqual(decodeKubernetesProtobuf(lease, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' })['spec'], {
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      renewTime: '2023-11-14T22:13:20.123456Z',
      leaseTransitions: 0,
    });

    const event = envelope(
      'v1',
      'Event',
      meta('e'),
      msg(2, bytes(1, 'Pod'), bytes(3, 'p1')),
      bytes(3, 'Started'),
      msg(6, num(1, 1_700_000_000)),
      num(8, -1),
      bytes(14, ''),
      bytes(15, ''),
    );
    assert.deepEqual(decodeKubernetesProtobuf(event, { apiVersion: 'v1', kind: 'Event' }), {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e', creationTimestamp: null },
      involvedObject: { kind: 'Pod', name: 'p1' },
      reason: 'Started',
      firstTimestamp: '2023-11-14T22:13:20Z',
      count: -1,
      reportingComponent: '',
      reportingInstance: '',
    });

    const node = envelope('v1', 'Node', meta('n1'), msg(2, num(4, true)), msg(3, entry(1, 'cpu', msg(2, bytes(1, '4'))), msg(5, bytes(1, 'InternalIP'), bytes(2, '10.0.0.1'))));
    assert.deepEqual(decodeKubernetesProtobuf(node, { apiVersion: 'v1', kind: 'Node' })['status'], {
      capacity: { cpu: '4' },
      addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
    });
  });

  test('bad bodies are rejected with a readable error', () => {
    assert.throws(() => decodeHex('7b7d'), { name: 'ProtobufDecodeError', message: /expected prefix \[107 56 115 0\]/ });
    assert.throws(() => decodeHex(golden.configmap.slice(0, -20)), { name: 'ProtobufDecodeError' });
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', 'Widget'), { apiVersion: 'v1', kind: 'ConfigMap' }), { name: 'ProtobufUnknownKindError' });
    // data (field 2) sent as a varint instead of a map entry
    assert.throws(() => decodeKubernetesProtobuf(envelope('v1', 'ConfigMap', num(2, 1)), { apiVersion: 'v1', kind: 'ConfigMap' }), /unexpected wire type/);
  });
});

test('random bodies only ever fail with the decoder errors', () => {
  const kinds = ['ConfigMap', 'Secret', 'Pod', 'Node', 'Event', 'Namespace', 'ServiceAccount', 'DeleteOptions'];
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...kinds), (raw, kind) => {
      // Half wrapped in a valid envelope, so the typed decoders see the noise too.
      for (const body of [Buffer.concat([Buffer.from('k8s\0', 'latin1'), raw]), envelope('v1', kind, Buffer.from(raw))]) {
        try {
          decodeKubernetesProtobuf(body, { apiVersion: 'v1', kind });
        } catch (error) {
          assert.ok(['ProtobufDecodeError', 'ProtobufUnknownKindError'].includes((error as Error).name), String(error));
        }
      }
    }),
    { numRuns: 2000 },
  );
});

describe('kubectl create sends protobuf', () => {
  let server: TestServer;
  let kubectl: Kubectl;

  before(async () => {
    server = await startTestServer({
      crds: [widgetCrd()],
    });
    kubectl = kubectlFor(server.kubeconfigFile);
  });
  after(async () => {
    await server.close();
  });

  /** Runs a kubectl command and asserts it succeeded with a protobuf request body. */
  async function create(args: string[]): Promise<void> {
    const mark = server.mark();
    const result = await kubectl(args);
    assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
    const posts = server.since(mark).filter((r) => r.method === 'POST');
    assert.ok(posts.length > 0 && posts.every((r) => r.contentType === protobufMediaType && r.status === 201), JSON.stringify(posts));
  }

  /** The stored object without what the server fills in. */
  async function stored(path: string): Promise<Record<string, any>> {
    const object = await server.json(path);
    const { uid, creationTimestamp, resourceVersion, managedFields, ...metadata } = object['metadata'] as Record<string, unknown>;
    assert.ok(uid && creationTimestamp && resourceVersion);
    void managedFields;
    return { ...object, metadata };
  }

  /** The same command through kubectl's JSON output, POSTed as JSON: the protobuf path must store the same object. */
  async function viaJson(args: string[], collection: string, path: string): Promise<Record<string, any>> {
    const split = args.includes('--') ? args.indexOf('--') : args.length;
    const result = await kubectl([...args.slice(0, split), '--dry-run=client', '-o', 'json', ...args.slice(split)]);
    assert.equal(result.code, 0, result.stderr);
    await server.json(collection, { method: 'POST', headers: { 'content-type': 'application/json' }, body: result.stdout, expect: 201 });
    return stored(path);
  }

  test('create configmap (with --save-config: an annotation)', async () => {
    await create(['create', 'configmap', 'foo', '--from-literal=a=b', '--from-literal=empty=', '--save-config']);
    const cm = await stored('/api/v1/namespaces/default/configmaps/foo');
    assert.deepEqual(cm['data'], { a: 'b', empty: '' });
    assert.deepEqual(JSON.parse(cm['metadata']['annotations']['kubectl.kubernetes.io/last-applied-configuration']), {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'foo', creationTimestamp: null },
      data: { a: 'b', empty: '' },
    });
    const json = await viaJson(['create', 'configmap', 'foo-json', '--from-literal=a=b', '--from-literal=empty='], '/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/configmaps/foo-json');
    const { annotations: _annotations, ...cmMeta } = cm['metadata'];
    assert.deepEqual({ ...cm, metadata: { ...cmMeta, name: 'foo-json' } }, json);
  });

  test('create secret generic and docker-registry', async () => {
    await create(['create', 'secret', 'generic', 's1', '--from-literal=pw=hunter2', '--from-literal=user=admin']);
    const secret = await stored('/api/v1/namespaces/default/secrets/s1');
    assert.deepEqual(secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's1', namespace: 'default' },
      data: { pw: Buffer.from('hunter2').toString('base64'), user: Buffer.from('admin').toString('base64') },
      type: 'Opaque',
    });
    await create(['create', 'secret', 'docker-registry', 'reg', '--docker-server=r.io', '--docker-username=u', '--docker-password=p']);
    const reg = await stored('/api/v1/namespaces/default/secrets/reg');
    assert.equal(reg['type'], 'kubernetes.io/dockerconfigjson');
    assert.deepEqual(Object.keys(reg['data']), ['.dockerconfigjson']);
  });

  test('create namespace and serviceaccount', async () => {
    await create(['create', 'namespace', 'ns1']);
    const ns = await stored('/api/v1/namespaces/ns1');
    assert.deepEqual(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1', labels: { 'kubernetes.io/metadata.name': 'ns1' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    await create(['create', 'serviceaccount', 'sa1', '-n', 'ns1']);
    assert.deepEqual(await stored('/api/v1/namespaces/ns1/serviceaccounts/sa1'), {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa1', namespace: 'ns1' },
    });
    const out = await kubectl(['get', 'serviceaccount', 'sa1', '-n', 'ns1', '-o', 'jsonpath={.metadata.name}']);
    assert.equal(out.stdout, 'sa1');
  });

  test('create job with an image and a command: the pod template is exact', async () => {
    await create(['create', 'job', 'j', '--image=busybox', '--', 'echo', 'hi']);
    const job = await stored('/apis/batch/v1/namespaces/default/jobs/j');
    // The server adds the job strategy's generated selector labels, as kube-apiserver does.
    const generatedLabels = async (name: string): Promise<Record<string, string>> => {
      const uid = (await server.json(`/apis/batch/v1/namespaces/default/jobs/${name}`))['metadata']['uid'] as string;
      return { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name };
    };
    const labels = await generatedLabels('j');
    assert.deepEqual(job['spec']['template'], {
      metadata: { creationTimestamp: null, labels },
      // The pod spec defaults (SetDefaults_PodSpec) apply to templates too.
      spec: { containers: [{ name: 'j', image: 'busybox', command: ['echo', 'hi'], resources: {}, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }], restartPolicy: 'Never', dnsPolicy: 'ClusterFirst', enableServiceLinks: true, schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 },
    });
    const json = await viaJson(['create', 'job', 'j-json', '--image=busybox', '--', 'echo', 'hi'], '/apis/batch/v1/namespaces/default/jobs', '/apis/batch/v1/namespaces/default/jobs/j-json');
    assert.deepEqual(json['spec']['template']['metadata']['labels'], await generatedLabels('j-json'));
    const containers = json['spec']['template']['spec']['containers'] as Record<string, unknown>[];
    const selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': labels['controller-uid'] } };
    assert.deepEqual(
      { ...job['spec'], template: { ...job['spec']['template'] } },
      { ...json['spec'], selector, template: { ...json['spec']['template'], metadata: { ...json['spec']['template']['metadata'], labels }, spec: { ...json['spec']['template']['spec'], containers: containers.map((c) => ({ ...c, name: 'j' })) } } },
    );
  });

  test('create deployment: apps/v1 decodes from protobuf as from JSON, with the server defaults', async () => {
    await create(['create', 'deployment', 'web', '--image=nginx', '--replicas=2']);
    const deployment = await stored('/apis/apps/v1/namespaces/default/deployments/web');
    assert.deepEqual(deployment['spec'], {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {}, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', enableServiceLinks: true, schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    const json = await viaJson(['create', 'deployment', 'web-json', '--image=nginx', '--replicas=2'], '/apis/apps/v1/namespaces/default/deployments', '/apis/apps/v1/namespaces/default/deployments/web-json');
    const rename = (spec: Record<string, any>) => JSON.parse(JSON.stringify(spec).replaceAll('web-json', 'web')) as Record<string, unknown>;
    assert.deepEqual(rename(json['spec']), deployment['spec']);
  });

  test('--dry-run=server goes through the same decoder and stores nothing', async () => {
    await create(['create', 'configmap', 'dry', '--from-literal=x=y', '--dry-run=server']);
    const res = await server.api('/api/v1/namespaces/default/configmaps/dry');
    assert.equal(res.status, 404);
  });

  test('custom resources refuse protobuf with the real message; bad bodies get 400', async () => {
    const cr = await server.api('/apis/example.com/v1/namespaces/default/widgets', {
      method: 'POST',
      headers: { 'content-type': protobufMediaType },
      body: envelope('example.com/v1', 'Widget', meta('w')),
    });
    assert.equal(cr.status, 415);
    const status = (await cr.json()) as Record<string, unknown>;
    assert.equal(status['reason'], 'UnsupportedMediaType');
    assert.equal(status['message'], 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');

    const bad = await server.api('/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'content-type': protobufMediaType }, body: Buffer.from('k8s\0\x0a\xff', 'latin1') });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { message: string }).message, /could not be decoded as protobuf/);

    // A Secret body POSTed to configmaps decodes, then fails the kind check like JSON would.
    const wrongKind = await server.api('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      headers: { 'content-type': protobufMediaType },
      body: envelope('v1', 'Secret', meta('x')),
    });
    assert.equal(wrongKind.status, 400);
    assert.equal((await server.api('/healthz')).status, 200);
  });

  test('a protobuf DeleteOptions body is honoured', async () => {
    await create(['create', 'configmap', 'gone', '--from-literal=a=b']);
    const body = envelope('v1', 'DeleteOptions', bytes(4, 'Background'), bytes(5, 'All'));
    // An explicit length: the helper would send a DELETE body chunked, which Node's parser refuses.
    const del = await server.api('/api/v1/namespaces/default/configmaps/gone', {
      method: 'DELETE',
      headers: { 'content-type': protobufMediaType, 'content-length': String(body.length) },
      body,
    });
    const text = await del.text();
    assert.equal(del.status, 200, text);
    // dryRun=All in the body: still there.
    assert.equal((await server.api('/api/v1/namespaces/default/configmaps/gone')).status, 200);
  });

  // kubectl 1.32 sends the review kinds as protobuf; the bearer token may do everything, and the answers say so.
  test('kubectl auth whoami and can-i: protobuf reviews, answered for the admin token', async () => {
    const run = async (args: string[]) => {
      const mark = server.mark();
      const result = await kubectl(args);
      assert.equal(result.code, 0, `kubectl ${args.join(' ')}: ${result.stderr}`);
      const posts = server.since(mark).filter((r) => r.method === 'POST');
      assert.ok(posts.length > 0 && posts.every((r) => r.contentType === protobufMediaType && r.status === 201), JSON.stringify(posts));
      return result.stdout;
    };
    assert.match(await run(['auth', 'whoami']), /^ATTRIBUTE\s+VALUE\nUsername\s+bosun-admin\nGroups\s+\[system:masters system:authenticated\]\n$/);
    assert.equal(await run(['auth', 'can-i', 'delete', 'secrets', '-n', 'kube-system']), 'yes\n');
    assert.equal(await run(['auth', 'can-i', 'get', '/healthz']), 'yes\n');
    assert.match(await run(['auth', 'can-i', '--list', '-n', 'default']), /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n\*\.\*\s+\[\]\s+\[\]\s+\[\*\]\n\s+\[\*\]\s+\[\]\s+\[\*\]\n$/);
  });

  test('a protobuf SelfSubjectAccessReview is answered with its spec and allowed', async () => {
    const resourceAttributes = msg(1, bytes(1, 'default'), bytes(2, 'list'), bytes(5, 'pods'), msg(8, bytes(1, 'spec.nodeName=n1')));
    const body = envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', msg(1), msg(2, resourceAttributes));
    const res = await server.api('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { method: 'POST', headers: { 'content-type': protobufMediaType }, body });
    const review = (await res.json()) as Record<string, any>;
    assert.equal(res.status, 201, JSON.stringify(review));
    assert.equal(review['kind'], 'SelfSubjectAccessReview');
    assert.deepEqual(review['spec'], { resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods', fieldSelector: { rawSelector: 'spec.nodeName=n1' } } });
    assert.equal(review['status']['allowed'], true);
    // system:masters is allowed by kube's privileged-groups authorizer, which gives no reason.
    assert.equal(review['status']['reason'], undefined);
    const rules = envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', msg(1), msg(2, bytes(1, 'default')));
    const rulesRes = await server.api('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { method: 'POST', headers: { 'content-type': protobufMediaType }, body: rules });
    const rulesReview = (await rulesRes.json()) as Record<string, any>;
    assert.equal(rulesRes.status, 201, JSON.stringify(rulesReview));
    assert.deepEqual(rulesReview['spec'], { namespace: 'default' });
    assert.deepEqual(rulesReview['status']['resourceRules'], [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]);
  });
});

// A container's environment from literals, the downward API, ConfigMaps and Secrets held by a real API server.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { resolveEnv, type ContainerEnvSpec } from '../../src/node/agent/container-env.ts';
import { SandboxSpecError } from '../../src/node/sandbox/errors.ts';
import { CONFIGMAPS, NAMESPACE, SECRETS, configMap, openPodFixture, secret, type PodFixture } from './agent-pod-fixture.ts';

let fixture: PodFixture;
before(async () => {
  fixture = await openPodFixture();
  await fixture.create(CONFIGMAPS, configMap('settings', { LEVEL: 'debug', 'bad name': 'x', '1ST': 'y', port: '8080' }));
  await fixture.create(SECRETS, secret('creds', { password: 'hunter2-secret-value', '9lives': 'z' }));
});
after(() => fixture.close());

function webPod() {
  return fixture.context({ labels: { app: 'web' }, annotations: { owner: 'team-a' }, spec: { serviceAccountName: 'builder' } });
}

/**
 * Without the variables of the API server's own Service, which every container gets (tested below): the tables
 * list what the container declares.
 */
async function declaredEnv(container: ContainerEnvSpec, context: Parameters<typeof resolveEnv>[1]) {
  const result = await resolveEnv(container, context);
  return { ...result, env: result.env.filter((v) => !v.name.startsWith('KUBERNETES_')) };
}

async function env(container: Omit<ContainerEnvSpec, 'name'>, context = webPod()) {
  return declaredEnv({ name: 'app', ...container }, context);
}

function configError(pattern: RegExp) {
  return (error: unknown) => error instanceof SandboxSpecError && error.reason === 'CreateContainerConfigError' && pattern.test(error.message);
}

test('env resolves literals, fieldRefs, and references to earlier variables', async () => {
  const context = webPod();
  const { env: resolved } = await declaredEnv(
    {
      name: 'app',
      env: [
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
        { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'ADDR', value: '$(POD).$(NS)@$(IP)' },
      ],
    },
    context,
  );
  const name = context.pod.metadata.name;
  assert.deepEqual(resolved, [
    { name: 'POD', value: name },
    { name: 'NS', value: 'default' },
    { name: 'NODE', value: 'node-1' },
    { name: 'IP', value: '10.0.0.7' },
    { name: 'ADDR', value: `${name}.default@10.0.0.7` },
  ]);
  await assert.rejects(env({ env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } }] }), SandboxSpecError);
});

test('fieldRef reads uid, single labels and annotations, the service account and every address', async () => {
  const context = webPod();
  const { env: resolved } = await env(
    {
      env: [
        { name: 'UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
        { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'OWNER', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['owner']" } } },
        { name: 'NONE', valueFrom: { fieldRef: { fieldPath: "metadata.labels['none']" } } },
        { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
        { name: 'PODIPS', valueFrom: { fieldRef: { fieldPath: 'status.podIPs' } } },
        { name: 'HOSTIP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
        { name: 'HOSTIPS', valueFrom: { fieldRef: { fieldPath: 'status.hostIPs' } } },
      ],
    },
    context,
  );
  assert.deepEqual(Object.fromEntries(resolved.map((v) => [v.name, v.value])), {
    UID: context.pod.metadata.uid,
    APP: 'web',
    OWNER: 'team-a',
    NONE: '',
    SA: 'builder',
    PODIPS: '10.0.0.7,fd00::7',
    HOSTIP: '192.168.1.2',
    HOSTIPS: '192.168.1.2',
  });
  await assert.rejects(env({ env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] }), configError(/unsupported fieldPath: status.phase/));
});

test('resourceFieldRef divides by the divisor and rounds up; unset limits read the node allocatable', async () => {
  const context = fixture.context({ spec: { containers: [{ name: 'app', resources: { limits: { cpu: '1500m', memory: '256Mi' }, requests: { cpu: '250m' } } }] } });
  const container = context.pod.spec.containers[0]!;
  const ref = (resource: string, divisor?: string) => ({ valueFrom: { resourceFieldRef: { resource, ...(divisor ? { divisor } : {}) } } });
  const { env: resolved } = await declaredEnv(
    {
      ...container,
      env: [
        { name: 'CPU', ...ref('limits.cpu') },
        { name: 'CPU_M', ...ref('limits.cpu', '1m') },
        { name: 'MEM_MI', ...ref('limits.memory', '1Mi') },
        { name: 'MEM', ...ref('limits.memory') },
        { name: 'REQ_CPU', ...ref('requests.cpu') },
        { name: 'REQ_MEM', ...ref('requests.memory') },
      ],
    },
    context,
  );
  assert.deepEqual(Object.fromEntries(resolved.map((v) => [v.name, v.value])), {
    CPU: '2',
    CPU_M: '1500',
    MEM_MI: '256',
    MEM: String(256 * 2 ** 20),
    REQ_CPU: '1',
    REQ_MEM: '0',
  });
  const unlimited = await env({ env: [{ name: 'CPU', ...ref('limits.cpu') }, { name: 'MEM', ...ref('limits.memory', '1Gi') }] });
  assert.deepEqual(unlimited.env, [
    { name: 'CPU', value: '2' },
    { name: 'MEM', value: '4' },
  ]);
  await assert.rejects(env({ env: [{ name: 'X', ...ref('limits.gpu') }] }), configError(/unsupported container resource : limits.gpu/));
  await assert.rejects(env({ env: [{ name: 'X', ...ref('limits.cpu', '0') }] }), configError(/divisor must be greater than 0/));
});

test('configMapKeyRef and secretKeyRef read keys, decode secrets, and honour optional', async () => {
  const { env: resolved } = await env({
    env: [
      { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'settings', key: 'LEVEL' } } },
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
      { name: 'GONE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'missing', optional: true } } },
      { name: 'GONE2', valueFrom: { secretKeyRef: { name: 'nope', key: 'k', optional: true } } },
      { name: 'AFTER', value: '$(LEVEL)-$(GONE)' },
    ],
  });
  assert.deepEqual(resolved, [
    { name: 'LEVEL', value: 'debug' },
    { name: 'PASSWORD', value: 'hunter2-secret-value' },
    { name: 'AFTER', value: 'debug-$(GONE)' },
  ]);
});

test('missing objects and keys fail in kubelet words, never quoting a secret value', async () => {
  const cases: [ContainerEnvSpec['env'], RegExp][] = [
    [[{ name: 'X', valueFrom: { configMapKeyRef: { name: 'absent', key: 'k' } } }], /^configmap "absent" not found$/],
    [[{ name: 'X', valueFrom: { secretKeyRef: { name: 'absent', key: 'k' } } }], /^secret "absent" not found$/],
    [[{ name: 'X', valueFrom: { configMapKeyRef: { name: 'settings', key: 'nokey' } } }], /^couldn't find key nokey in ConfigMap default\/settings$/],
    [[{ name: 'X', valueFrom: { secretKeyRef: { name: 'creds', key: 'nokey' } } }], /^couldn't find key nokey in Secret default\/creds$/],
    [[{ name: 'X', valueFrom: {} }], /valueFrom names no source/],
  ];
  for (const [vars, pattern] of cases) {
    await assert.rejects(env({ env: vars ?? [] }), (error: unknown) => configError(pattern)(error) && !String((error as Error).message).includes('hunter2'));
  }
  await assert.rejects(env({ envFrom: [{ configMapRef: { name: 'absent' } }] }), configError(/^configmap "absent" not found$/));
  await assert.rejects(env({ envFrom: [{ secretRef: { name: 'absent' } }] }), configError(/^secret "absent" not found$/));
});

test('envFrom adds every key with its prefix, skips invalid names with a warning, and env overrides it', async () => {
  const result = await env({
    envFrom: [{ configMapRef: { name: 'settings' } }, { prefix: 'DB_', secretRef: { name: 'creds' } }, { configMapRef: { name: 'absent', optional: true } }],
    env: [{ name: 'LEVEL', value: 'info' }, { name: 'URL', value: 'http://x:$(port)' }],
  });
  assert.deepEqual(result.env, [
    { name: 'LEVEL', value: 'info' },
    { name: 'port', value: '8080' },
    { name: 'DB_9lives', value: 'z' },
    { name: 'DB_password', value: 'hunter2-secret-value' },
    { name: 'URL', value: 'http://x:8080' },
  ]);
  assert.deepEqual(result.warnings, [
    'Keys [1ST, bad name] from the EnvFrom configMap default/settings were skipped since they are considered invalid environment variable names.',
  ]);
  const unprefixed = await env({ envFrom: [{ secretRef: { name: 'creds' } }] });
  assert.deepEqual(unprefixed.warnings, ['Keys [9lives] from the EnvFrom secret default/creds were skipped since they are considered invalid environment variable names.']);
  assert.ok(!unprefixed.warnings.join('').includes('hunter2'));
});

test('a pod start reads each object once, however many variables name it', async () => {
  const context = webPod();
  const mark = fixture.server.mark();
  await env(
    {
      envFrom: [{ configMapRef: { name: 'settings' } }],
      env: [
        { name: 'A', valueFrom: { configMapKeyRef: { name: 'settings', key: 'LEVEL' } } },
        { name: 'B', valueFrom: { configMapKeyRef: { name: 'settings', key: 'port' } } },
        { name: 'C', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
        { name: 'D', valueFrom: { secretKeyRef: { name: 'absent', key: 'k', optional: true } } },
        { name: 'E', valueFrom: { secretKeyRef: { name: 'absent', key: 'k', optional: true } } },
      ],
    },
    context,
  );
  const gets = fixture.server.since(mark).map((entry) => `${entry.method} ${entry.url.split('?')[0]} ${entry.status}`);
  assert.deepEqual(gets.sort(), [
    'GET /api/v1/namespaces/default/configmaps/settings 200',
    'GET /api/v1/namespaces/default/secrets/absent 404',
    'GET /api/v1/namespaces/default/secrets/creds 200',
    'GET /api/v1/namespaces/default/services 200',
  ]);
});

test('Services of the namespace add their variables after the declared ones; references may name them; links can be off', async () => {
  await fixture.create(`/api/v1/namespaces/${NAMESPACE}/services`, {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'cache' },
    spec: { clusterIP: '10.96.33.3', selector: { app: 'cache' }, ports: [{ port: 6379 }] },
  });
  const container = { env: [{ name: 'CACHE_URL', value: 'redis://$(CACHE_SERVICE_HOST):$(CACHE_SERVICE_PORT)' }, { name: 'CACHE_PORT', value: 'mine' }] };
  const { env: resolved } = await env(container);
  const names = resolved.map((v) => v.name);
  assert.deepEqual(names.slice(0, 2), ['CACHE_URL', 'CACHE_PORT']);
  assert.equal(resolved[0]?.value, 'redis://10.96.33.3:6379');
  assert.equal(resolved[1]?.value, 'mine', 'a declared variable wins over the Service one');
  assert.ok(names.includes('CACHE_PORT_6379_TCP_ADDR'));
  const unlinked = await resolveEnv({ name: 'app', ...container }, fixture.context({ spec: { enableServiceLinks: false } }));
  assert.ok(!unlinked.env.some((v) => v.name.startsWith('CACHE_SERVICE')));
  assert.ok(unlinked.env.some((v) => v.name === 'KUBERNETES_SERVICE_HOST'), 'the API server\'s Service reaches every pod');
});

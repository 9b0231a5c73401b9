// The chaos namespace is trusted: made with the privileged Pod Security label, labelled when it exists without
// one, left alone when an administrator chose another; chaos pods (privileged, hostPID, host paths) are then
// admitted there and refused elsewhere.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import { namespacesResource, podsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { chaosNamespaceRunnable } from '../../src/chaos/chaos-namespace.ts';
import type { KubeClient } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { ForbiddenError } from '../../src/client/errors.ts';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const logger = pino({ level: 'silent' });
let server: TestServer;
let client: KubeClient;

before(async () => {
  server = await startTestServer();
  client = createKubeClient({ kubeconfig: server.kubeconfig });
});
after(async () => {
  await client.close();
  await server.close();
});

const labels = async (name: string) => (await client.get<KubeObject>(namespacesResource, name)).metadata.labels ?? {};
const chaosPod = (namespace: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'injector', namespace },
  spec: {
    hostPID: true,
    containers: [{ name: 'injector', image: 'datadog/chaos-injector', securityContext: { privileged: true }, volumeMounts: [{ name: 'host', mountPath: '/mnt/host' }] }],
    volumes: [{ name: 'host', hostPath: { path: '/', type: 'Directory' } }],
  },
});

test('a missing chaos namespace is created trusted, and chaos pods are admitted there but not elsewhere', async () => {
  await chaosNamespaceRunnable(client, 'chaos-new', logger).start();
  assert.deepEqual(await labels('chaos-new'), { 'app.kubernetes.io/part-of': 'chaos-controller', [ENFORCE]: 'privileged', 'kubernetes.io/metadata.name': 'chaos-new' });
  await client.create(podsResource, chaosPod('chaos-new'), { namespace: 'chaos-new' });
  await assert.rejects(client.create(podsResource, chaosPod('default'), { namespace: 'default' }), (error: unknown) => {
    assert.ok(error instanceof ForbiddenError);
    assert.match(error.message, /^pods "injector" is forbidden: violates PodSecurity "baseline:latest": host namespaces \(hostPID=true\), hostPath volumes \(volume "host"\), privileged \(container "injector" must not set securityContext.privileged=true\)$/);
    return true;
  });
});

test('an existing chaos namespace without an enforce label gets the privileged one; another level is kept', async () => {
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chaos-old', labels: { team: 'sre' } } });
  await chaosNamespaceRunnable(client, 'chaos-old', logger).start();
  assert.equal((await labels('chaos-old'))[ENFORCE], 'privileged');
  assert.equal((await labels('chaos-old'))['team'], 'sre');
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chaos-chosen', labels: { [ENFORCE]: 'baseline' } } });
  await chaosNamespaceRunnable(client, 'chaos-chosen', logger).start();
  assert.equal((await labels('chaos-chosen'))[ENFORCE], 'baseline');
});

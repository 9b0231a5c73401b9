// The KubeClient over HTTP against the embedded API server: CRUD, patches, status, watch, typed errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { KubeObject, WatchEvent } from '../../src/apimachinery/object.ts';
import { pooledAgentCount } from '../../src/client/agent-pool.ts';
import { isStatus } from '../../src/client/client.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import {
  AlreadyExistsError,
  ConflictError,
  GoneError,
  InvalidError,
  KubeApiError,
  NetworkError,
  NotFoundError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/client/errors.ts';
import { configMap, configMaps, createNamespace, pods, startTestServer, uniqueName, type TestServer } from './api-server.ts';

let t: TestServer;
let ns: string;

before(async () => {
  t = await startTestServer();
  ns = uniqueName('client');
  await createNamespace(t.client, ns);
});

after(async () => {
  await t.stop();
});

describe('CRUD', () => {
  test('create, get, list with selectors, update, delete', async () => {
    const { client } = t;
    const name = uniqueName('cm');
    const created = await client.create(configMaps, configMap(name, ns, { a: '1' }, { app: 'web' }));
    assert.equal(created.metadata.name, name);
    assert.ok(created.metadata.uid);
    assert.ok(created.metadata.resourceVersion);

    const got = await client.get(configMaps, name, { namespace: ns });
    assert.deepEqual(got.data, { a: '1' });

    await client.create(configMaps, configMap(uniqueName('cm'), ns, {}, { app: 'db' }));
    const web = await client.list(configMaps, { namespace: ns, labelSelector: 'app=web' });
    assert.deepEqual(web.items.map((i) => i.metadata.name), [name]);
    assert.ok(web.metadata.resourceVersion);
    const byField = await client.list(configMaps, { namespace: ns, fieldSelector: `metadata.name=${name}` });
    assert.equal(byField.items.length, 1);

    const updated = await client.update(configMaps, { ...got, data: { a: '2' } });
    assert.deepEqual(updated.data, { a: '2' });
    assert.notEqual(updated.metadata.resourceVersion, got.metadata.resourceVersion);

    const deleted = await client.delete(configMaps, name, { namespace: ns, propagationPolicy: 'Background' });
    assert.ok(isStatus(deleted) || deleted.metadata.name === name);
    await assert.rejects(client.get(configMaps, name, { namespace: ns }), NotFoundError);
  });

  test('resolves apiVersion+kind through discovery', async () => {
    const ref = await t.client.resolve({ apiVersion: 'v1', kind: 'ConfigMap' });
    assert.deepEqual(ref, configMaps);
    const lease = await t.client.resolve({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' });
    assert.equal(lease.resource, 'leases');
    assert.equal(lease.namespaced, true);
    const name = uniqueName('cm');
    await t.client.create({ apiVersion: 'v1', kind: 'ConfigMap' }, configMap(name, ns));
    assert.equal((await t.client.get({ apiVersion: 'v1', kind: 'ConfigMap' }, name, { namespace: ns })).metadata.name, name);
    await assert.rejects(t.client.resolve({ apiVersion: 'v1', kind: 'NoSuchKind' }), NotFoundError);
    await assert.rejects(t.client.resolve({ apiVersion: 'nosuch.example.com/v1', kind: 'Thing' }), NotFoundError);
  });

  test('list pages with limit and continue', async () => {
    const pageNs = uniqueName('pages');
    await createNamespace(t.client, pageNs);
    for (let i = 0; i < 7; i++) await t.client.create(configMaps, configMap(`cm-${i}`, pageNs));
    const seen: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await t.client.list(configMaps, { namespace: pageNs, limit: 3, ...(cont ? { continue: cont } : {}) });
      assert.ok(page.items.length <= 3);
      seen.push(...page.items.map((i) => i.metadata.name!));
      cont = page.metadata.continue || undefined;
      pages++;
    } while (cont);
    assert.equal(pages, 3);
    // Every namespace also holds the server's kube-root-ca.crt.
    assert.deepEqual(seen.filter((n) => n !== 'kube-root-ca.crt').sort(), [0, 1, 2, 3, 4, 5, 6].map((i) => `cm-${i}`));
  });

  test('deleteCollection by label', async () => {
    const dcNs = uniqueName('dc');
    await createNamespace(t.client, dcNs);
    for (let i = 0; i < 3; i++) await t.client.create(configMaps, configMap(`gone-${i}`, dcNs, {}, { sweep: 'yes' }));
    await t.client.create(configMaps, configMap('kept', dcNs, {}, { sweep: 'no' }));
    await t.client.deleteCollection(configMaps, { namespace: dcNs, labelSelector: 'sweep=yes' });
    const left = await t.client.list(configMaps, { namespace: dcNs });
    assert.deepEqual(left.items.map((i) => i.metadata.name).filter((n) => n !== 'kube-root-ca.crt'), ['kept']);
  });

  test('delete with a stale uid precondition is a Conflict', async () => {
    const name = uniqueName('cm');
    await t.client.create(configMaps, configMap(name, ns));
    await assert.rejects(t.client.delete(configMaps, name, { namespace: ns, preconditions: { uid: 'not-the-uid' } }), ConflictError);
    await t.client.delete(configMaps, name, { namespace: ns });
  });
});

describe('patch', () => {
  test('merge, json (with test guard) and server-side apply', async () => {
    const { client } = t;
    const name = uniqueName('cm');
    await client.create(configMaps, configMap(name, ns, { a: '1', b: '2' }));

    const merged = await client.patch(configMaps, name, { data: { b: null, c: '3' } }, { type: 'merge', namespace: ns });
    assert.deepEqual(merged.data, { a: '1', c: '3' });

    const jsonPatched = await client.patch(configMaps, name, [{ op: 'test', path: '/data/a', value: '1' }, { op: 'replace', path: '/data/a', value: 'one' }], { type: 'json', namespace: ns });
    assert.deepEqual(jsonPatched.data, { a: 'one', c: '3' });
    // A failing `test` op must fail the patch and change nothing.
    await assert.rejects(
      client.patch(configMaps, name, [{ op: 'test', path: '/data/a', value: 'stale' }, { op: 'remove', path: '/data/a' }], { type: 'json', namespace: ns }),
      KubeApiError,
    );
    assert.equal((await client.get(configMaps, name, { namespace: ns })).data !== undefined, true);

    const applied = await client.patch(configMaps, name, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data: { d: '4' } }, { type: 'apply', namespace: ns, fieldManager: 'bosun-test', force: true });
    assert.equal((applied.data as Record<string, string>).d, '4');
  });

  test('strategic merge on a built-in kind', async () => {
    const name = uniqueName('cm');
    await t.client.create(configMaps, configMap(name, ns, { a: '1' }));
    const patched = await t.client.patch(configMaps, name, { data: { b: '2' } }, { type: 'strategic', namespace: ns });
    assert.deepEqual(patched.data, { a: '1', b: '2' });
  });
});

describe('status subresource', () => {
  test('updateStatus and patchStatus write only status', async () => {
    const { client } = t;
    const name = uniqueName('pod');
    const pod = await client.create(pods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    });
    const withStatus = await client.updateStatus(pods, { ...pod, spec: { containers: [{ name: 'c', image: 'changed' }] }, status: { phase: 'Running' } });
    assert.equal((withStatus.status as { phase: string }).phase, 'Running');
    assert.equal((withStatus.spec as { containers: { image: string }[] }).containers[0]!.image, 'busybox');

    const patched = await client.patchStatus(pods, name, { status: { phase: 'Succeeded' } }, { type: 'merge', namespace: ns });
    assert.equal((patched.status as { phase: string }).phase, 'Succeeded');
    await assert.rejects(client.updateStatus(pods, { ...pod, status: { phase: 'Failed' } }), ConflictError);
  });
});

describe('typed errors', () => {
  test('NotFound', async () => {
    const err = await t.client.get(configMaps, 'does-not-exist', { namespace: ns }).catch((e: unknown) => e);
    assert.ok(err instanceof NotFoundError, String(err));
    assert.equal(err.name, 'NotFoundError');
    assert.equal(err.code, 404);
    assert.equal(err.reason, 'NotFound');
    assert.equal(err.details?.name, 'does-not-exist');
  });

  test('AlreadyExists', async () => {
    const name = uniqueName('cm');
    await t.client.create(configMaps, configMap(name, ns));
    const err = await t.client.create(configMaps, configMap(name, ns)).catch((e: unknown) => e);
    assert.ok(err instanceof AlreadyExistsError, String(err));
    assert.equal(err.code, 409);
  });

  test('Conflict on a stale resourceVersion', async () => {
    const name = uniqueName('cm');
    const v1 = await t.client.create(configMaps, configMap(name, ns, { a: '1' }));
    await t.client.update(configMaps, { ...v1, data: { a: '2' } });
    const err = await t.client.update(configMaps, { ...v1, data: { a: '3' } }).catch((e: unknown) => e);
    assert.ok(err instanceof ConflictError, String(err));
    assert.equal(err.code, 409);
    assert.equal(err.reason, 'Conflict');
  });

  test('Invalid carries causes', async () => {
    const err = await t.client.create(configMaps, configMap('Not_A_Valid_Name!', ns)).catch((e: unknown) => e);
    assert.ok(err instanceof InvalidError, String(err));
    assert.equal(err.code, 422);
    assert.ok(err.causes.length > 0, 'causes');
    assert.ok(err.causes.some((c) => c.field === 'metadata.name'), JSON.stringify(err.causes));
  });

  test('Unauthorized with a wrong token', async () => {
    const bad = createKubeClient({ kubeconfig: t.server.kubeconfig.replace(t.server.token, 'wrong-token') });
    try {
      const err = await bad.get(configMaps, 'x', { namespace: ns }).catch((e: unknown) => e);
      assert.ok(err instanceof UnauthorizedError, String(err));
      assert.equal(err.code, 401);
    } finally {
      await bad.close();
    }
  });

  test('NetworkError when nothing listens', async () => {
    const probe = http.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const dead = createKubeClient({ kubeconfig: t.server.kubeconfig.replace(new URL(t.server.url).origin, `http://127.0.0.1:${port}`) });
    try {
      const err = await dead.get(configMaps, 'x', { namespace: ns }).catch((e: unknown) => e);
      assert.ok(err instanceof NetworkError, String(err));
      assert.equal(err.code, 'ECONNREFUSED');
    } finally {
      await dead.close();
    }
  });

  test('client-side deadline becomes TimeoutError', async () => {
    // A server that accepts and never answers (not an API server: only the transport is under test).
    const hang = http.createServer(() => undefined);
    await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
    const port = (hang.address() as AddressInfo).port;
    const c = createKubeClient({ kubeconfig: t.server.kubeconfig.replace(new URL(t.server.url).origin, `http://127.0.0.1:${port}`) });
    try {
      const err = await c.get(configMaps, 'x', { namespace: ns, timeoutMs: 100 }).catch((e: unknown) => e);
      assert.ok(err instanceof TimeoutError, String(err));
    } finally {
      await c.close();
      hang.closeAllConnections();
      await new Promise<void>((r) => hang.close(() => r()));
    }
  });
});

describe('watch', () => {
  test('streams ADDED/MODIFIED/DELETED from a resourceVersion, with bookmarks allowed', async () => {
    const { client } = t;
    const wNs = uniqueName('watch');
    await createNamespace(client, wNs);
    const list = await client.list(configMaps, { namespace: wNs });
    const stream = await client.watch(configMaps, { namespace: wNs, resourceVersion: list.metadata.resourceVersion!, allowWatchBookmarks: true, timeoutSeconds: 30 });
    const seen: WatchEvent[] = [];
    const consumed = (async () => {
      for await (const ev of stream) {
        if (ev.type === 'BOOKMARK') continue;
        seen.push(ev);
        if (ev.type === 'DELETED') break;
      }
    })();
    const created = await client.create(configMaps, configMap('w', wNs, { a: '1' }));
    await client.update(configMaps, { ...created, data: { a: '2' } });
    await client.delete(configMaps, 'w', { namespace: wNs });
    await consumed;
    assert.ok(stream.closed);
    assert.deepEqual(seen.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED']);
    assert.deepEqual(seen[1]!.object.data, { a: '2' });
  });

  test('timeoutSeconds ends the stream normally', async () => {
    const list = await t.client.list(configMaps, { namespace: ns });
    const stream = await t.client.watch(configMaps, { namespace: ns, resourceVersion: list.metadata.resourceVersion!, timeoutSeconds: 1 });
    const started = Date.now();
    for await (const _ of stream) {
      // Nothing changes in this namespace meanwhile; bookmarks may arrive.
    }
    assert.ok(Date.now() - started >= 900, 'ended too early');
  });

  test('close() ends the iteration without error', async () => {
    const stream = await t.client.watch(configMaps, { namespace: ns });
    const consumed = (async () => {
      const events: WatchEvent<KubeObject>[] = [];
      for await (const ev of stream) events.push(ev);
      return events;
    })();
    setTimeout(() => stream.close(), 50);
    await consumed;
    assert.ok(stream.closed);
  });

  test('a compacted resourceVersion is GoneError', async () => {
    const { client, server } = t;
    const old = await client.list(configMaps, { namespace: ns });
    await client.create(configMaps, configMap(uniqueName('cm'), ns));
    await client.create(configMaps, configMap(uniqueName('cm'), ns));
    server.compact();
    const err = await (async () => {
      const stream = await client.watch(configMaps, { namespace: ns, resourceVersion: old.metadata.resourceVersion! });
      for await (const _ of stream) {
        // The server may accept the watch and then send an ERROR event.
      }
    })().catch((e: unknown) => e);
    assert.ok(err instanceof GoneError, String(err));
    assert.equal(err.code, 410);
  });
});

describe('kubeconfig loading', () => {
  test('from a file, with an explicit context', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bosun-kc-'));
    const path = join(dir, 'config');
    writeFileSync(path, t.server.kubeconfig);
    const c = createKubeClient({ kubeconfigPath: path, context: 'bosun' });
    try {
      assert.equal(c.defaultNamespace, 'default');
      const list = await c.list(configMaps, { namespace: ns, limit: 1 });
      assert.equal(list.kind, 'ConfigMapList');
    } finally {
      await c.close();
    }
    assert.throws(() => createKubeClient({ kubeconfigPath: path, context: 'nope' }), /no context named "nope"/);
  });

  test('plain http:// clusters, with or without insecure-skip-tls-verify', async () => {
    // The transport only: a stub answering one list, recording the Authorization header it got.
    const auth: (string | undefined)[] = [];
    const stub = http.createServer((req, res) => {
      auth.push(req.headers.authorization);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: [] }));
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    try {
      for (const skip of ['\n    insecure-skip-tls-verify: true', '']) {
        const c = createKubeClient({
          kubeconfig: `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${url}${skip}\nusers:\n- name: u\n  user:\n    token: abc\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
        });
        try {
          const list = await c.list(configMaps, { namespace: 'default' });
          assert.equal(list.kind, 'ConfigMapList');
        } finally {
          await c.close();
        }
      }
      assert.deepEqual(auth, ['Bearer abc', 'Bearer abc']);
    } finally {
      stub.closeAllConnections();
      await new Promise<void>((r) => stub.close(() => r()));
    }
  });

  for (const key of ['tokenFile', 'token-file']) {
    test(`token from a token file (user.${key})`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bosun-kc-'));
      writeFileSync(join(dir, 'token'), t.server.token);
      const path = join(dir, 'config');
      writeFileSync(
        path,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters: [{name: c, cluster: {server: "' + t.server.url + '", insecure-skip-tls-verify: true}}]',
          // Relative to the kubeconfig's folder, as kubectl resolves it.
          `users: [{name: u, user: {${key}: ${key === 'tokenFile' ? 'token' : join(dir, 'token')}}}]`,
          'contexts: [{name: x, context: {cluster: c, user: u}}]',
          'current-context: x',
        ].join('\n'),
      );
      const c = createKubeClient({ kubeconfigPath: path });
      try {
        await c.list(configMaps, { namespace: ns, limit: 1 });
      } finally {
        await c.close();
      }
    });
  }

  test('exec credential plugin', async () => {
    const c = createKubeClient({
      kubeconfig: [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "' + t.server.url + '", insecure-skip-tls-verify: true}}]',
        'users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ' + JSON.stringify(process.execPath) + ', args: ["-e", ' +
          JSON.stringify(`process.stdout.write(JSON.stringify({apiVersion:'client.authentication.k8s.io/v1',kind:'ExecCredential',status:{token:${JSON.stringify(t.server.token)}}}))`) +
          '], interactiveMode: Never}}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
      ].join('\n'),
    });
    try {
      await c.list(configMaps, { namespace: ns, limit: 1 });
    } finally {
      await c.close();
    }
  });
});

describe('connection pool', () => {
  test('requests share a bounded set of keep-alive connections', async () => {
    // A counting TCP relay in front of the server shows how many connections the client opens.
    const upstream = new URL(t.server.url);
    let connections = 0;
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((downstream) => {
      connections++;
      const up = net.connect(Number(upstream.port), upstream.hostname);
      sockets.add(downstream).add(up);
      downstream.pipe(up).pipe(downstream);
      const end = (): void => {
        downstream.destroy();
        up.destroy();
      };
      downstream.on('error', end).on('close', end);
      up.on('error', end).on('close', end);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const port = (relay.address() as AddressInfo).port;
    const kubeconfig = t.server.kubeconfig.replace(upstream.origin, `${upstream.protocol}//127.0.0.1:${port}`);
    const pooledBefore = pooledAgentCount();
    // Two clients for one cluster: one pool between them.
    const c = createKubeClient({ kubeconfig, maxSockets: 4 });
    const c2 = createKubeClient({ kubeconfig, maxSockets: 4 });
    try {
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? c : c2).list(configMaps, { namespace: ns, limit: 1 })));
      assert.equal(results.length, 40);
      for (let i = 0; i < 20; i++) await c.get(configMaps, 'does-not-exist', { namespace: ns }).catch(() => undefined);
      assert.ok(connections <= 4, `opened ${connections} connections`);
      assert.equal(pooledAgentCount(), pooledBefore + 1);
      await c2.close();
      await c.list(configMaps, { namespace: ns, limit: 1 });
    } finally {
      await c.close();
      await c2.close();
      assert.equal(pooledAgentCount(), pooledBefore);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => relay.close(() => r()));
    }
  });
});

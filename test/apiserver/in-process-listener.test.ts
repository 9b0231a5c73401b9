// The API server's listener for clients in its own process (bosun up's controllers, node agent, dashboard):
// plain HTTP on loopback, so that no connection holds OpenSSL's buffers at both of its ends, and the same
// bearer token as the https port.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { parse } from 'yaml';
import { configMapsResource } from '../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';
import { createKubeClient } from '../../src/client/create-client.ts';
import { startTestServer } from '../helpers/api-server.ts';

function serverOf(kubeconfig: string): URL {
  const config = parse(kubeconfig) as { clusters: { cluster: { server: string } }[] };
  return new URL(config.clusters[0]?.cluster.server ?? '');
}

function statusOf(url: URL, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

test('the in-process kubeconfig reaches the server over plain HTTP on loopback, with the token', async (t) => {
  const server = await startTestServer();
  t.after(() => server.close());
  const url = serverOf(server.inProcessKubeconfig);
  assert.equal(url.protocol, 'http:');
  assert.equal(url.hostname, '127.0.0.1');
  assert.notEqual(url.port, String(server.port));

  const client = createKubeClient({ kubeconfig: server.inProcessKubeconfig });
  t.after(() => client.close());
  await client.create(configMapsResource, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'over-loopback' }, data: { a: '1' } }, { namespace: 'default' });
  // The same store as the https port serves.
  const seen = await server.json<KubeObject>('/api/v1/namespaces/default/configmaps/over-loopback');
  assert.deepEqual(seen['data'], { a: '1' });

  assert.equal(await statusOf(new URL('/api/v1/namespaces', url)), 401);
  assert.equal(await statusOf(new URL('/api/v1/namespaces', url), { authorization: `Bearer ${server.token}` }), 200);
});

test('the in-process listener closes with the server', async () => {
  const server = await startTestServer();
  const url = serverOf(server.inProcessKubeconfig);
  await server.close();
  await assert.rejects(statusOf(new URL('/api/v1/namespaces', url), { authorization: `Bearer ${server.token}` }), { code: 'ECONNREFUSED' });
});

// A watcher that stops reading while others write large objects: kube-apiserver's watch cache cuts such a
// watcher off (its client re-lists); the server stays up and every other watcher still gets every event.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { test } from 'node:test';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const configMaps = '/api/v1/namespaces/default/configmaps';

/** Opens a watch over raw HTTPS and resolves with its response once the headers are in. */
function openWatch(server: TestServer, query: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${configMaps}?watch=1&${query}`, { ca: server.caCert, headers: { authorization: `Bearer ${server.token}` } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

test('a watcher that never reads is cut off cleanly; the server stays up and other watchers get every event', async () => {
  // Bookmarks every few milliseconds: the bookmark timer is a write path too.
  const server = await startTestServer({ bookmarkIntervalMs: 5 });
  try {
    const value = 'x'.repeat(512 * 1024);
    await server.json(configMaps, { method: 'POST', body: JSON.stringify({ metadata: { name: 'big' }, data: { value: '' } }), expect: 201 });

    const slow = await openWatch(server, 'allowWatchBookmarks=true&resourceVersion=0');
    slow.pause();
    // 'end': the whole chunked response arrived, terminating chunk included (a cut connection is 'aborted').
    const slowEnded = new Promise<void>((resolve, reject) => {
      slow.once('end', resolve);
      slow.once('aborted', () => reject(new Error('the slow watch was cut without its terminating chunk')));
    });

    const reader = await openWatch(server, 'allowWatchBookmarks=true');
    const revisions: string[] = [];
    let buffered = '';
    reader.setEncoding('utf8');
    reader.on('data', (chunk: string) => {
      buffered += chunk;
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const event = JSON.parse(buffered.slice(0, nl)) as { type: string; object: { metadata: { resourceVersion: string } } };
        buffered = buffered.slice(nl + 1);
        if (event.type === 'MODIFIED') revisions.push(event.object.metadata.resourceVersion);
      }
    });

    // Far more than the kernel's socket buffers and the server's per-watcher bound together.
    const written: string[] = [];
    for (let i = 0; i < 160; i++) {
      const patched = await server.json<{ metadata: { resourceVersion: string } }>(`${configMaps}/big`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ data: { value: `${i}${value}` } }),
      });
      written.push(patched.metadata.resourceVersion);
    }
    await server.json(`${configMaps}/big`);
    // The reading watcher saw every write, in order.
    while (revisions.length < written.length) await new Promise((resolve) => reader.once('data', resolve));
    assert.deepEqual(revisions, written);

    // The slow watcher was ended: once it reads again, its stream ends cleanly (this watch has no timeout).
    slow.resume();
    await slowEnded;
    reader.destroy();
  } finally {
    await server.close();
  }
});

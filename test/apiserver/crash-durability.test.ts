// A child `bosun up` is killed with SIGKILL during a stream of acknowledged writes. After a restart every
// acknowledged object is there, resourceVersions keep rising, and a client-node informer resumes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { exited, freePort, startBosun } from '../helpers/bosun-process.ts';
import * as k8s from '@kubernetes/client-node';


function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

test('acknowledged writes survive kill -9; revisions keep rising; an informer resumes', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-crash-'));
  const port = await freePort();
  let child = await within(60_000, startBosun(dataDir, port), 'bosun up starting');
  const kc = new k8s.KubeConfig();
  kc.loadFromString(readFileSync(join(dataDir, 'kubeconfig'), 'utf8'));
  const core = kc.makeApiClient(k8s.CoreV1Api);

  const seen = new Set<string>();
  const path = '/api/v1/namespaces/default/configmaps';
  const informer = k8s.makeInformer(kc, path, () => core.listNamespacedConfigMap({ namespace: 'default' }));
  informer.on('add', (cm) => seen.add(cm.metadata?.name ?? ''));
  let restarted: (() => void) | undefined;
  let finished = false;
  informer.on('error', () => {
    // client-node's informer stops on errors; the documented pattern is to start it again (until we stop it).
    const retry = () => {
      if (!finished) informer.start().then(() => restarted?.(), () => setTimeout(retry, 200));
    };
    setTimeout(retry, 200);
  });
  await informer.start();

  // Four concurrent writers; every acknowledged create is recorded with its resourceVersion.
  const acknowledged = new Map<string, number>();
  let stop = false;
  let failures = 0;
  const writer = async (id: number) => {
    for (let i = 0; !stop; i++) {
      const name = `cm-${id}-${i}`;
      try {
        const cm = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name }, data: { i: String(i) } } });
        acknowledged.set(name, Number(cm.metadata?.resourceVersion));
      } catch {
        failures++;
        return;
      }
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  const enough = async () => {
    while (acknowledged.size < 300 && failures === 0) await new Promise((r) => setTimeout(r, 5));
  };
  await within(60_000, enough(), '300 acknowledged writes');
  child.kill('SIGKILL');
  await exited(child);
  stop = true;
  await Promise.all(writers);
  assert.ok(failures > 0 || acknowledged.size >= 300, 'writes were in flight at the kill');
  const maxAcked = Math.max(...acknowledged.values());

  const resumed = new Promise<void>((resolve) => (restarted = resolve));
  child = await within(60_000, startBosun(dataDir, port), 'bosun up restarting');
  try {
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const names = new Set(list.items.map((cm) => cm.metadata?.name));
    for (const name of acknowledged.keys()) assert.ok(names.has(name), `acknowledged ${name} is missing after kill -9`);
    for (const cm of list.items) {
      const rv = acknowledged.get(cm.metadata?.name ?? '');
      if (rv !== undefined) assert.equal(Number(cm.metadata?.resourceVersion), rv);
    }
    const after = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'after-restart' } } });
    assert.ok(Number(after.metadata?.resourceVersion) > maxAcked, 'resourceVersions keep rising across the restart');
    await within(30_000, resumed, 'the informer restarting');
    const deadline = Date.now() + 10_000;
    while (!seen.has('after-restart') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(seen.has('after-restart'), 'the informer resumed and saw the write made after the restart');
    for (const name of acknowledged.keys()) assert.ok(informer.get(name, 'default'), `informer cache holds ${name}`);
  } finally {
    finished = true;
    await informer.stop();
    child.kill('SIGTERM');
    await exited(child);
  }
});

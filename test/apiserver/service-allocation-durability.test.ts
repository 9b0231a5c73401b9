// ClusterIPs and NodePorts are allocated inside the Service's create, so they are exactly as durable as the
// Service: a child `bosun up` is killed with SIGKILL while Services are being created; after a restart every
// acknowledged Service keeps its addresses, they are still taken, and new Services get other ones.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { exited, freePort, startBosun } from '../helpers/bosun-process.ts';

interface Allocation {
  ip: string;
  nodePort: number;
}

function allocationOf(svc: k8s.V1Service): Allocation {
  return { ip: svc.spec?.clusterIP ?? '', nodePort: svc.spec?.ports?.[0]?.nodePort ?? 0 };
}

function nodePortService(name: string, extra: Partial<k8s.V1ServiceSpec> = {}): k8s.V1Service {
  return { metadata: { name }, spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80 }], ...extra } };
}

async function statusOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
    return { code: 201, message: '' };
  } catch (error) {
    const body = (error as { body?: string }).body ?? '{}';
    const status = JSON.parse(body) as { code?: number; message?: string };
    return { code: status.code ?? 0, message: status.message ?? String(error) };
  }
}

test('allocations survive kill -9 and a restart, and stay taken', { timeout: 180_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'bosun-svc-crash-'));
  const port = await freePort();
  const flags = ['--no-node', '--controllers', 'none'];
  let child = await startBosun(dataDir, port, flags);
  const kc = new k8s.KubeConfig();
  kc.loadFromString(readFileSync(join(dataDir, 'kubeconfig'), 'utf8'));
  const core = kc.makeApiClient(k8s.CoreV1Api);

  const acknowledged = new Map<string, Allocation>();
  let stop = false;
  const writer = async (id: number) => {
    for (let i = 0; !stop; i++) {
      const name = `svc-${id}-${i}`;
      try {
        acknowledged.set(name, allocationOf(await core.createNamespacedService({ namespace: 'default', body: nodePortService(name) })));
      } catch {
        return;
      }
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  while (acknowledged.size < 60) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGKILL');
  await exited(child);
  stop = true;
  await Promise.all(writers);

  child = await startBosun(dataDir, port, flags);
  try {
    const list = await core.listNamespacedService({ namespace: 'default' });
    const stored = new Map(list.items.map((svc) => [svc.metadata?.name ?? '', allocationOf(svc)]));
    for (const [name, allocation] of acknowledged) assert.deepEqual(stored.get(name), allocation, `${name} after kill -9`);
    const ips = list.items.map((svc) => svc.spec?.clusterIP);
    assert.equal(new Set(ips).size, ips.length, 'no address is held twice');
    const nodePorts = list.items.flatMap((svc) => (svc.spec?.ports ?? []).map((p) => p.nodePort).filter((p) => p !== undefined));
    assert.equal(new Set(nodePorts).size, nodePorts.length, 'no node port is held twice');

    const [name, taken] = [...acknowledged][0] ?? ['', { ip: '', nodePort: 0 }];
    const sameIP = await statusOf(core.createNamespacedService({ namespace: 'default', body: nodePortService('same-ip', { clusterIP: taken.ip }) }));
    assert.equal(sameIP.code, 422, `${name}'s address is still taken`);
    assert.match(sameIP.message, /provided IP is already allocated/);
    const samePort = await statusOf(core.createNamespacedService({ namespace: 'default', body: nodePortService('same-port', { ports: [{ port: 80, nodePort: taken.nodePort }] }) }));
    assert.equal(samePort.code, 422);
    assert.match(samePort.message, new RegExp(`spec\\.ports\\[0\\]\\.nodePort: Invalid value: ${taken.nodePort}: provided port is already allocated`));

    const fresh = await Promise.all(Array.from({ length: 10 }, (_, i) => core.createNamespacedService({ namespace: 'default', body: nodePortService(`fresh-${i}`) })));
    for (const svc of fresh) {
      const allocation = allocationOf(svc);
      assert.ok(!ips.includes(allocation.ip), `${allocation.ip} was handed out again`);
      assert.ok(!nodePorts.includes(allocation.nodePort), `${allocation.nodePort} was handed out again`);
    }
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
});

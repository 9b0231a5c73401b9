// The pod network's pure parts: IPv4 arithmetic, the address pool, the state file's coalesced atomic writes,
// ip batch words and option checks. No namespaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressPool } from '../../src/node/network/address-pool.ts';
import { BatchQueue } from '../../src/node/host-commands/batch-queue.ts';
import { BridgeNetwork } from '../../src/node/network/bridge-network.ts';
import { ipBatchScript } from '../../src/node/network/host-command.ts';
import { containsCidr, formatAddress, formatCidr, parseAddress, parseCidr, subnets } from '../../src/node/network/ipv4.ts';
import { hostEndOf, isNamespaceName, isSafeUid, vethName } from '../../src/node/network/pod-namespace.ts';
import { isSpareName, newSpareName, SpareNamespaces, type SpareNamespace } from '../../src/node/network/spare-namespaces.ts';
import { StateFile, readNetworkState, type NetworkState } from '../../src/node/network/state-file.ts';

test('IPv4: addresses and blocks parse, format and subdivide; malformed ones are refused', () => {
  assert.equal(formatAddress(parseAddress('10.244.3.7')), '10.244.3.7');
  assert.equal(parseAddress('255.255.255.255'), 2 ** 32 - 1);
  assert.equal(formatCidr(parseCidr('10.244.0.0/16')), '10.244.0.0/16');
  for (const bad of ['10.244.0', '10.244.0.256', '10.01.0.0', 'a.b.c.d']) assert.throws(() => parseAddress(bad), { name: 'PodNetworkConfigError' });
  assert.throws(() => parseCidr('10.244.1.0/16'), { name: 'PodNetworkConfigError', message: /did you mean 10\.244\.0\.0\/16\?/ });
  assert.throws(() => parseCidr('10.244.0.0/33'), { name: 'PodNetworkConfigError' });
  assert.throws(() => parseCidr('10.244.0.0'), { name: 'PodNetworkConfigError' });
  const blocks = [...subnets(parseCidr('10.244.0.0/22'), 24)].map(formatCidr);
  assert.deepEqual(blocks, ['10.244.0.0/24', '10.244.1.0/24', '10.244.2.0/24', '10.244.3.0/24']);
  assert.equal(containsCidr(parseCidr('10.244.0.0/16'), parseCidr('10.244.9.0/24')), true);
  assert.equal(containsCidr(parseCidr('10.244.0.0/16'), parseCidr('10.245.0.0/24')), false);
  assert.equal(containsCidr(parseCidr('10.244.0.0/24'), parseCidr('10.244.0.0/16')), false);
});

test('address pool: next-fit allocation, idempotent per uid, restore refuses conflicts, exhaustion is an error', () => {
  const pool = new AddressPool(parseCidr('10.244.1.0/29'));
  assert.equal(pool.capacity, 5, '.2 to .6: not the network, gateway or broadcast address');
  const a = pool.allocate('a');
  assert.equal(formatAddress(a), '10.244.1.2');
  assert.equal(pool.allocate('a'), a);
  assert.equal(formatAddress(pool.allocate('b')), '10.244.1.3');
  pool.release('a');
  assert.equal(formatAddress(pool.allocate('c')), '10.244.1.4', 'a freed address is not reused at once');
  for (const uid of ['d', 'e']) pool.allocate(uid);
  assert.equal(formatAddress(pool.allocate('f')), '10.244.1.2', 'wraps around to free addresses');
  assert.throws(() => pool.allocate('g'), { name: 'PodNetworkError', message: /no pod address left/ });

  const restored = new AddressPool(parseCidr('10.244.1.0/24'), parseAddress('10.244.1.9'));
  assert.equal(restored.restore('x', parseAddress('10.244.1.5')), true);
  assert.equal(restored.restore('y', parseAddress('10.244.1.5')), false, 'taken');
  assert.equal(restored.restore('z', parseAddress('10.244.1.1')), false, 'the gateway');
  assert.equal(restored.restore('z', parseAddress('10.244.2.5')), false, 'another block');
  assert.equal(formatAddress(restored.allocate('w')), '10.244.1.10', 'continues after the remembered last address');
});

test('state file: saves made at once share writes, the file is replaced whole, a broken file is a clear error', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-network-state-'));
  try {
    const path = join(dir, 'network.json');
    let pods: NetworkState['pods'] = {};
    let snapshots = 0;
    const file = new StateFile(path, () => {
      snapshots++;
      return { version: 1, bridge: 'bosun0', clusterCIDR: '10.244.0.0/16', nodeCIDR: '10.244.0.0/24', pods: { ...pods } };
    });
    assert.equal(await readNetworkState(path), undefined);
    await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        pods = { ...pods, [`uid-${i}`]: { address: `10.244.0.${i + 2}`, pod: `default/p${i}` } };
        return file.save();
      }),
    );
    assert.ok(snapshots <= 2, `${snapshots} writes for 50 saves`);
    assert.equal(Object.keys((await readNetworkState(path))?.pods ?? {}).length, 50);
    assert.deepEqual(await readdir(dir), ['network.json'], 'no temporary file left');
    assert.equal(((await readFile(path)).toString().match(/uid-/g) ?? []).length, 50);

    await file.remove();
    assert.deepEqual(await readdir(dir), []);
    await writeFile(path, '{"version":1,');
    await assert.rejects(readNetworkState(path), { name: 'PodNetworkConfigError', message: /is unreadable/ });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('ip batch words cannot smuggle a second word, a quote or a comment', () => {
  assert.equal(ipBatchScript([['addr', 'add', '10.244.0.2/16', 'dev', 'eth0'], ['link', 'set', 'lo', 'up']]), 'addr add 10.244.0.2/16 dev eth0\nlink set lo up\n');
  for (const bad of ['eth0 up', 'a"b', '#x', 'a\\b', 'a\nb', '']) assert.throws(() => ipBatchScript([['link', 'set', bad]]), /cannot be a word/);
});

test('pod uids name files and veths safely', () => {
  assert.equal(isSafeUid('8d3c0a56-1f0e-4a8e-9d7b-3f1c2a7e9b10'), true);
  for (const bad of ['', '.', '..', '../x', 'a/b', 'a b', '-x']) assert.equal(isSafeUid(bad), false, bad);
  assert.match(vethName('8d3c0a56-1f0e-4a8e-9d7b-3f1c2a7e9b10'), /^bsn[0-9a-f]{12}$/);
  assert.notEqual(vethName('a'), vethName('b'));
});

test('spare namespaces have names no pod uid can have, and host ends apart from pods\' ones', () => {
  const spare = newSpareName();
  assert.match(spare, /^_spare-[0-9a-f]{12}$/);
  assert.equal(isSpareName(spare), true);
  assert.equal(isSafeUid(spare), false, 'never a pod uid');
  assert.equal(isNamespaceName(spare), true);
  assert.equal(hostEndOf(spare), `bsp${spare.slice('_spare-'.length)}`);
  assert.equal(hostEndOf('8d3c0a56-1f0e-4a8e-9d7b-3f1c2a7e9b10'), vethName('8d3c0a56-1f0e-4a8e-9d7b-3f1c2a7e9b10'));
  for (const bad of ['_spare-', '_spare-../x', '_spare-0123456789abc', '../_spare-0123456789ab']) assert.equal(isNamespaceName(bad), false, bad);
});

test('address pool: a spare\'s address is handed to the pod that takes it', () => {
  const pool = new AddressPool(parseCidr('10.244.0.0/24'));
  const address = pool.allocate('_spare-0123456789ab');
  assert.equal(pool.reassign('_spare-0123456789ab', 'pod-a'), address);
  assert.deepEqual(pool.entries(), [['pod-a', address]]);
  assert.throws(() => pool.reassign('_spare-0123456789ab', 'pod-b'), { name: 'PodNetworkError' });
  assert.notEqual(pool.allocate('pod-b'), address);
});

test('spare pool: fill keeps it full, a failed make leaves it short until the next fill, close removes what is ready', async () => {
  let made = 0;
  let failNext = false;
  const discarded: string[] = [];
  const pending: (() => void)[] = [];
  const spares = new SpareNamespaces(
    2,
    () =>
      new Promise<SpareNamespace>((resolve, reject) => {
        const n = made++;
        const fail = failNext;
        pending.push(() => (fail ? reject(new Error('no')) : resolve({ name: `s${n}`, address: n })));
      }),
    (spare) => {
      discarded.push(spare.name);
      return Promise.resolve();
    },
  );
  const settle = async () => {
    for (const done of pending.splice(0)) done();
    await new Promise((resolve) => setImmediate(resolve));
  };
  spares.fill();
  spares.fill();
  assert.equal(made, 2, 'never more than the pool size at once');
  assert.equal(spares.take(), undefined, 'none ready yet');
  await settle();
  assert.deepEqual(spares.take(), { name: 's0', address: 0 });
  assert.equal(made, 2, 'a take alone makes none');
  failNext = true;
  spares.fill();
  assert.equal(made, 3);
  await settle();
  assert.equal(made, 3, 'the failed make is not retried on its own');
  failNext = false;
  assert.deepEqual(spares.take(), { name: 's1', address: 1 });
  spares.fill();
  assert.equal(made, 5, 'the next fill makes the pool full again');
  const closing = spares.close();
  await settle();
  await closing;
  assert.deepEqual(discarded.sort(), ['s3', 's4'], 'spares finished after close are removed too');
  spares.fill();
  assert.equal(spares.take(), undefined);
  assert.equal(made, 5, 'a closed pool makes no more');
});

test('bad options are refused before anything is made', async () => {
  const stateDir = '/nonexistent/never-created';
  const open = (options: Partial<Parameters<typeof BridgeNetwork.open>[0]>) => BridgeNetwork.open({ stateDir, ...options });
  await assert.rejects(open({ bridgeName: 'a-name-far-too-long' }), { name: 'PodNetworkConfigError', message: /interface name/ });
  await assert.rejects(open({ bridgeName: 'br 0' }), { name: 'PodNetworkConfigError' });
  await assert.rejects(open({ clusterCIDR: '10.244.0.0/33' }), { name: 'PodNetworkConfigError' });
  await assert.rejects(open({ nodeCIDR: '10.245.0.0/24' }), { name: 'PodNetworkConfigError', message: /inside the cluster CIDR 10\.244\.0\.0\/16/ });
  await assert.rejects(open({ nodeCIDRMaskSize: 8 }), { name: 'PodNetworkConfigError', message: /mask size/ });
  await assert.rejects(open({ mtu: 100 }), { name: 'PodNetworkConfigError', message: /MTU/ });
  await assert.rejects(open({ spareNamespaces: -1 }), { name: 'PodNetworkConfigError', message: /spare pod namespaces/ });
});

test('batch queue: the first item runs at once, items arriving meanwhile share the next batch, failures stay per item', async () => {
  const batches: number[][] = [];
  const queue = new BatchQueue<number>(async (items) => {
    batches.push([...items]);
    await new Promise((resolve) => setTimeout(resolve, 10));
    return items.map((item) => (item % 5 === 4 ? new Error(`item ${item} failed`) : undefined));
  });
  const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => queue.run(i)));
  assert.deepEqual(batches, [[0], [1, 2, 3, 4, 5, 6, 7, 8, 9]]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
  await queue.run(10);
  assert.deepEqual(batches.at(-1), [10], 'an idle queue runs the next item at once');
});

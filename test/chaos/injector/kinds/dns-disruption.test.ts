// dns-disruption: the nftables redirect and responder configuration against a golden file on a capable node,
// and the real detection on this machine: without nft inject fails naming it; dry-run succeeds.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { HostReads } from '../../../../src/chaos/injector/host/host-reads.ts';
import type { InjectorTarget } from '../../../../src/chaos/injector/injector.ts';
import { dnsDisruptionKind, type DnsResponderConfig } from '../../../../src/chaos/injector/kinds/dns-disruption.ts';
import { parseDnsRecords, upstreamNameservers } from '../../../../src/chaos/injector/kinds/dns/dns-records.ts';
import { context, realReads, RecordingWrites } from './host-doubles.ts';

const GOLDEN = join(import.meta.dirname, 'golden');
const target = (pid: number, container = 'app'): InjectorTarget => ({
  level: 'pod', targetName: 'web-0', nodeName: 'node-a',
  container: { id: container, podUid: 'pod-uid', namespace: 'shop', pod: 'web-0', container, pid, cgroupVersion: 1, cgroups: {} },
});
const env = { CHAOS_POD_IP: '10.0.0.99' };

/** A node with nft. */
const capableHost = (): HostReads => ({
  readFile: (path) => (path === '/proc/4242/root/etc/resolv.conf' ? Promise.resolve('search shop.svc\nnameserver 10.96.0.10\nnameserver fd00::10\n') : Promise.reject(new Error('ENOENT'))),
  exists: () => Promise.resolve(true),
  run: () => Promise.resolve({ code: 0, stdout: '', stderr: '' }),
});

test('records and resolv.conf as upstream parses them', () => {
  assert.deepEqual(parseDnsRecords('api.shop:a:10.1.1.1:60;v6.shop:AAAA:fd00::1:30'), [
    { hostname: 'api.shop', type: 'A', value: '10.1.1.1', ttl: 60 },
    { hostname: 'v6.shop', type: 'AAAA', value: 'fd00::1', ttl: 30 },
  ]);
  assert.throws(() => parseDnsRecords('api.shop:A'), /invalid record format/);
  assert.throws(() => parseDnsRecords(''), /--records flag is required/);
  assert.deepEqual(upstreamNameservers('nameserver 10.96.0.10\nnameserver fd00::10\n# x\n'), ['10.96.0.10:53', '[fd00::10]:53']);
  assert.deepEqual(upstreamNameservers(undefined), ['8.8.8.8:53']);
});

test('the nftables redirect and the responder on a capable node (golden), cleaned after', async () => {
  const started: DnsResponderConfig[] = [];
  let stopped = 0;
  const kind = dnsDisruptionKind({ env, startResponder: (config) => Promise.resolve(void started.push(config)).then(() => ({ stop: () => Promise.resolve(void stopped++) })) });
  const writes = new RecordingWrites();
  const injector = kind.create(context(target(4242), writes, capableHost()), { records: 'api.shop:A:10.1.1.1:60', protocol: 'both' });
  await injector.inject();
  await kind.create(context(target(4242, 'sidecar'), new RecordingWrites(), capableHost()), { records: 'api.shop:A:10.1.1.1:60' }).inject();
  assert.equal(started.length, 1, 'one responder per chaos pod');
  await injector.clean();
  assert.equal(stopped, 1);
  const actual = `${JSON.stringify(started[0])}\n${writes.commands().join('\n')}\n`;
  const file = join(GOLDEN, 'dns-both.txt');
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, actual);
  assert.equal(actual, readFileSync(file, 'utf8'));
});

test('without a responder a real injection fails clearly', async () => {
  await assert.rejects(dnsDisruptionKind({ env, startResponder: null }).create(context(target(4242), new RecordingWrites(), capableHost()), { records: 'a:A:1.2.3.4:1' }).inject(), /no DNS responder/);
  await assert.rejects(dnsDisruptionKind({ env }).create(context({ level: 'node', targetName: 'n', nodeName: 'n' }, new RecordingWrites(), capableHost()), { records: 'a:A:1.2.3.4:1' }).inject(), /only be applied at the pod level/);
});

describe('dns-disruption on this machine', () => {
  let netns: ChildProcess;
  before(async () => {
    netns = spawn('unshare', ['--net', '--', 'sleep', '600'], { stdio: 'ignore' });
    await new Promise<void>((resolve) => netns.once('spawn', () => resolve()));
  });
  after(() => {
    netns.kill('SIGKILL');
  });
  const hasNft = ['/usr/sbin/nft', '/sbin/nft', '/usr/bin/nft'].some((p) => existsSync(p));

  test('inject fails naming what is missing, before any write or responder', { skip: hasNft && 'nft is installed here' }, async () => {
    const writes = new RecordingWrites();
    let started = 0;
    const kind = dnsDisruptionKind({ env, startResponder: () => Promise.resolve(void started++).then(() => ({ stop: () => Promise.resolve() })) });
    await assert.rejects(kind.create(context(target(netns.pid ?? 0), writes, realReads), { records: 'a:A:1.2.3.4:1' }).inject(), {
      name: 'FeatureUnavailableError',
      message: 'nft is not installed (command -v nft: not found): DNS disruptions cannot run on this node',
    });
    assert.deepEqual(writes.recorded, []);
    assert.equal(started, 0);
  });

  test('dry-run succeeds and says what a real run would lack', async () => {
    const ctx = context(target(netns.pid ?? 0), new RecordingWrites(undefined, true), realReads, true);
    const injector = dnsDisruptionKind({ env }).create(ctx, { records: 'a:A:1.2.3.4:1', protocol: 'udp' });
    await injector.inject();
    await injector.clean();
    if (!hasNft) assert.ok(ctx.log.lines.some((l) => l.level === 'warn' && l.message.includes('DNS disruptions cannot run on this node')));
    assert.ok(ctx.log.lines.some((l) => l.message === 'dry-run: would write the nftables redirect' && JSON.stringify(l.fields).includes('10.0.0.99:5353')));
  });
});

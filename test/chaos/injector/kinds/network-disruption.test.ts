// network-disruption: the exact command sequence (tc, ip, iptables under nsenter, net_cls writes) recorded per
// scenario against golden files (upstream tests the same sequences with mocks), with a host that has every
// feature; then the real feature detection of this machine, whose kernel has no prio/netem qdisc and no flower
// classifier but runs nftables: a delay fails naming the missing qdiscs, a drop is written as the nftables
// table for real (and replaced, and removed), dry-run succeeds.
// Regenerate the golden files with UPDATE_GOLDEN=1.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CommandResult } from '../../../../src/chaos/injector/host/host-writes.ts';
import type { HostReads } from '../../../../src/chaos/injector/host/host-reads.ts';
import type { InjectorTarget } from '../../../../src/chaos/injector/injector.ts';
import { FeatureUnavailableError } from '../../../../src/chaos/injector/kinds/feature-probes.ts';
import { networkDisruptionKind } from '../../../../src/chaos/injector/kinds/network-disruption.ts';
import { chooseBackend } from '../../../../src/chaos/injector/kinds/network/backend.ts';
import { jitterMs, type NetworkPlan } from '../../../../src/chaos/injector/kinds/network/plan.ts';
import { emptySpec, parseHostSpec, parseServiceSpec } from '../../../../src/chaos/injector/kinds/network/network-spec.ts';
import { selectByPercentage } from '../../../../src/chaos/injector/kinds/network/resolve-hosts.ts';
import type { RuntimeService } from '../../../../src/client/node-runtime/protocol.ts';
import { context, realReads, realWrites, RecordingWrites } from './host-doubles.ts';

const GOLDEN = join(import.meta.dirname, 'golden');
const ok = (stdout = ''): CommandResult => ({ code: 0, stdout, stderr: '' });

/** A node with every feature: links eth0 (txqueuelen 0) and lo, a default route, tc and iptables that work. */
function capableHost(links = [{ ifname: 'lo', txqlen: 1000 }, { ifname: 'eth0@if12', txqlen: 0 }, { ifname: 'docker0', txqlen: 1000 }]): HostReads {
  return {
    readFile: () => Promise.reject(new Error('unexpected read')),
    exists: () => Promise.resolve(true),
    run: (argv) => {
      const cmd = argv.join(' ');
      if (cmd.includes('ip -j link show')) return Promise.resolve(ok(JSON.stringify(links)));
      if (cmd.includes('ip -j -4 route show default')) return Promise.resolve(ok(JSON.stringify([{ dst: 'default', gateway: '10.0.0.1', dev: 'eth0' }])));
      if (cmd.includes(' -C ')) return Promise.resolve({ code: 1, stdout: '', stderr: 'iptables: Bad rule (does a matching rule exist in that chain?).' });
      return Promise.resolve(ok());
    },
  };
}

const podTarget = (cgroupVersion: 1 | 2, container = 'app'): InjectorTarget => ({
  level: 'pod',
  targetName: 'web-0',
  nodeName: 'node-a',
  container: {
    id: `id-${container}`, podUid: 'pod-uid', namespace: 'shop', pod: 'web-0', container, pid: 4242, cgroupVersion,
    cgroups: cgroupVersion === 1 ? { net_cls: `/sys/fs/cgroup/net_cls/bosun/pod-uid/${container}` } : { unified: `/sys/fs/cgroup/bosun/pod-uid/${container}` },
  },
});
const nodeTarget: InjectorTarget = { level: 'node', targetName: 'node-a', nodeName: 'node-a' };
const env = { TARGET_POD_HOST_IP: '192.168.1.10', CHAOS_INJECTOR_MOUNT_CGROUP: '/sys/fs/cgroup/' };
const resolve = (name: string) => Promise.resolve(name === 'db.internal' ? ['10.2.0.7', '10.2.0.8', '10.2.0.9', '10.2.0.10'] : []);

function transcript(writes: RecordingWrites): string {
  return `${writes.recorded.map((r) => (r.op === 'run' ? r.argv.join(' ') : r.op === 'writeFile' ? `write ${r.path} ${r.content}` : `runtime ${r.description}`)).join('\n')}\n`;
}

function assertGolden(name: string, actual: string): void {
  const file = join(GOLDEN, `${name}.txt`);
  if (process.env['UPDATE_GOLDEN'] === '1' || !existsSync(file)) writeFileSync(file, actual);
  assert.equal(actual, readFileSync(file, 'utf8'), `golden ${file}`);
}

const scenarios: { name: string; target: InjectorTarget; values: Record<string, unknown> }[] = [
  { name: 'delay-drop-pod-v1', target: podTarget(1), values: { delay: '100', drop: '20', duplicate: '0', corrupt: '0' } },
  { name: 'bandwidth-pod-v2', target: podTarget(2), values: { drop: '0', duplicate: '0', corrupt: '0', bandwidthLimit: '65536' } },
  { name: 'hosts-filter', target: podTarget(2), values: { drop: '100', duplicate: '0', corrupt: '0', hosts: ['10.1.2.3;443;tcp', 'db.internal;5432;;;new;;50'], allowedHosts: ['10.9.0.0/16'], logContextDisruptionUid: 'uid-1' } },
  { name: 'node-level-safeguards', target: nodeTarget, values: { delay: '250', delayJitter: '20', drop: '0', duplicate: '5', corrupt: '1' } },
  { name: 'ingress-flow', target: podTarget(1), values: { drop: '50', duplicate: '0', corrupt: '0', hosts: ['10.0.0.0/8;80;tcp;ingress;est'] } },
  { name: 'on-init', target: podTarget(1), values: { drop: '100', duplicate: '0', corrupt: '0', onInit: true } },
];

describe('network-disruption command sequences', () => {
  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      const writes = new RecordingWrites();
      const injector = networkDisruptionKind({ resolve, env }).create(context(scenario.target, writes, capableHost()), scenario.values);
      await injector.inject();
      const injected = transcript(writes);
      writes.recorded.length = 0;
      await injector.clean();
      assertGolden(`network-${scenario.name}`, `# inject\n${injected}# clean\n${transcript(writes)}`);
    });
  }

  test('the second container of a pod only marks its packets; a restarted first one carries the spec', async () => {
    const kind = networkDisruptionKind({ resolve, env });
    const first = new RecordingWrites();
    const second = new RecordingWrites();
    await kind.create(context(podTarget(1, 'app'), first, capableHost()), { drop: '100' }).inject();
    await kind.create(context(podTarget(1, 'sidecar'), second, capableHost()), { drop: '100' }).inject();
    // a restarted app container gets a new injector from the lifecycle: it carries the spec again
    const restarted = new RecordingWrites();
    await kind.create(context(podTarget(1, 'app'), restarted, capableHost()), { drop: '100' }).inject();
    assert.ok(restarted.commands().some((c) => c.includes(' tc qdisc add ')));
    assert.ok(first.commands().some((c) => c.includes(' tc qdisc add ')));
    assert.deepEqual(transcript(second).trim().split('\n'), [
      'nsenter --net=/proc/4242/ns/net iptables --wait -t nat -I OUTPUT 1 -m state --state new,established -j LOG',
      'write /sys/fs/cgroup/net_cls/bosun/pod-uid/sidecar/net_cls.classid 0x00020002',
      'nsenter --net=/proc/4242/ns/net iptables --wait -t mangle -I POSTROUTING 1 -m cgroup --cgroup 0x00020002 -j MARK --set-mark 0x00020002',
    ]);
  });

  test('a clean tolerates "no such qdisc" (tc exit 2), and a failing tc fails the injection', async () => {
    const answers: HostReads = capableHost();
    const writes = new RecordingWrites((argv) => (argv.includes('del') ? { code: 2, stdout: '', stderr: 'Error: Cannot delete qdisc with handle of zero.' } : argv.includes('netem') ? { code: 2, stdout: '', stderr: 'Error: Specified qdisc kind is unknown.' } : ok()));
    const injector = networkDisruptionKind({ resolve, env }).create(context(podTarget(2), writes, answers), { drop: '100' });
    await assert.rejects(injector.inject(), { name: 'NetworkDisruptionError', message: /tc qdisc add dev lo parent 2:2 handle 3: netem loss 100% duplicate 100% corrupt 100% failed \(exit 2\): Error: Specified qdisc kind is unknown\./ });
    // the txqueuelen set for eth0 is put back even so
    assert.equal(writes.commands().at(-1), 'nsenter --net=/proc/4242/ns/net ip link set dev eth0 txqueuelen 0');
    await injector.clean();
  });

  test('HTTP filters are refused clearly, and service filters without the node agent', async () => {
    const kind = networkDisruptionKind({ resolve, env });
    await assert.rejects(kind.create(context(podTarget(2), new RecordingWrites(), capableHost()), { method: ['GET'] }).inject(), /HTTP filters .* eBPF/);
    await assert.rejects(networkDisruptionKind({ resolve, env }).create(context(podTarget(2), new RecordingWrites(), capableHost()), { services: ['api;shop;80-http'] }).inject(), /service filters \(--services\) .* runtime API, which this injector cannot reach \(BOSUN_NODE_RUNTIME_SOCKET is not set\)/);
  });

  test("upstream's jitter, host and service formats, percentage selection", () => {
    assert.equal(jitterMs(100, 0), 10);
    assert.equal(jitterMs(5, 0), 1);
    assert.equal(jitterMs(250, 20), 50);
    assert.deepEqual(parseHostSpec('db;5432;tcp;ingress;new;pod;50'), { host: 'db', port: 5432, protocol: 'tcp', flow: 'ingress', connState: 'new', dnsResolver: 'pod', percentage: 50 });
    assert.deepEqual(parseHostSpec('10.0.0.1'), { host: '10.0.0.1', port: 0, protocol: '', flow: '', connState: '', dnsResolver: '' });
    assert.deepEqual(parseServiceSpec('api;shop;80-http;443-https;100'), { name: 'api', namespace: 'shop', ports: [{ port: 80, name: 'http' }, { port: 443, name: 'https' }], percentage: 100 });
    const ips = ['10.2.0.7/32', '10.2.0.8/32', '10.2.0.9/32', '10.2.0.10/32'];
    const picked = selectByPercentage(ips, 50, 'db.internal-uid-1');
    assert.equal(picked.length, 2);
    assert.deepEqual(selectByPercentage([...ips].reverse(), 50, 'db.internal-uid-1').sort(), [...picked].sort());
  });
});

test('nftables: host names are resolved again every --host-resolve-interval, the table replaced when they change; clean stops it first', async () => {
  const answers = [['10.2.0.7'], ['10.2.0.7'], ['10.2.0.8']];
  let calls = 0;
  const resolveChanging = (name: string) => Promise.resolve(name === 'db.internal' ? (answers[Math.min(++calls, answers.length) - 1] ?? []) : []);
  let rewritten!: () => void;
  const replaced = new Promise<void>((resolve) => (rewritten = resolve));
  const noQdiscs: HostReads = { ...capableHost(), run: (argv) => Promise.resolve(argv.join(' ').includes('qdisc add') ? { code: 2, stdout: '', stderr: 'Error: Specified qdisc kind is unknown.' } : capableHost().run(argv)) };
  const writes = new RecordingWrites((argv) => {
    if (argv.some((a) => a.includes('10.2.0.8'))) rewritten();
    return ok();
  });
  const injector = networkDisruptionKind({ resolve: resolveChanging, env }).create(context(podTarget(1), writes, noQdiscs), { drop: '100', duplicate: '0', corrupt: '0', hosts: ['db.internal;5432;tcp'], hostResolveInterval: '20ms' });
  await injector.inject();
  await replaced;
  await injector.clean();
  const tables = writes.commands().filter((c) => c.includes(' nft table inet bosun-chaos {}\ndelete table inet bosun-chaos\ntable'));
  assert.equal(tables.length, 2, 'written at injection, then once more when the address changed');
  assert.match(tables[0] ?? '', /ip daddr 10\.2\.0\.7 meta l4proto tcp th dport 5432 goto disrupt/);
  assert.match(tables[1] ?? '', /ip daddr 10\.2\.0\.8 meta l4proto tcp th dport 5432 goto disrupt/);
  assert.match(writes.commands().at(-3) ?? '', / nft table inet bosun-chaos \{\}\ndelete table inet bosun-chaos\n$/, 'clean deletes the table after the loop stopped');
  const after = writes.commands().length;
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(writes.commands().length, after, 'nothing written after clean');
});

/** The node agent's Service watch, fed by the test: each push goes to whoever watches that Service. */
class ServiceFeed {
  private readonly views = new Map<string, RuntimeService>();
  private readonly wakers = new Set<() => void>();
  watching = 0;

  push(view: RuntimeService): void {
    this.views.set(`${view.namespace}/${view.name}`, view);
    for (const wake of this.wakers) wake();
  }

  readonly watch = async function* (this: ServiceFeed, namespace: string, name: string, signal: AbortSignal): AsyncGenerator<RuntimeService> {
    this.watching++;
    let sent: RuntimeService | undefined;
    let wake = () => undefined as void;
    const waker = () => wake();
    this.wakers.add(waker);
    signal.addEventListener('abort', waker);
    try {
      while (!signal.aborted) {
        const view = this.views.get(`${namespace}/${name}`) ?? { namespace, name, exists: false, ports: [], endpointIPs: [] };
        if (view !== sent) yield (sent = view);
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      this.wakers.delete(waker);
      signal.removeEventListener('abort', waker);
      this.watching--;
    }
  };
}

const apiService = (endpoints: string[]): RuntimeService => ({
  namespace: 'shop',
  name: 'api',
  exists: true,
  clusterIP: '10.96.0.12',
  ports: [{ name: 'http', protocol: 'TCP', port: 80, endpoints: endpoints.map((ip) => ({ ip, port: 8080 })) }],
  endpointIPs: endpoints,
});

describe('services filters follow their Service through the node agent', () => {
  const noQdiscs: HostReads = { ...capableHost(), run: (argv) => Promise.resolve(argv.join(' ').includes('qdisc add') ? { code: 2, stdout: '', stderr: 'Error: Specified qdisc kind is unknown.' } : capableHost().run(argv)) };
  /** Writes that resolve `waitFor(match)` once a command containing match (or passing it) has run. */
  const watchedWrites = () => {
    const waiters: { match: (cmd: string) => boolean; resolve: () => void }[] = [];
    const writes = new RecordingWrites((argv) => {
      const cmd = argv.join(' ');
      for (const w of waiters) if (w.match(cmd)) w.resolve();
      return ok();
    });
    const waitFor = (match: string | ((cmd: string) => boolean)) => new Promise<void>((resolve) => waiters.push({ match: typeof match === 'string' ? (cmd) => cmd.includes(match) : match, resolve }));
    return { writes, waitFor };
  };

  test('nftables: the ClusterIP and the ready endpoints, the table replaced when an endpoint joins or leaves; clean stops the watch first', async () => {
    const feed = new ServiceFeed();
    feed.push(apiService(['10.244.0.5']));
    const { writes, waitFor } = watchedWrites();
    const injector = networkDisruptionKind({ resolve, env, watchService: feed.watch.bind(feed) }).create(context(podTarget(1), writes, noQdiscs), { drop: '100', duplicate: '0', corrupt: '0', services: ['api;shop;100'] });
    await injector.inject();
    const tables = () => writes.commands().filter((c) => c.includes(' nft table inet bosun-chaos {}\ndelete table inet bosun-chaos\ntable'));
    assert.equal(tables().length, 1);
    assert.match(tables()[0] ?? '', /ip daddr 10\.96\.0\.12 meta l4proto tcp th dport 80 goto disrupt\n\t\tip daddr 10\.244\.0\.5 meta l4proto tcp th dport 8080 goto disrupt\n/);
    assert.doesNotMatch(tables()[0] ?? '', /meta nfproto ipv4 meta l4proto \{ tcp, udp \} goto disrupt/, 'only the Service is disrupted');

    const scaled = waitFor('10.244.0.6');
    feed.push(apiService(['10.244.0.5', '10.244.0.6']));
    await scaled;
    assert.equal(tables().length, 2, 'one transaction for the change');
    assert.match(tables()[1] ?? '', /ip daddr 10\.244\.0\.6 meta l4proto tcp th dport 8080 goto disrupt/);

    const gone = waitFor((cmd) => cmd.includes('table inet bosun-chaos {\n') && !cmd.includes('goto disrupt'));
    feed.push({ namespace: 'shop', name: 'api', exists: false, ports: [], endpointIPs: [] });
    await gone;
    assert.doesNotMatch(tables()[2] ?? '', /goto disrupt/, 'the Service deleted: nothing of it is disrupted');

    await injector.clean();
    assert.equal(feed.watching, 0, 'the watch ended with clean');
    assert.match(writes.commands().at(-3) ?? '', / nft table inet bosun-chaos \{\}\ndelete table inet bosun-chaos\n$/);
    const after = writes.commands().length;
    feed.push(apiService(['10.244.0.7']));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.commands().length, after, 'nothing written after clean');
  });

  test('a Service that does not exist fails the injection as upstream does', async () => {
    const feed = new ServiceFeed();
    const injector = networkDisruptionKind({ resolve, env, watchService: feed.watch.bind(feed) }).create(context(podTarget(1), new RecordingWrites(), noQdiscs), { drop: '100', duplicate: '0', corrupt: '0', services: ['api;shop;100'] });
    await assert.rejects(injector.inject(), { name: 'ServiceFilterError', message: 'error getting the given kubernetes service (shop/api): services "api" not found' });
    assert.equal(feed.watching, 0);
    await injector.clean();
  });

  test('tc: the services\' flower filters after the plan\'s; on a change the new ones are added before the old ones are deleted', async () => {
    const feed = new ServiceFeed();
    feed.push(apiService(['10.244.0.5']));
    const { writes, waitFor } = watchedWrites();
    const injector = networkDisruptionKind({ resolve, env, watchService: feed.watch.bind(feed) }).create(context(podTarget(2), writes, capableHost()), { drop: '100', duplicate: '0', corrupt: '0', services: ['api;shop;0-http;100'] });
    await injector.inject();
    const filters = () => writes.commands().filter((c) => / tc filter (add|delete) .*priority 10\d\d/.test(c) && !c.includes('dst_ip 10.0.0.1/32') && !c.includes('dst_ip 192.168.1.10/32'));
    const netns = 'nsenter --net=/proc/4242/ns/net tc filter';
    assert.deepEqual(filters(), [
      `${netns} add dev lo protocol ip priority 1003 parent 1:0 flower ip_proto tcp dst_ip 10.96.0.12/32 dst_port 80 flowid 1:4`,
      `${netns} add dev eth0 protocol ip priority 1003 parent 1:0 flower ip_proto tcp dst_ip 10.96.0.12/32 dst_port 80 flowid 1:4`,
      `${netns} add dev lo protocol ip priority 1004 parent 1:0 flower ip_proto tcp dst_ip 10.244.0.5/32 dst_port 8080 flowid 1:4`,
      `${netns} add dev eth0 protocol ip priority 1004 parent 1:0 flower ip_proto tcp dst_ip 10.244.0.5/32 dst_port 8080 flowid 1:4`,
    ]);
    const before = filters().length;
    const replaced = waitFor('delete dev eth0 priority 1004');
    feed.push(apiService(['10.244.0.6']));
    await replaced;
    assert.deepEqual(filters().slice(before), [
      `${netns} add dev lo protocol ip priority 1005 parent 1:0 flower ip_proto tcp dst_ip 10.96.0.12/32 dst_port 80 flowid 1:4`,
      `${netns} add dev eth0 protocol ip priority 1005 parent 1:0 flower ip_proto tcp dst_ip 10.96.0.12/32 dst_port 80 flowid 1:4`,
      `${netns} add dev lo protocol ip priority 1006 parent 1:0 flower ip_proto tcp dst_ip 10.244.0.6/32 dst_port 8080 flowid 1:4`,
      `${netns} add dev eth0 protocol ip priority 1006 parent 1:0 flower ip_proto tcp dst_ip 10.244.0.6/32 dst_port 8080 flowid 1:4`,
      `${netns} delete dev lo priority 1003`,
      `${netns} delete dev eth0 priority 1003`,
      `${netns} delete dev lo priority 1004`,
      `${netns} delete dev eth0 priority 1004`,
    ]);
    await injector.clean();
    assert.equal(feed.watching, 0);
  });
});

describe('the backend choice, in one place', () => {
  /** A node whose probes fail for the named tools or probe words (the qdiscs: 'qdisc add', the classifier: 'flower'). */
  const node = (lacking: string[]): HostReads => ({
    readFile: () => Promise.reject(new Error('unexpected read')),
    exists: () => Promise.resolve(true),
    run: (argv) => {
      const cmd = argv.join(' ');
      const tool = /command -v (\S+)/.exec(cmd)?.[1];
      const fails = tool !== undefined ? lacking.includes(tool) : lacking.some((word) => cmd.includes(word));
      return Promise.resolve(fails ? { code: 1, stdout: '', stderr: 'Error: Specified qdisc kind is unknown.' } : ok());
    },
  });
  const plan: NetworkPlan = { txqlenFixes: [], tc: [['qdisc', 'add']], iptables: [], netClsClassId: false, nextFilterPriority: 1001 };
  const noQdiscs = ['qdisc add', 'flower'];
  const cases: { name: string; lacking: string[]; spec: Record<string, number>; backend: string; missing: RegExp | undefined }[] = [
    { name: 'a node with qdiscs keeps the tc plan, for a delay too', lacking: [], spec: { delay: 100 }, backend: 'tc', missing: undefined },
    { name: 'no qdiscs: a drop runs on nftables', lacking: noQdiscs, spec: { drop: 30 }, backend: 'nft', missing: undefined },
    { name: 'no qdiscs: a bandwidth limit runs on nftables', lacking: noQdiscs, spec: { bandwidthLimit: 4096 }, backend: 'nft', missing: undefined },
    { name: 'no qdiscs: a delay is refused naming netem', lacking: noQdiscs, spec: { delay: 100, drop: 10 }, backend: 'tc', missing: /the kernel has no sch_netem qdisc.*: network disruptions with delay cannot run on this node$/ },
    { name: 'no qdiscs: corrupt and duplicate are refused', lacking: noQdiscs, spec: { corrupt: 1, duplicate: 1 }, backend: 'tc', missing: /network disruptions with corrupt, duplicate cannot run on this node$/ },
    { name: 'no qdiscs and no nft: a drop is refused naming both', lacking: [...noQdiscs, 'nft'], spec: { drop: 100 }, backend: 'nft', missing: /the kernel has no sch_prio qdisc.*nft is not installed.*: network disruptions cannot run on this node$/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const choice = await chooseBackend(node(c.lacking), { ...emptySpec(), ...c.spec }, plan);
      assert.equal(choice.backend, c.backend);
      if (c.missing === undefined) assert.deepEqual(choice.missing, []);
      else assert.match(new FeatureUnavailableError(choice.what, choice.missing).message, c.missing);
    });
  }
});

describe('network-disruption on this machine', () => {
  let netns: ChildProcess;
  let target: InjectorTarget;

  before(async () => {
    // A "container": a process in its own network namespace (only lo).
    netns = spawn('unshare', ['--net', '--', 'sleep', '600'], { stdio: 'ignore' });
    await new Promise<void>((resolve) => netns.once('spawn', () => resolve()));
    const pid = netns.pid ?? 0;
    target = { level: 'pod', targetName: 'web-0', nodeName: 'node-a', podIP: '10.0.0.2', container: { id: 'c', podUid: 'real-uid', namespace: 'shop', pod: 'web-0', container: 'app', pid, cgroupVersion: 1, cgroups: {} } };
    // wait until unshare has exec'd sleep in the new namespace
    for (let i = 0; i < 100; i++) {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.startsWith('sleep')) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  after(() => {
    netns.kill('SIGKILL');
  });

  // This machine's kernel has no sch_prio: the test says what a node without it gets.
  const hasPrio = spawnSync('unshare', ['--net', '--', 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'prio']).status === 0;

  test('a delay fails naming the missing kernel features; nothing was written', { skip: hasPrio && 'this kernel has sch_prio' }, async () => {
    const writes = new RecordingWrites();
    const injector = networkDisruptionKind({ env }).create(context(target, writes, realReads), { delay: '100', drop: '0', duplicate: '0', corrupt: '0' });
    await assert.rejects(injector.inject(), (err: Error) => {
      assert.equal(err.name, 'FeatureUnavailableError');
      assert.match(err.message, /the kernel has no sch_prio qdisc \(tc qdisc add dev lo root handle 1: prio .*: Error: Specified qdisc kind is unknown\.\)/);
      assert.match(err.message, /the kernel has no sch_netem qdisc/);
      assert.match(err.message, /the kernel has no cls_flower classifier/);
      assert.match(err.message, /: network disruptions with delay cannot run on this node$/);
      return true;
    });
    assert.deepEqual(writes.recorded, []);
    await injector.clean();
  });

  const nftTables = () => spawnSync('nsenter', [`--net=/proc/${netns.pid}/ns/net`, 'nft', 'list', 'ruleset'], { encoding: 'utf8' }).stdout;

  test('a drop runs on nftables for real: the table written, written again as it was (re-injection), removed by clean', { skip: hasPrio && 'this kernel has sch_prio' }, async () => {
    const injector = networkDisruptionKind({ env }).create(context(target, realWrites, realReads), { drop: '100', duplicate: '0', corrupt: '0', hosts: ['10.9.0.0/16;8080;tcp'] });
    await injector.inject();
    const first = nftTables();
    assert.match(first, /table inet bosun-chaos \{/);
    assert.match(first, /oifname "lo" jump classify/);
    assert.match(first, /ip daddr 10\.9\.0\.0\/16 tcp dport 8080 goto disrupt/);
    await networkDisruptionKind({ env }).create(context(target, realWrites, realReads), { drop: '100', duplicate: '0', corrupt: '0', hosts: ['10.9.0.0/16;8080;tcp'] }).inject();
    assert.equal(nftTables(), first, 'injected again: the same table, not a second copy');
    await injector.clean();
    assert.equal(nftTables().trim(), '');
    await injector.clean();
  });

  test('dry-run logs the ruleset and writes nothing', async () => {
    const writes = new RecordingWrites(undefined, true);
    const ctx = context(target, writes, realReads, true);
    const injector = networkDisruptionKind({ env }).create(ctx, { drop: '100', duplicate: '0', corrupt: '0' });
    await injector.inject();
    const nft = hasPrio ? ' tc qdisc add dev lo root handle 1: prio' : ' nft table inet bosun-chaos {}';
    assert.ok(writes.commands().some((c) => c.startsWith(`nsenter --net=/proc/${netns.pid}/ns/net${nft}`)), writes.commands().join('\n'));
    await injector.clean();
    assert.equal(nftTables().trim(), '');
  });
});

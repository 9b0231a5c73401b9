// The bridge pod network on the real kernel: namespaces, veth pairs and a bridge per test (its own name, so that
// nothing meets a real agent's bosun0), TCP between pods, the host and the gateway, restarts, two nodes on one
// bridge, teardown. Every test tears its networks down in an after hook, so a failing one leaves nothing behind.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BridgeNetwork, type BridgeNetworkOptions } from '../../src/node/network/bridge-network.ts';
import { inspectBridge } from '../../src/node/network/bridge.ts';
import { isAlreadyGone, runHostCommand } from '../../src/node/network/host-command.ts';
import { runIpBatch } from '../../src/node/network/ip-batcher.ts';
import { vethName } from '../../src/node/network/pod-namespace.ts';
import { readMountInfo } from '../../src/node/sandbox/mountinfo.ts';
import { logContents, openSandboxHarness } from './harness.ts';

const CLUSTER = '10.251.0.0/16';
let bridges = 0;
const cleanups: (() => Promise<void>)[] = [];

// Each test's networks go before the next test starts: two bridges with the same block would share its route.
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function bridgeName(): string {
  return `bt${process.pid % 100000}x${++bridges}`;
}

/**
 * A provider on a fresh state directory (or the given one), torn down after the tests, its bridge removed too.
 * Without spare namespaces unless asked: most tests here are about the namespace a pod makes for itself.
 */
async function openNetwork(options: Partial<BridgeNetworkOptions> & { bridgeName: string }): Promise<BridgeNetwork> {
  const stateDir = options.stateDir ?? (await mkdtemp(join(tmpdir(), 'bosun-network-')));
  const network = await BridgeNetwork.open({ clusterCIDR: CLUSTER, spareNamespaces: 0, ...options, stateDir });
  cleanups.push(async () => {
    await network.teardown().catch(() => undefined);
    await runHostCommand(['ip', 'link', 'del', options.bridgeName]).catch(() => undefined);
    await rm(stateDir, { recursive: true, force: true });
  });
  return network;
}

function pod(name: string): { uid: string; name: string; namespace: string } {
  return { uid: `${name}-${process.pid}-${Date.now().toString(36)}`, name, namespace: 'default' };
}

const SERVER = `
const server = require('node:net').createServer((socket) => { socket.end('hello from ' + process.argv[1] + ' to ' + socket.remoteAddress); });
server.listen(Number(process.argv[2]), '0.0.0.0', () => console.log('listening'));`;

const CLIENT = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
socket.setTimeout(5000, () => { console.error('timeout'); process.exit(1); });
socket.on('data', (chunk) => process.stdout.write(chunk));
socket.on('error', (error) => { console.error(error.message); process.exit(1); });`;

function inNamespace(path: string, argv: string[]): string[] {
  return ['nsenter', `--net=${path}`, ...argv];
}

/** A TCP server inside a pod's namespace that names itself and its peer's address. */
async function serveInPod(path: string, name: string, port: number): Promise<void> {
  const child = spawn('nsenter', [`--net=${path}`, process.execPath, '-e', SERVER, name, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => {
    child.kill('SIGKILL');
    return Promise.resolve();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`server in ${path} exited with ${code}`)));
  });
}

/** What a TCP client gets from host:port, run inside a pod's namespace. */
function fetchFromPod(path: string, host: string, port: number): Promise<string> {
  return runHostCommand(inNamespace(path, [process.execPath, '-e', CLIENT, host, String(port)]));
}

function fetchFromHost(host: string, port: number): Promise<string> {
  return runHostCommand([process.execPath, '-e', CLIENT, host, String(port)]);
}

function namespacePath(attachment: { network: { kind: string; path?: string } }): string {
  assert.equal(attachment.network.kind, 'namespace');
  assert.ok(attachment.network.path);
  return attachment.network.path;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false);
}

async function linkExists(name: string): Promise<boolean> {
  return runHostCommand(['ip', 'link', 'show', 'dev', name]).then(() => true, () => false);
}

async function mounted(path: string): Promise<boolean> {
  return (await readMountInfo()).some((entry) => entry.mountPoint === path);
}

/** The namespace files bound in a state directory now. */
async function mountedIn(stateDir: string): Promise<string[]> {
  const prefix = `${await realpath(join(stateDir, 'netns'))}/`;
  return (await readMountInfo()).filter((entry) => entry.mountPoint.startsWith(prefix)).map((entry) => entry.mountPoint.slice(prefix.length)).sort();
}

/** The spare namespaces of a state directory (not the ones pods took) and the bridge ports of theirs. */
async function sparesOf(stateDir: string, bridge: string): Promise<{ names: string[]; ports: string[] }> {
  const taken = new Set(Object.values((await stateOf(stateDir)).pods).map((record) => record.namespace));
  const names = (await mountedIn(stateDir)).filter((name) => name.startsWith('_spare-') && !taken.has(name));
  const ports = ((await inspectBridge(bridge))?.ports ?? []).filter((port) => names.some((name) => port === `bsp${name.slice('_spare-'.length)}`));
  return { names, ports };
}

/** Re-checks with backoff until the host shows the provider's spares (sparesSettled says when the pool has them). */
async function sparesReady(stateDir: string, bridge: string, count: number): Promise<string[]> {
  const end = Date.now() + 20_000;
  for (let delay = 5; ; delay = Math.min(delay * 2, 200)) {
    const { names, ports } = await sparesOf(stateDir, bridge);
    if (names.length === count && ports.length === count) return names;
    if (Date.now() > end) throw new Error(`expected ${count} spares in ${stateDir}, found ${names.join(', ')} with ports ${ports.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

interface State {
  lastAllocated?: string;
  pods: Record<string, { address: string; pod: string; namespace?: string }>;
}

async function stateOf(stateDir: string): Promise<State> {
  return JSON.parse(await readFile(join(stateDir, 'network.json'), 'utf8')) as State;
}

describe('bridge pod network', { concurrency: false }, () => {
  test('two pods reach each other, the host reaches a pod, a pod reaches the gateway', async () => {
    const name = bridgeName();
    const network = await openNetwork({ bridgeName: name });
    assert.equal(network.nodeCIDR, '10.251.0.0/24');
    assert.equal(network.gateway, '10.251.0.1');
    const [a, b] = [pod('a'), pod('b')];
    const [atA, atB] = await Promise.all([network.attach(a), network.attach(b)]);
    assert.notEqual(atA.podIP, atB.podIP);
    for (const ip of [atA.podIP, atB.podIP]) assert.match(ip, /^10\.251\.0\.(\d+)$/);
    assert.deepEqual(await network.attach(a), atA, 'attaching again returns the same attachment');
    assert.deepEqual((await network.attached()).sort(), [a.uid, b.uid].sort());

    const inside = JSON.parse(await runHostCommand(inNamespace(namespacePath(atA), ['ip', '-json', 'addr', 'show']))) as {
      ifname: string;
      mtu: number;
      operstate: string;
      addr_info: { family: string; local: string; prefixlen: number }[];
    }[];
    const eth0 = inside.find((link) => link.ifname === 'eth0');
    assert.ok(eth0);
    assert.equal(eth0.mtu, 1500);
    assert.deepEqual(eth0.addr_info.filter((info) => info.family === 'inet').map((info) => `${info.local}/${info.prefixlen}`), [`${atA.podIP}/16`]);
    assert.ok(inside.some((link) => link.ifname === 'lo' && link.addr_info.some((info) => info.local === '127.0.0.1')));
    assert.match(await runHostCommand(inNamespace(namespacePath(atA), ['ip', 'route', 'show', 'default'])), /^default via 10\.251\.0\.1 dev eth0/);

    await serveInPod(namespacePath(atB), 'b', 8080);
    assert.equal(await fetchFromPod(namespacePath(atA), atB.podIP, 8080), `hello from b to ${atA.podIP}`);
    assert.equal(await fetchFromHost(atB.podIP, 8080), `hello from b to 10.251.0.1`);

    const host = createServer((socket) => socket.end(`host sees ${socket.remoteAddress ?? '?'}`));
    await new Promise<void>((resolve) => host.listen(0, network.gateway, resolve));
    cleanups.push(() => new Promise((resolve) => host.close(() => resolve())));
    const { port } = host.address() as AddressInfo;
    assert.equal(await fetchFromPod(namespacePath(atA), network.gateway, port), `host sees ${atA.podIP}`);
  });

  test('a restarted provider keeps its pods\' addresses and never hands a live one out; detach removes everything', async () => {
    const name = bridgeName();
    const first = await openNetwork({ bridgeName: name });
    const [a, b, c] = [pod('a'), pod('b'), pod('c')];
    const atA = await first.attach(a);
    const atB = await first.attach(b);

    const second = await openNetwork({ bridgeName: name, stateDir: join(namespacePath(atA), '..', '..') });
    assert.equal(second.nodeCIDR, first.nodeCIDR);
    assert.deepEqual((await second.attached()).sort(), [a.uid, b.uid].sort());
    assert.deepEqual(await second.attach(a), atA);
    const atC = await second.attach(c);
    assert.ok(![atA.podIP, atB.podIP].includes(atC.podIP), `${atC.podIP} is new`);

    await second.detach(a.uid);
    assert.equal(await linkExists(vethName(a.uid)), false, 'veth gone');
    assert.equal(await exists(namespacePath(atA)), false, 'namespace file gone');
    assert.equal(await mounted(namespacePath(atA)), false, 'namespace unmounted');
    assert.deepEqual((await second.attached()).sort(), [b.uid, c.uid].sort());
    const state = JSON.parse(await readFile(join(namespacePath(atA), '..', '..', 'network.json'), 'utf8')) as { pods: Record<string, { address: string }> };
    assert.deepEqual(Object.values(state.pods).map((p) => p.address).sort(), [atB.podIP, atC.podIP].sort());
    await second.detach(a.uid);
    await second.detach('never-attached');
    await assert.rejects(second.attach({ ...pod('x'), uid: '../escape' }), { name: 'PodNetworkError', message: /cannot name a network namespace file/ });

    // Next-fit: the address just freed is not the next one handed out.
    const atD = await second.attach(pod('d'));
    assert.ok(![atA.podIP, atB.podIP, atC.podIP].includes(atD.podIP));
  });

  test('a restart removes plumbing that a crash left half made and frees its address', async () => {
    const name = bridgeName();
    const first = await openNetwork({ bridgeName: name });
    const [a, b] = [pod('a'), pod('b')];
    const atA = await first.attach(a);
    const atB = await first.attach(b);
    // As if the agent died between creating b's namespace and putting its veth on the bridge.
    await runHostCommand(['ip', 'link', 'set', vethName(b.uid), 'nomaster']);
    const stateDir = join(namespacePath(atA), '..', '..');
    const second = await openNetwork({ bridgeName: name, stateDir });
    assert.deepEqual(await second.attached(), [a.uid]);
    assert.equal(await linkExists(vethName(b.uid)), false);
    assert.equal(await mounted(namespacePath(atB)), false);
    assert.equal(await exists(namespacePath(atB)), false);
    assert.equal((await second.attach(b)).podIP !== atA.podIP, true);
  });

  test('two nodes on one bridge claim different blocks and their pods reach each other; teardown leaves the other node alone', async () => {
    const name = bridgeName();
    const [one, two] = await Promise.all([openNetwork({ bridgeName: name }), openNetwork({ bridgeName: name })]);
    assert.deepEqual([one.nodeCIDR, two.nodeCIDR].sort(), ['10.251.0.0/24', '10.251.1.0/24']);
    const [a, b] = [pod('a'), pod('b')];
    const atA = await one.attach(a);
    const atB = await two.attach(b);
    assert.equal(atA.podIP.split('.').slice(0, 3).join('.') + '.0/24', one.nodeCIDR);
    assert.equal(atB.podIP.split('.').slice(0, 3).join('.') + '.0/24', two.nodeCIDR);
    await serveInPod(namespacePath(atA), 'a', 8080);
    await serveInPod(namespacePath(atB), 'b', 8080);
    assert.equal(await fetchFromPod(namespacePath(atA), atB.podIP, 8080), `hello from b to ${atA.podIP}`);
    assert.equal(await fetchFromPod(namespacePath(atB), atA.podIP, 8080), `hello from a to ${atB.podIP}`);
    assert.equal(await fetchFromHost(atA.podIP, 8080), `hello from a to ${one.gateway}`);
    assert.equal(await fetchFromHost(atB.podIP, 8080), `hello from b to ${two.gateway}`);

    await one.teardown();
    assert.equal(await mounted(namespacePath(atA)), false);
    assert.equal(await linkExists(vethName(a.uid)), false);
    const left = await inspectBridge(name);
    assert.ok(left, 'the bridge stays while the other node uses it');
    assert.deepEqual(left.ports, [vethName(b.uid)]);
    assert.equal(await fetchFromHost(atB.podIP, 8080), `hello from b to ${two.gateway}`);
    await assert.rejects(one.attach(pod('late')), { name: 'PodNetworkError' });

    await two.teardown();
    assert.equal(await inspectBridge(name), undefined, 'the last node removes the bridge');
    assert.equal(await exists(join(namespacePath(atB), '..')), false, 'no namespace directory left');
  });

  test('a pod takes a spare namespace and is reachable in it; the spares refill; detach removes only the pod\'s own', async () => {
    const name = bridgeName();
    const stateDir = await mkdtemp(join(tmpdir(), 'bosun-network-'));
    const network = await openNetwork({ bridgeName: name, stateDir, spareNamespaces: 2 });
    const spares = await sparesReady(stateDir, name, 2);
    // The host shows a spare a moment before its plumbing is done and the pool can hand it out.
    await network.sparesSettled();
    assert.deepEqual(await network.attached(), [], 'spares are not pods');
    assert.deepEqual((await stateOf(stateDir)).pods, {}, 'nor in the state file');

    const [a, b] = [pod('a'), pod('b')];
    const atA = await network.attach(a);
    const atB = await network.attach(b);
    const [spareA, spareB] = [namespacePath(atA).split('/').pop() ?? '', namespacePath(atB).split('/').pop() ?? ''];
    assert.deepEqual([spareA, spareB].sort(), spares, 'each pod took a spare as it was');
    assert.deepEqual((await network.attached()).sort(), [a.uid, b.uid].sort());
    const state = await stateOf(stateDir);
    assert.deepEqual(state.pods[a.uid], { address: atA.podIP, pod: 'default/a', namespace: spareA });
    assert.deepEqual(await network.attach(a), atA, 'attaching again returns the same attachment');

    // The address, route and reachability a namespace made for the pod has.
    assert.equal((await runHostCommand(inNamespace(namespacePath(atA), ['ip', '-4', '-o', 'addr', 'show', 'dev', 'eth0']))).split(/\s+/)[3], `${atA.podIP}/16`);
    assert.match(await runHostCommand(inNamespace(namespacePath(atA), ['ip', 'route', 'show', 'default'])), /^default via 10\.251\.0\.1 dev eth0/);
    await serveInPod(namespacePath(atB), 'b', 8080);
    assert.equal(await fetchFromPod(namespacePath(atA), atB.podIP, 8080), `hello from b to ${atA.podIP}`);
    assert.equal(await fetchFromHost(atB.podIP, 8080), `hello from b to 10.251.0.1`);

    const refilled = await sparesReady(stateDir, name, 2);
    assert.equal(refilled.filter((spare) => [spareA, spareB].includes(spare)).length, 0, 'two new spares');
    const pool = (await inspectBridge(name))?.ports.length;
    assert.equal(pool, 4, 'two pods and two spares on the bridge');

    await network.detach(a.uid);
    assert.equal(await mounted(namespacePath(atA)), false);
    assert.equal(await exists(namespacePath(atA)), false);
    assert.equal(await linkExists(`bsp${spareA.slice('_spare-'.length)}`), false, 'its veth gone');
    assert.deepEqual(await mountedIn(stateDir), [spareB, ...refilled].sort(), 'the other pod and the spares untouched');
    assert.equal(await fetchFromHost(atB.podIP, 8080), `hello from b to 10.251.0.1`);
    assert.deepEqual(Object.keys((await stateOf(stateDir)).pods), [b.uid]);
  });

  test('an agent stop drops the spares and their addresses; a restart keeps the pods and removes a crashed agent\'s spares', async () => {
    const name = bridgeName();
    const stateDir = await mkdtemp(join(tmpdir(), 'bosun-network-'));
    const first = await openNetwork({ bridgeName: name, stateDir, spareNamespaces: 2 });
    await sparesReady(stateDir, name, 2);
    await first.sparesSettled();
    const a = pod('a');
    const atA = await first.attach(a);
    const kept = namespacePath(atA).split('/').pop() ?? '';
    const spares = await sparesReady(stateDir, name, 2);

    await first.dropSpares();
    assert.deepEqual(await mountedIn(stateDir), [kept], 'only the pod\'s namespace is left');
    assert.deepEqual((await inspectBridge(name))?.ports, [`bsp${kept.slice('_spare-'.length)}`], 'and its veth');
    for (const spare of spares) assert.equal(await exists(join(stateDir, 'netns', spare)), false);
    assert.deepEqual(Object.keys((await stateOf(stateDir)).pods), [a.uid]);
    const late = pod('late');
    assert.equal(namespacePath(await first.attach(late)).split('/').pop(), late.uid, 'a pod attaching after the stop makes its own');

    // The next agent keeps the pod, makes spares of its own; it then dies without its stop, leaving them.
    const second = await openNetwork({ bridgeName: name, stateDir, spareNamespaces: 2 });
    assert.deepEqual(await second.attach(a), atA, 'the pod keeps its namespace and address');
    const crashed = await sparesReady(stateDir, name, 2);
    const crashedAddresses = await Promise.all(
      crashed.map(async (spare) => (await runHostCommand(inNamespace(join(stateDir, 'netns', spare), ['ip', '-4', '-o', 'addr', 'show', 'dev', 'eth0']))).split(/\s+/)[3]),
    );
    const third = await openNetwork({ bridgeName: name, stateDir, spareNamespaces: 2 });
    assert.deepEqual((await third.attached()).sort(), [a.uid, late.uid].sort(), 'the pods, not the spares');
    for (const spare of crashed) {
      assert.equal(await exists(join(stateDir, 'netns', spare)), false, `${spare} removed`);
      assert.equal(await linkExists(`bsp${spare.slice('_spare-'.length)}`), false);
    }
    assert.deepEqual(await third.attach(a), atA);
    const fresh = await sparesReady(stateDir, name, 2);
    assert.equal(fresh.filter((spare) => crashed.includes(spare)).length, 0);
    // The crashed spares' addresses were free again, the pod's never is.
    const b = await third.attach(pod('b'));
    assert.notEqual(b.podIP, atA.podIP);
    assert.ok(crashedAddresses.every((address) => address !== `${atA.podIP}/16`));

    await third.teardown();
    assert.deepEqual(await mountedIn(stateDir).catch(() => []), [], 'teardown leaves no namespace');
    assert.equal(await inspectBridge(name), undefined, 'nor the bridge');
  });

  test('a sandboxed container joins its pod\'s namespace and sees the pod\'s address and route', async () => {
    const network = await openNetwork({ bridgeName: bridgeName() });
    const sandbox = await openSandboxHarness();
    cleanups.push(() => sandbox.close());
    const p = pod('sandboxed');
    const attachment = await network.attach(p);
    const request = sandbox.request('sandboxed', { name: 'main', argv: ['sh', '-c', 'ip -4 -o addr show dev eth0; ip route show default'] }, { network: attachment.network });
    const exit = await (await sandbox.sandbox.start(request)).exited;
    assert.equal(exit.reason, 'Completed', exit.message);
    const [address, route] = await logContents(request.logPath);
    assert.match(address ?? '', new RegExp(`eth0\\s+inet ${attachment.podIP.replace(/\./g, '\\.')}/16 `));
    assert.match(route ?? '', new RegExp(`^default via ${network.gateway} dev eth0`));
  });

  test('a pod that cannot be attached fails alone in its batch, and leaves nothing behind', async () => {
    const name = bridgeName();
    const network = await openNetwork({ bridgeName: name });
    const pods = Array.from({ length: 6 }, (_, i) => pod(`p${i}`));
    const doomed = pods[3];
    assert.ok(doomed);
    // A device that already has the name of the doomed pod's host end makes its veth pair fail.
    await runHostCommand(['ip', 'link', 'add', vethName(doomed.uid), 'type', 'veth', 'peer', 'name', `${vethName(doomed.uid).slice(0, 13)}p`]);
    cleanups.push(() => runHostCommand(['ip', 'link', 'del', vethName(doomed.uid)]).then(() => undefined));
    const results = await Promise.allSettled(pods.map((p) => network.attach(p)));
    results.forEach((result, i) => assert.equal(result.status, i === 3 ? 'rejected' : 'fulfilled', `pod ${i}`));
    const failure = results[3];
    assert.ok(failure?.status === 'rejected');
    assert.equal((failure.reason as Error).name, 'PodNetworkError');
    assert.match((failure.reason as Error).message, new RegExp(`cannot attach pod default/p3 to ${name}: unshare --net=.*File exists`));
    assert.deepEqual((await network.attached()).sort(), pods.filter((p) => p !== doomed).map((p) => p.uid).sort());
    const stateDir = join(namespacePath((results[0] as PromiseFulfilledResult<{ network: { kind: string; path?: string } }>).value), '..', '..');
    assert.equal(await exists(join(stateDir, 'netns', doomed.uid)), false);
    assert.equal((await inspectBridge(name))?.ports.length, 5);
  });

  test('20 pods attach at once: distinct addresses, and the attach latency', async (t) => {
    const name = bridgeName();
    const network = await openNetwork({ bridgeName: name });
    const pods = Array.from({ length: 20 }, (_, i) => pod(`p${i}`));
    const latencies: number[] = [];
    const started = performance.now();
    const attachments = await Promise.all(
      pods.map(async (p) => {
        const begin = performance.now();
        const attachment = await network.attach(p);
        latencies.push(performance.now() - begin);
        return attachment;
      }),
    );
    const total = performance.now() - started;
    assert.equal(new Set(attachments.map((a) => a.podIP)).size, 20);
    const sorted = latencies.sort((x, y) => x - y);
    const sequential: number[] = [];
    for (const p of pods.slice(0, 10)) await network.detach(p.uid);
    for (const p of pods.slice(0, 10)) {
      const begin = performance.now();
      await network.attach(p);
      sequential.push(performance.now() - begin);
    }
    sequential.sort((x, y) => x - y);
    t.diagnostic(
      `20 concurrent attaches: total ${total.toFixed(0)} ms, p50 ${sorted[9]?.toFixed(0)} ms, max ${sorted[19]?.toFixed(0)} ms; ` +
        `10 one after another: p50 ${sequential[4]?.toFixed(0)} ms, max ${sequential[9]?.toFixed(0)} ms`,
    );
    const bridge = await inspectBridge(name);
    assert.equal(bridge?.ports.length, 20);
  });
});

test('without CAP_NET_ADMIN, open rejects with PodNetworkUnavailableError saying what to do', async () => {
  const stateDir = await mkdtemp(join(tmpdir(), 'bosun-network-'));
  const name = bridgeName();
  cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
  const module = new URL('../../src/node/network/bridge-network.ts', import.meta.url).href;
  const script = `
    const { BridgeNetwork } = await import(${JSON.stringify(module)});
    try { await BridgeNetwork.open({ stateDir: process.argv[1], bridgeName: process.argv[2] }); console.log('{"name":"opened"}'); }
    catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }`;
  // Root without CAP_NET_ADMIN in its bounding set: what an agent run without the capability meets.
  const output = await runHostCommand(['setpriv', '--bounding-set', '-net_admin', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script, stateDir, name]);
  const result = JSON.parse(output) as { name: string; message: string };
  assert.equal(result.name, 'PodNetworkUnavailableError');
  assert.match(result.message, new RegExp(`cannot set up the pod bridge ${name} \\(.*Operation not permitted\\): run the node agent as root`));
  assert.equal(await linkExists(name), false);
});

test('pod traffic is not routed off the machine even where the host forwards IP', async () => {
  const stateDir = await mkdtemp(join(tmpdir(), 'bosun-network-'));
  cleanups.push(() => rm(stateDir, { recursive: true, force: true }));
  const module = new URL('../../src/node/network/bridge-network.ts', import.meta.url).href;
  const commands = new URL('../../src/node/network/host-command.ts', import.meta.url).href;
  // A private network namespace stands in for a router host: ip_forward on, an uplink with a default route.
  const script = `
    const { BridgeNetwork } = await import(${JSON.stringify(module)});
    const { runHostCommand: run } = await import(${JSON.stringify(commands)});
    const routeGet = (to, from) => run(['ip', 'route', 'get', to, 'from', from, 'iif', 'bosun0']).then((out) => out.trim().split('\\n')[0], (error) => error.stderr.trim());
    await run(['sh', '-c', 'echo 1 > /proc/sys/net/ipv4/ip_forward']);
    for (const words of [['link', 'set', 'lo', 'up'], ['link', 'add', 'up0', 'type', 'veth', 'peer', 'name', 'up1'], ['link', 'set', 'up0', 'up'],
      ['link', 'set', 'up1', 'up'], ['addr', 'add', '198.51.100.1/24', 'dev', 'up0'], ['route', 'add', 'default', 'via', '198.51.100.254']]) await run(['ip', ...words]);
    const network = await BridgeNetwork.open({ stateDir: process.argv[1], spareNamespaces: 0 });
    try {
      const { podIP } = await network.attach({ uid: 'forwarding-check', name: 'p', namespace: 'default' });
      console.log(JSON.stringify({ outside: await routeGet('203.0.113.5', podIP), host: await routeGet('198.51.100.1', podIP) }));
    } finally {
      await network.teardown();
    }`;
  const output = await runHostCommand(['unshare', '--net', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script, stateDir]);
  const result = JSON.parse(output) as { outside: string; host: string };
  assert.equal(result.outside, 'RTNETLINK answers: No route to host');
  assert.match(result.host, /^local 198\.51\.100\.1 from 10\.244\.0\.2 /);
});

test('a batch of ip commands reports each failing line to its own command', async () => {
  const results = await runIpBatch([['link', 'show', 'dev', 'lo'], ['link', 'show', 'dev', 'bsnnotthere'], ['link', 'show', 'dev', 'lo']]);
  assert.equal(results[0], undefined);
  assert.equal(results[2], undefined);
  assert.equal(results[1]?.name, 'HostCommandError');
  assert.equal(results[1]?.message, 'ip link show dev bsnnotthere: Device "bsnnotthere" does not exist.');
  assert.equal(isAlreadyGone(results[1]), true);
});

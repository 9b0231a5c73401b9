// The service proxy with real pods: ClusterIP and NodePort traffic reaches ready endpoints, spread at random
// or held by ClientIP affinity, a pod reaches itself through its Service, a port without endpoints refuses at
// once, the API server behind a ClusterIP is reachable from pods, and nothing else opens: the host's loopback
// stays closed to pods and pod traffic still never leaves the machine.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { BridgeNetwork } from '../../src/node/network/bridge-network.ts';
import { runHostCommand } from '../../src/node/network/host-command.ts';
import { startServiceProxy } from '../../src/node/proxy/service-proxy.ts';
import { createLogger } from '../../src/runtime/logger.ts';
import { clusterIP, startProxyFixture, type ProxyFixture } from './proxy-fixture.ts';

// Apart from the other bridge tests' clusters, so they run side by side.
const CLUSTER = '10.243.0.0/16';

let f: ProxyFixture;
const ips: Record<string, string> = {};
before(async () => {
  f = await startProxyFixture(CLUSTER);
  const names = ['web-0', 'web-1', 'web-2'];
  const started = await Promise.all([...names.map((name) => f.backend(name)), f.client('client')]);
  names.forEach((name, i) => (ips[name] = started[i] ?? ''));
});
after(() => f.close());

// busybox 1.35's wget crashes with -T: a test's own timeout ends a hang instead.
const wget = (url: string) => ['busybox', 'wget', '-q', '-O', '-', url];

/** n HTTP requests from the client pod, each answered by a backend's name. */
async function answers(url: string, n: number, pod = 'client'): Promise<string[]> {
  const run = await f.inPod(pod, ['sh', '-c', `for i in $(seq ${n}); do busybox wget -q -O - ${url} || echo FAILED; done`]);
  assert.equal(run.exitCode, 0, run.stderr);
  return run.stdout.trim().split('\n');
}

async function nftChain(chain: string): Promise<string> {
  return runHostCommand(['nft', 'list', 'chain', 'ip', f.proxy.table, chain]);
}

test('a ClusterIP reaches its endpoint from a pod, and requests spread over all three ready endpoints', { timeout: 60_000 }, async () => {
  const ip = clusterIP();
  await f.service('one', { clusterIP: ip, endpoints: [{ ip: ips['web-0'] ?? '' }] });
  const direct = await f.inPod('client', wget(`http://${ip}/`));
  assert.equal(direct.stdout.trim(), 'web-0', direct.stderr);

  await f.service('one', { clusterIP: ip, endpoints: ['web-0', 'web-1', 'web-2'].map((name) => ({ ip: ips[name] ?? '' })) });
  // Each of 3 endpoints is missed by 30 random choices with probability (2/3)^30, about 5e-6.
  assert.deepEqual(new Set(await answers(`http://${ip}/`, 30)), new Set(['web-0', 'web-1', 'web-2']));

  // An endpoint that turns unready gets no traffic.
  await f.service('one', { clusterIP: ip, endpoints: [{ ip: ips['web-0'] ?? '' }, { ip: ips['web-1'] ?? '', ready: false }, { ip: ips['web-2'] ?? '' }] });
  assert.deepEqual(new Set(await answers(`http://${ip}/`, 30)), new Set(['web-0', 'web-2']));
});

test('sessionAffinity ClientIP keeps a client on one endpoint', { timeout: 30_000 }, async () => {
  const ip = clusterIP();
  await f.service('sticky', { clusterIP: ip, sessionAffinity: 'ClientIP', endpoints: ['web-0', 'web-1', 'web-2'].map((name) => ({ ip: ips[name] ?? '' })) });
  const seen = new Set(await answers(`http://${ip}/`, 12));
  assert.equal(seen.size, 1);
  assert.match([...seen][0] ?? '', /^web-\d$/);
  assert.match(await runHostCommand(['nft', 'list', 'sets', 'table', 'ip', f.proxy.table]), /affinity-[\s\S]*timeout 3h/);
});

test('a NodePort answers on 127.0.0.1 of the host and on the node address from pods', { timeout: 30_000 }, async () => {
  const nodePort = 30_000 + ((process.pid * 7) % 2700);
  await f.service('np', { clusterIP: clusterIP(), type: 'NodePort', ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort }], endpoints: [{ ip: ips['web-1'] ?? '' }] });
  const body = await new Promise<string>((resolve, reject) => {
    get(`http://127.0.0.1:${nodePort}/`, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });
  assert.equal(body.trim(), 'web-1');
  const fromPod = await f.inPod('client', wget(`http://${f.network.gateway}:${nodePort}/`));
  assert.equal(fromPod.stdout.trim(), 'web-1', fromPod.stderr);
});

test('hairpin: a pod reaches itself through its Service', { timeout: 30_000 }, async () => {
  const ip = clusterIP();
  await f.service('self', { clusterIP: ip, endpoints: [{ ip: ips['web-2'] ?? '' }] });
  const run = await f.inPod('web-2', wget(`http://${ip}/`));
  assert.equal(run.stdout.trim(), 'web-2', run.stderr);
});

test('a Service without endpoints, and a ClusterIP port no Service has, refuse the connection at once', { timeout: 30_000 }, async () => {
  const ip = clusterIP();
  await f.service('empty', { clusterIP: ip, endpoints: [] });
  // nc -w 10: a dropped SYN would end in "timed out", a reject in "Connection refused".
  for (const port of ['80', '81']) {
    const run = await f.inPod('client', ['busybox', 'nc', '-w', '10', ip, port]);
    assert.notEqual(run.exitCode, 0);
    assert.match(run.stderr, /Connection refused/);
  }
});

test('the kubernetes Service reaches the API server on 127.0.0.1 from a pod', { timeout: 30_000 }, async () => {
  // default/kubernetes as the API server keeps it (10.96.0.1:443 → its own 127.0.0.1:port): rules match only this
  // node's pods, so other clusters' 10.96.0.1 on the machine do not interfere.
  const ip = '10.96.0.1';
  const script = `import ssl, urllib.request\nprint(urllib.request.urlopen('https://${ip}/healthz', context=ssl._create_unverified_context(), timeout=10).read().decode())`;
  const run = await f.inPod('client', ['python3', '-c', script]);
  assert.equal(run.stdout.trim(), 'ok', run.stderr);
});

test('a UDP Service reaches a server on the node gateway (the kube-dns path) and the reply comes back', { timeout: 30_000 }, async () => {
  const server = createSocket('udp4');
  server.on('message', (message, from) => server.send(`echo ${message.toString()}`, from.port, from.address));
  await new Promise<void>((resolve) => server.bind(0, f.network.gateway, resolve));
  try {
    const ip = clusterIP();
    await f.service('dns', { clusterIP: ip, ports: [{ name: 'dns', protocol: 'UDP', port: 53, targetPort: server.address().port }], endpoints: [{ ip: f.network.gateway }] });
    const script = `import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\ns.settimeout(10)\ns.sendto(b'query', ('${ip}', 53))\ndata, source = s.recvfrom(100)\nprint(data.decode(), source[0], source[1])`;
    const run = await f.inPod('client', ['python3', '-c', script]);
    // The reply comes from the ClusterIP and port the pod asked, as a resolver requires.
    assert.equal(run.stdout.trim(), `echo query ${ip} 53`, run.stderr);
  } finally {
    server.close();
  }
});

test('a pod cannot reach any other loopback port of the host, even routing 127.0.0.1 to the node itself', { timeout: 60_000 }, async () => {
  // The client pod's network namespace, entered with NET_ADMIN (which no untrusted pod has), routes the host's
  // 127.0.0.1 through its gateway, sends there, then a marker to the gateway: the marker arriving while the
  // loopback socket got nothing shows the loopback datagram dropped.
  const loopback = createSocket('udp4');
  const gateway = createSocket('udp4');
  const received: string[] = [];
  loopback.on('message', (message) => received.push(message.toString()));
  await new Promise<void>((resolve) => loopback.bind(0, '127.0.0.1', resolve));
  const port = loopback.address().port;
  await new Promise<void>((resolve) => gateway.bind(port, f.network.gateway, resolve));
  const marker = new Promise<string>((resolve) => gateway.once('message', (message) => resolve(message.toString())));
  try {
    const gw = f.network.gateway;
    const script = [
      'ip route del local 127.0.0.1 dev lo table local',
      `ip route add 127.0.0.1/32 via ${gw} dev eth0`,
      'sysctl -qw net.ipv4.conf.all.route_localnet=1 net.ipv4.conf.eth0.route_localnet=1',
      `python3 -c "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'loopback', ('127.0.0.1', ${port})); s.sendto(b'marker', ('${gw}', ${port}))"`,
    ].join(' && ');
    const run = await f.inPodNetwork('client', ['sh', '-c', script]);
    assert.equal(run.exitCode, 0, run.stderr);
    assert.equal(await marker, 'marker');
    assert.deepEqual(received, []);
    assert.match(await nftChain('filter-input'), /ip daddr 127\.0\.0\.0\/8 .*counter packets [1-9]/);
  } finally {
    loopback.close();
    gateway.close();
  }
});

test('pod traffic to an address off the machine is refused on the bridge, with forwarding on', { timeout: 30_000 }, async () => {
  assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/forwarding`])).trim(), '1');
  // TEST-NET-3: not this machine, whatever its own addresses.
  const run = await f.inPod('client', ['busybox', 'nc', '-w', '10', '203.0.113.7', '80']);
  assert.notEqual(run.exitCode, 0);
  assert.match(run.stderr, /Connection refused/);
  assert.match(await nftChain('filter-forward'), /oifname != "[^"]+" counter packets [1-9]\d* bytes \d+ goto refuse-off-machine/);
});

test('stopping the proxy deletes its table and turns forwarding off; starting replaces a leftover table', { timeout: 30_000 }, async () => {
  const table = f.proxy.table;
  await f.proxy.stop();
  assert.doesNotMatch(await runHostCommand(['nft', 'list', 'tables', 'ip']), new RegExp(`table ip ${table}\\n`));
  assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/forwarding`])).trim(), '0');
  assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/route_localnet`])).trim(), '0');

  // What a crashed agent left: the next start replaces it whole.
  await runHostCommand(['nft', '-f', '-'], `table ip ${table} {\n\tchain leftover {\n\t}\n}\n`);
  const proxy = await f.restartProxy();
  const listing = await runHostCommand(['nft', 'list', 'table', 'ip', table]);
  assert.doesNotMatch(listing, /chain leftover/);
  assert.match(listing, /map service-ips/);

  // A second proxy on the same bridge (another node's block) keeps forwarding on when the first stops.
  const other = await startServiceProxy({ client: f.h.client, bridge: f.bridge, podCIDR: '10.243.200.0/24', logger: createLogger({ level: 'silent' }) });
  const stateDir = await mkdtemp(join(tmpdir(), 'bosun-proxy-second-'));
  try {
    // Another agent's pod network opening on the bridge leaves forwarding as the proxies set it.
    const second = await BridgeNetwork.open({ stateDir, bridgeName: f.bridge, clusterCIDR: CLUSTER });
    assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/forwarding`])).trim(), '1');
    await second.teardown();
    await proxy.stop();
    assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/forwarding`])).trim(), '1');
  } finally {
    await other.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
  assert.equal((await runHostCommand(['cat', `/proc/sys/net/ipv4/conf/${f.bridge}/forwarding`])).trim(), '0');
  await f.restartProxy();
});

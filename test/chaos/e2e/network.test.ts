// Network and dns disruptions against real pods on `bosun up`, on this machine's kernel (no tc qdiscs,
// nftables): upstream's example manifests applied with kubectl (the namespace, and the host a filter names,
// set to this test's), and what they do measured from inside the pods. Hosts are pods on the bridge running
// busybox httpd; the target fetches with wget (a pod sees the host's tools: busybox-static's own wget
// crashes here) and asks DNS with busybox nslookup.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { Disruption } from '../../../src/chaos/api/types.ts';
import { spawnSync } from 'node:child_process';
import { containerCgroup, createRunningPod, deleteDisruptionAndWait, eventsFor, expectStatus, freshNamespace, getDisruption, startChaosUp, until, workloadPod, type ChaosUp } from './chaos-up.ts';

const EXAMPLES = join(import.meta.dirname, '..', 'upstream', 'examples');

/** Upstream's example, in this test's namespace, with its spec changed by `edit`. */
function example(file: string, namespace: string, edit: (d: Disruption) => void = () => undefined): string {
  const disruption = parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Disruption;
  disruption.metadata.namespace = namespace;
  edit(disruption);
  return stringify(disruption);
}

/** busybox httpd on 8080 serving /www: `index.html` says ok, `big` is 32 MiB. */
function httpd(namespace: string, labels: Record<string, string>): KubeObject {
  const script = 'echo ok > /www/index.html && dd if=/dev/zero of=/www/big bs=1M count=32 2>/dev/null && exec /bin/busybox httpd -f -p 8080 -h /www';
  const pod = workloadPod(namespace, { labels, command: ['sh', '-c', script] });
  (pod['spec'] as { containers: { volumeMounts: unknown[] }[]; volumes: unknown[] }).containers[0]!.volumeMounts = [{ name: 'www', mountPath: '/www' }];
  (pod['spec'] as { volumes: unknown[] }).volumes = [{ name: 'www', emptyDir: {} }];
  return pod;
}

/** The nftables ruleset of the pod's network namespace, as the node sees it (through its container's first process). */
function podRuleset(pod: KubeObject): string {
  const cgroup = containerCgroup('pids', pod, 'ctn1');
  assert.ok(cgroup, 'the pids cgroup of the pod');
  const pid = readFileSync(join(cgroup, 'cgroup.procs'), 'utf8').split('\n')[0] ?? '';
  const result = spawnSync('nsenter', [`--net=/proc/${pid}/ns/net`, 'nft', 'list', 'ruleset'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  return result.stdout;
}

const ipOf = (pod: KubeObject): string => ((pod['status'] ?? {}) as { podIP?: string }).podIP ?? '';

describe('chaos e2e: network and dns disruptions on nftables', { timeout: 900_000 }, () => {
  let c: ChaosUp;
  let ns: string;
  let target: KubeObject;
  let serverA: KubeObject;
  let serverB: KubeObject;

  /** The pod's GET of the URL (2 s to connect): whether it got the page. */
  const gets = async (from: KubeObject, url: string): Promise<boolean> => {
    const result = await c.up.kubectl(['exec', '-n', ns, from.metadata.name ?? '', '--', 'wget', '-q', '-t', '1', '-T', '2', '-O', '-', url]);
    return result.code === 0 && result.stdout.trim() === 'ok';
  };
  /** The target's GET of http://IP:8080/. */
  const fetches = (from: KubeObject, ip: string, path = ''): Promise<boolean> => gets(from, `http://${ip}:8080/${path}`);

  before(async () => {
    c = await startChaosUp();
    ns = await freshNamespace(c, 'net');
    [target, serverA, serverB] = await Promise.all([
      createRunningPod(c, workloadPod(ns, { labels: { service: 'demo-curl' } })),
      createRunningPod(c, httpd(ns, { role: 'server-a' })),
      createRunningPod(c, httpd(ns, { role: 'server-b' })),
    ]);
    for (const server of [serverA, serverB]) await until(`${server.metadata.name ?? ''} answers`, async () => ((await fetches(target, ipOf(server))) ? true : undefined));
  });
  after(async () => {
    await c?.close();
  });

  it("upstream's drop example with a host filter: connections to that host fail, to another host work, and work again after deletion", async () => {
    const manifest = example('network_allowed_hosts.yaml', ns, (d) => {
      d.spec.network!.hosts![0]!.host = ipOf(serverA);
    });
    await c.up.ok(['apply', '-f', '-'], manifest);
    await expectStatus(c, ns, ['Injected'], undefined, 'network-drop');
    assert.equal(await fetches(target, ipOf(serverA)), false, 'server A (the filtered host) is cut off');
    assert.equal(await fetches(target, ipOf(serverB)), true, 'server B is reachable');
    assert.match(podRuleset(target), new RegExp(`table inet bosun-chaos \\{[^]*ip daddr ${ipOf(serverA).replaceAll('.', '\\.')} tcp dport 8080 goto disrupt`));
    await deleteDisruptionAndWait(c, ns, 'network-drop');
    assert.equal(podRuleset(target).trim(), '', 'the table is gone');
    assert.equal(await fetches(target, ipOf(serverA)), true, 'server A is reachable again');
  });

  it("upstream's services filter example: the target's requests to the Service and to its pods fail, another Service works, the Service's new pod is covered, all work again after deletion", async (t) => {
    await c.up.ok(['create', 'deployment', 'echo', '-n', ns, '--image=busybox', '--', 'sh', '-c', 'mkdir -p /tmp/www && echo ok > /tmp/www/index.html && exec busybox httpd -f -p 8080 -h /tmp/www']);
    await c.up.ok(['rollout', 'status', '-n', ns, 'deployment/echo', '--timeout=90s']);
    await c.up.ok(['expose', 'deployment', 'echo', '-n', ns, '--port', '80', '--target-port', '8080']);
    await c.up.ok(['expose', 'pod', serverB.metadata.name ?? '', '-n', ns, '--name', 'other', '--port', '80', '--target-port', '8080']);
    const echoIPs = async () => (await c.up.ok(['get', 'pods', '-n', ns, '-l', 'app=echo', '-o', 'jsonpath={.items[*].status.podIP}'])).trim().split(' ').filter((ip) => ip !== '');
    const [firstIP = ''] = await echoIPs();
    // The proxy programs a new Service asynchronously: wait until both answer through it.
    for (const url of ['http://echo', 'http://other']) await until(`${url} answers the target`, async () => ((await gets(target, url)) ? true : undefined));

    const manifest = example('network_filter_service.yaml', ns, (d) => {
      d.spec.network!.services = [{ name: 'echo', namespace: ns }];
    });
    await c.up.ok(['apply', '-f', '-'], manifest);
    await expectStatus(c, ns, ['Injected'], undefined, 'network-filter-service');
    const clusterIP = (await c.up.ok(['get', 'svc', 'echo', '-n', ns, '-o', 'jsonpath={.spec.clusterIP}'])).trim();
    const rules = podRuleset(target);
    t.diagnostic(rules);
    assert.match(rules, new RegExp(`ip daddr ${clusterIP.replaceAll('.', '\\.')} tcp dport 80 goto disrupt`), 'the ClusterIP on the Service port');
    assert.match(rules, new RegExp(`ip daddr ${firstIP.replaceAll('.', '\\.')} tcp dport 8080 goto disrupt`), 'the pod on the target port');
    assert.equal(await gets(target, 'http://echo'), false, 'the Service, through the proxy, is cut off');
    assert.equal(await fetches(target, firstIP), false, 'its pod is cut off');
    assert.equal(await gets(target, 'http://other'), true, 'another Service works');
    assert.equal(await fetches(target, ipOf(serverA)), true, 'a pod of no Service works');

    await c.up.ok(['scale', 'deployment/echo', '-n', ns, '--replicas=2']);
    await c.up.ok(['rollout', 'status', '-n', ns, 'deployment/echo', '--timeout=90s']);
    const secondIP = (await echoIPs()).find((ip) => ip !== firstIP) ?? '';
    assert.notEqual(secondIP, '', 'the second pod has an address');
    // The injector replaces the table when the agent reports the new endpoint.
    await until(`the new pod ${secondIP} in the target's table`, async () => (podRuleset(target).includes(`ip daddr ${secondIP} tcp dport 8080 goto disrupt`) ? true : undefined));
    assert.equal(await fetches(target, secondIP), false, 'the new pod is cut off too');
    assert.equal(await gets(target, 'http://echo'), false, 'the Service still is');

    await deleteDisruptionAndWait(c, ns, 'network-filter-service');
    assert.equal(podRuleset(target).trim(), '', 'the table is gone');
    assert.equal(await gets(target, 'http://echo'), true, 'the Service answers again');
    for (const ip of [firstIP, secondIP]) assert.equal(await fetches(target, ip), true, `pod ${ip} answers again`);
  });

  it("upstream's dns example: the target resolves the disrupted name to the configured answers, whatever server it asks", async () => {
    await c.up.ok(['apply', '-f', '-'], example('network_dns_disruption_mixed.yaml', ns));
    await expectStatus(c, ns, ['Injected'], undefined, 'dns-mixed-records');
    const answers = new Set<string>();
    for (let i = 0; i < 3; i++) {
      // 198.51.100.53 is no server at all (TEST-NET-2): the redirect answers for it
      const result = await c.up.kubectl(['exec', '-n', ns, target.metadata.name ?? '', '--', '/bin/busybox', 'nslookup', '-type=a', 'www.example.com', '198.51.100.53']);
      assert.equal(result.code, 0, result.stdout + result.stderr);
      for (const m of result.stdout.matchAll(/Address: (192\.168\.1\.\d+)/g)) answers.add(m[1] ?? '');
    }
    assert.deepEqual([...answers].sort(), ['192.168.1.10', '192.168.1.11', '192.168.1.12'], 'the configured addresses, in turn');
    assert.match(podRuleset(target), /table inet bosun-chaos-dns \{/);
    await deleteDisruptionAndWait(c, ns, 'dns-mixed-records');
    assert.equal(podRuleset(target).trim(), '', 'the table is gone');
    const after = await c.up.kubectl(['exec', '-n', ns, target.metadata.name ?? '', '--', '/bin/busybox', 'nslookup', '-type=a', 'www.example.com', '198.51.100.53']);
    assert.doesNotMatch(after.stdout, /192\.168\.1\./, 'the redirect is gone');
  });

  it("upstream's delay example is refused, the disruption's events naming the missing kernel feature", async (t) => {
    await c.up.ok(['apply', '-f', '-'], example('network_delay.yaml', ns));
    const event = await until('an event naming the missing qdisc', async () => (await eventsFor(c, ns, 'Disruption', 'network-delay')).find((e) => /sch_netem/.test(e.message ?? '')));
    t.diagnostic(`${event.reason ?? ''}: ${event.message ?? ''}`);
    assert.match(event.message ?? '', /the kernel has no sch_netem qdisc .*network disruptions with delay cannot run on this node/);
    const status = (await getDisruption(c, ns, 'network-delay'))?.status?.injectionStatus ?? '';
    t.diagnostic(`injectionStatus: ${status}`);
    assert.ok(!['Injected', 'PausedInjected', 'PreviouslyInjected'].includes(status), status);
    try {
      await deleteDisruptionAndWait(c, ns, 'network-delay');
    } catch (err) {
      // what the deletion waits for, for whoever reads the failure
      t.diagnostic(JSON.stringify(await eventsFor(c, ns, 'Disruption', 'network-delay')));
      t.diagnostic((await c.up.kubectl(['get', 'pods', '-n', 'chaos-engineering', '-o', 'yaml'])).stdout);
      throw err;
    }
  });

  it('a bandwidth limit caps what the target sends: bytes received in a 5 s window stay under 3× the limit', async (t) => {
    const LIMIT = 65536;
    const download = async (): Promise<number> => {
      const stdout = await c.up.ok(['exec', '-n', ns, target.metadata.name ?? '', '--', 'sh', '-c', `timeout 5 wget -q -t 1 -O - http://${ipOf(serverA)}:8080/big | wc -c`]);
      return Number(stdout.trim());
    };
    const before = await download();
    assert.equal(before, 32 * 1024 * 1024, 'without the disruption the whole file arrives in the window');
    const manifest = example('network_bandwidth_limitation.yaml', ns, (d) => {
      d.spec.selector = { role: 'server-a' };
      d.spec.network!.bandwidthLimit = LIMIT;
    });
    await c.up.ok(['apply', '-f', '-'], manifest);
    await expectStatus(c, ns, ['Injected'], undefined, 'network-bandwidth-limitation');
    const during = await download();
    t.diagnostic(`received in 5 s: ${before} bytes without the limit, ${during} with ${LIMIT} B/s`);
    assert.ok(during > 0, 'traffic still flows');
    assert.ok(during < 3 * (LIMIT * 5 + 65536), `${during} bytes in 5 s at ${LIMIT} B/s`);
    await deleteDisruptionAndWait(c, ns, 'network-bandwidth-limitation');
    assert.equal(await download(), 32 * 1024 * 1024, 'the limit is gone');
  });
});

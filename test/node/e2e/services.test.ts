// The service proxy that `bosun up`'s node runs, with real kubectl: a Service applied (its EndpointSlice written
// by the endpointslice controller), a pod reaches the ClusterIP, the host reaches the NodePort on 127.0.0.1, and
// the node's nft table goes with the node when bosun stops.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { runHostCommand } from '../../../src/node/network/host-command.ts';
import { proxyTableName } from '../../../src/node/proxy/service-proxy.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

const pod = (name: string, script: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: name } },
    spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', script] }] },
  });

/** Retries with exponential backoff: nothing announces that the node has programmed its rules. */
async function retry<T>(attempt: () => Promise<T>, what: string, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (let delay = 20; ; delay = Math.min(delay * 2, 1000)) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > end) throw new Error(`${what}: ${(error as Error).message}`, { cause: error });
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** One try: a SYN that a rule not yet updated sends to a pod's old address is answered by nothing. */
function httpGet(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = get(url, { timeout: 3_000 }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} in 3 s`)));
    request.on('error', reject);
  });
}

// A bridge and cluster CIDR of its own: a node block this test's node frees at the restart is not taken by
// another test's node on bosun0, whose table would then carry the same name.
const BRIDGE = `sv${process.pid % 100000}`;
const CLUSTER = '10.249.0.0/16';

describe('Services on bosun up', () => {
  let up: BosunUp;
  let closed = false;
  before(async () => {
    up = await startBosunUp(['--bridge', BRIDGE, '--cluster-cidr', CLUSTER]);
  });
  after(async () => {
    if (!closed) await up.close();
  });

  test('a pod reaches a ClusterIP, the host a NodePort on 127.0.0.1; the table goes when bosun stops', { timeout: 240_000 }, async () => {
    await up.ok(['apply', '-f', '-'], pod('echo', 'mkdir -p /tmp/www && echo hello from echo > /tmp/www/index.html && exec busybox httpd -f -p 8080 -h /tmp/www'));
    await up.ok(['apply', '-f', '-'], pod('client', 'exec sleep 3600'));
    await up.ok(['wait', '--for=condition=Ready', 'pod/echo', 'pod/client', '--timeout=60s']);
    const clusterIP = `10.${96 + (process.pid % 16)}.${(process.pid >> 4) % 256}.200`;
    const nodePort = 30_000 + ((process.pid * 13) % 2700);
    await up.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo' }, spec: { type: 'NodePort', clusterIP, selector: { app: 'echo' }, ports: [{ name: 'http', port: 80, targetPort: 8080, nodePort }] } }));
    const podIP = await up.ok(['get', 'pod', 'echo', '-o', 'jsonpath={.status.podIP}']);
    const fromPod = await retry(() => up.ok(['exec', 'client', '--', 'busybox', 'wget', '-qO-', `http://${clusterIP}/`]), 'the ClusterIP from a pod');
    assert.equal(fromPod, 'hello from echo\n');
    assert.equal(await retry(() => httpGet(`http://127.0.0.1:${nodePort}/`), 'the NodePort on 127.0.0.1'), 'hello from echo\n');

    // The node's block: the pod's /24 (bosun up's default node CIDR mask).
    const table = proxyTableName(BRIDGE, `${podIP.replace(/\.\d+$/, '.0')}/24`);
    assert.match(await runHostCommand(['nft', 'list', 'tables', 'ip']), new RegExp(`table ip ${table}\\n`));
    await up.restart();
    // Pods start again after a restart, with new addresses (maybe of another node block); the endpointslice
    // controller follows the pod, and the restarted node replaced its table.
    const again = await retry(() => httpGet(`http://127.0.0.1:${nodePort}/`), 'the NodePort after a restart', 90_000);
    assert.equal(again, 'hello from echo\n');
    const restartedIP = await up.ok(['get', 'pod', 'echo', '-o', 'jsonpath={.status.podIP}']);
    const restartedTable = proxyTableName(BRIDGE, `${restartedIP.replace(/\.\d+$/, '.0')}/24`);
    closed = true;
    await up.close();
    assert.doesNotMatch(await runHostCommand(['nft', 'list', 'tables', 'ip']), new RegExp(`table ip (${table}|${restartedTable})\\n`));
    // The bridge goes with the last node on it.
    await assert.rejects(runHostCommand(['ip', 'link', 'show', BRIDGE]));
  });
});

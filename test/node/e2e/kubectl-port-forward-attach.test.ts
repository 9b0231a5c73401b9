// Issue 21's port-forward and attach, with real kubectl against `bosun up`: port-forward carries HTTP from the
// host to `busybox httpd` in a pod (WebSocket-tunnelled SPDY for today's kubectl, raw SPDY for 1.29 and 1.30),
// a refused port is kubectl's error, `kubectl attach` follows live output and `kubectl run -it --rm` gives a
// shell on a terminal and removes the pod.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { spdyRefusal } from '../../../src/node/kubelet-api/server.ts';
import { runToEnd } from '../../helpers/bosun-process.ts';
import type { KubectlStream } from '../../helpers/kubectl.ts';
import { startBosunUp, type BosunUp } from './bosun-up.ts';

/** busybox-static's httpd, serving a directory that holds a file named after the test. */
const HTTPD = ['sh', '-c', 'mkdir -p /tmp/www && echo "hello from $(hostname)" > /tmp/www/index.html && exec /bin/busybox httpd -f -p 8080 -h /tmp/www'];

function quoted(words: string[]): string {
  return words.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
}

/** The local port kubectl chose for `:REMOTE`, from its "Forwarding from 127.0.0.1:L -> R" line. */
async function forwardedPort(forward: KubectlStream): Promise<number> {
  const [line] = await forward.waitForLines(1, 30_000);
  const match = /^Forwarding from 127\.0\.0\.1:(\d+) -> \d+$/.exec(line ?? '');
  assert.ok(match, `kubectl port-forward said: ${line}; stderr: ${forward.stderr()}`);
  return Number(match[1]);
}

describe('port-forward and attach on bosun up with real kubectl', () => {
  let up: BosunUp;
  const ok = (args: string[], input?: string): Promise<string> => up.ok(args, input);
  /** A kubectl of a given minor version, bypassing the dispatcher's choice. */
  const kubectlVersion = (minor: number) => `/usr/lib/google-cloud-sdk/bin/kubectl.1.${minor}`;
  const base = () => ['--kubeconfig', join(up.dataDir, 'kubeconfig'), '--cache-dir', up.kubectl.cacheDir];

  before(async () => {
    up = await startBosunUp();
    await ok(['run', 'web', '--image=busybox', '--restart=Never', '--', ...HTTPD]);
    await ok(['create', 'deployment', 'webs', '--image=busybox', '--', ...HTTPD]);
    // kubectl resolves svc/ to a pod by the selector and the port by targetPort, on its own side.
    await ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { run: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] } }));
    await ok(['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
    await ok(['rollout', 'status', 'deployment/webs', '--timeout=60s']);
  });
  after(async () => {
    await up.close();
  });

  test('discovery lists pods/portforward and pods/attach with create and get', async () => {
    const v1 = JSON.parse(await ok(['get', '--raw', '/api/v1'])) as { resources: { name: string; verbs: string[] }[] };
    for (const name of ['pods/portforward', 'pods/attach']) {
      assert.deepEqual(v1.resources.find((r) => r.name === name)?.verbs, ['create', 'get'], name);
    }
  });

  test('kubectl port-forward pod/web, deploy/webs and svc/web carry HTTP from the host', async () => {
    for (const [target, remote] of [['pod/web', '8080'], ['deploy/webs', '8080'], ['svc/web', '80']] as const) {
      const forward = up.kubectl.stream(['port-forward', target, `:${remote}`]);
      try {
        const port = await forwardedPort(forward);
        for (let i = 0; i < 3; i++) {
          const response = await fetch(`http://127.0.0.1:${port}/`);
          assert.equal(response.status, 200);
          assert.match(await response.text(), target === 'deploy/webs' ? /^hello from webs-/ : /^hello from web\n$/);
        }
      } finally {
        await forward.stop();
      }
    }
  });

  test('kubectl 1.29 and 1.30 (SPDY upgrade) and 1.33 (SPDY in a WebSocket) port-forward', { timeout: 120_000 }, async () => {
    for (const minor of [29, 30, 33]) {
      const child = spawn(kubectlVersion(minor), [...base(), 'port-forward', 'pod/web', ':8080', '-v=6']);
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString();
          const match = /Forwarding from 127\.0\.0\.1:(\d+)/.exec(stdout);
          if (match) resolve(Number(match[1]));
        });
        child.once('close', () => reject(new Error(`kubectl 1.${minor} ended: ${stderr}`)));
      });
      try {
        const response = await fetch(`http://127.0.0.1:${port}/`);
        assert.equal(await response.text(), 'hello from web\n', `kubectl 1.${minor}`);
        // 1.31 made the WebSocket tunnel kubectl's default; before, the SPDY upgrade (a POST) is all it tries.
        if (minor >= 31) assert.match(stderr, /negotiated protocol: portforward\.k8s\.io/, `kubectl 1.${minor}: ${stderr}`);
        else assert.match(stderr, /POST https:\/\/\S+\/pods\/web\/portforward 101 Switching Protocols/, `kubectl 1.${minor}: ${stderr}`);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('close', resolve));
      }
    }
  });

  test('a port nothing listens on: kubectl prints kubelet\'s error, the pod forwards again afterwards', async () => {
    const refused = up.kubectl.stream(['port-forward', 'pod/web', ':9999']);
    const port = await forwardedPort(refused);
    // The connection is accepted locally and closed once the pod's side refuses.
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`));
    // Every kubectl since 1.27 closes its session after an error on the error stream ("lost connection to pod").
    await refused.waitForStderr(/an error occurred forwarding \d+ -> 9999: error forwarding port 9999 to pod web, uid [-0-9a-f]+: dial tcp4 10\.244\.\d+\.\d+:9999: connect: connection refused/, 30_000);
    await refused.waitForStderr(/lost connection to pod/, 30_000);
    await refused.stop();
    const again = up.kubectl.stream(['port-forward', 'pod/web', ':8080']);
    try {
      assert.equal(await (await fetch(`http://127.0.0.1:${await forwardedPort(again)}/`)).text(), 'hello from web\n');
    } finally {
      await again.stop();
    }
  });

  test('kubectl attach follows the live output, not the log from its start', async () => {
    await ok(['run', 'ticker', '--image=busybox', '--restart=Never', '--', 'sh', '-c', 'i=0; while true; do i=$((i+1)); echo "tick $i"; sleep 0.2; done']);
    await ok(['wait', '--for=condition=Ready', 'pod/ticker', '--timeout=60s']);
    const logged = up.kubectl.stream(['logs', '-f', 'ticker']);
    await logged.waitForLines(3, 30_000);
    await logged.stop();
    const attach = up.kubectl.stream(['attach', 'ticker']);
    try {
      const lines = await attach.waitForLines(3, 30_000);
      const ticks = lines.map((line) => Number(/^tick (\d+)$/.exec(line)?.[1]));
      assert.ok(ticks.every((tick) => tick > 3), `attach replayed the log: ${JSON.stringify(lines)}`);
      assert.deepEqual(ticks, ticks.map((_, i) => ticks[0]! + i), 'consecutive live lines');
    } finally {
      await attach.stop();
    }
    // Detaching leaves the container running.
    assert.equal(await ok(['get', 'pod', 'ticker', '-o', 'jsonpath={.status.containerStatuses[0].state.running.startedAt}']) !== '', true);
    const old = await runToEnd(kubectlVersion(29), [...base(), 'attach', 'ticker']);
    assert.notEqual(old.code, 0);
    assert.ok(old.stderr.includes(spdyRefusal('attach')), old.stderr);
  });

  test('kubectl run -it --rm gives a shell on a terminal and deletes the pod on exit', { timeout: 120_000 }, async () => {
    const command = ['kubectl', ...base(), 'run', '-it', '--rm', 'shell', '--image=busybox', '--restart=Never', '--', 'sh'];
    // kubectl wants a terminal of its own for -t: script(1) gives it one, and this test types into it.
    const child = spawn('script', ['-q', '-e', '-c', `stty rows 30 cols 100; exec ${quoted(command)}`, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const waiters = new Set<() => void>();
    const seen = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the terminal did not show ${String(pattern)} within 30 s: ${JSON.stringify(output)}`));
        }, 30_000);
        const check = () => {
          if (pattern.test(output)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      });
    const collect = (d: Buffer) => {
      output += d.toString();
      for (const check of [...waiters]) check();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    await seen(/If you don't see a command prompt/);
    child.stdin.write('echo "answer: $((6*7))"\r');
    await seen(/answer: 42\r\n/);
    // The size kubectl read from its terminal reached the container's (its first resize message, sent on attach).
    child.stdin.write('stty size\r');
    await seen(/\r\n30 100\r\n/);
    child.stdin.write('exit\r');
    assert.equal(await closed, 0, output);
    assert.match(output, /pod "shell" deleted/);
    const gone = await up.kubectl(['get', 'pod', 'shell']);
    assert.match(gone.stderr, /pods "shell" not found/);
  });
});

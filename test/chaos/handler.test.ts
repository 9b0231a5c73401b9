// onInit disruptions' chaos handler: the pod mutating webhook's init container and `bosun chaos-handler` as the
// init container runs it (a real process, released by a real SIGUSR1).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { handlerArgs, handlerMutator, HANDLER_SUCCEED_ON_TIMEOUT_ANNOTATION, HANDLER_TIMEOUT_ANNOTATION } from '../../src/chaos/webhook/handler-mutator.ts';
import type { AdmissionRequest } from '../../src/runtime/webhook/index.ts';
import { bin } from '../helpers/bosun-process.ts';

const settings = { image: 'datadog/chaos-handler:13.4.0', timeoutMs: 600_000, maxTimeoutMs: 7_200_000, resources: { cpu: '10m', memory: '5Mi' } };
const raised = { cpu: '100m', memory: '64Mi' };

function run(args: string[], signalAfterMs?: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'chaos-handler', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // Released once it says it waits: the handler has its SIGUSR1 listener by then.
      if (signalAfterMs !== undefined && stdout.includes('waiting for SIGUSR1')) setTimeout(() => child.kill('SIGUSR1'), signalAfterMs);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout }));
  });
}

describe('chaos handler', () => {
  it('takes the default timeout, the annotation override and succeed-on-timeout as upstream', () => {
    assert.deepEqual(handlerArgs({}, settings), ['--timeout', '10m0s']);
    assert.deepEqual(handlerArgs({ [HANDLER_TIMEOUT_ANNOTATION]: '30s', [HANDLER_SUCCEED_ON_TIMEOUT_ANNOTATION]: '' }, settings), ['--timeout', '30s', '--succeed-on-timeout']);
    assert.deepEqual(handlerArgs({ [HANDLER_TIMEOUT_ANNOTATION]: 'soon' }, settings), ['--timeout', '10m0s'], 'an unparseable override keeps the default');
    assert.deepEqual(handlerArgs({ [HANDLER_TIMEOUT_ANNOTATION]: '3h' }, settings), { refused: 'you have requested a handler timeout of 3h0m0s but the maximum allowed timeout is 2h0m0s' });
  });

  it('puts the handler first among the init containers of a created pod', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'app', labels: { 'chaos.datadoghq.com/disrupt-on-init': 'true' } }, spec: { initContainers: [{ name: 'setup', image: 'busybox' }], containers: [{ name: 'app', image: 'busybox' }] } };
    const response = await handlerMutator(settings)({ operation: 'CREATE', object: pod } as unknown as AdmissionRequest);
    assert.equal(response.allowed, true);
    const patch = (response.patch ?? []) as { op: string; path: string; value?: unknown }[];
    assert.deepEqual(patch, [
      {
        op: 'replace',
        path: '/spec/initContainers',
        value: [
          // Upstream's chart's 10m and 5Mi would starve a Node.js process: raised to what it needs.
          { name: 'chaos-handler', image: settings.image, imagePullPolicy: 'IfNotPresent', args: ['--timeout', '10m0s'], resources: { limits: raised, requests: raised } },
          { name: 'setup', image: 'busybox' },
        ],
      },
    ]);
    const refused = await handlerMutator(settings)({ operation: 'CREATE', object: { ...pod, metadata: { ...pod.metadata, annotations: { [HANDLER_TIMEOUT_ANNOTATION]: '5h' } } } } as unknown as AdmissionRequest);
    assert.equal(refused.allowed, false);
    assert.match(refused.result?.message ?? '', /maximum allowed timeout is 2h0m0s/);
  });

  it('exits 0 on SIGUSR1, 1 on timeout, 0 on timeout with --succeed-on-timeout', async () => {
    const released = await run(['--timeout', '1m'], 50);
    assert.equal(released.code, 0, released.stdout);
    assert.match(released.stdout, /SIGUSR1 received/);
    assert.equal((await run(['--timeout', '200ms'])).code, 1);
    assert.equal((await run(['--timeout', '200ms', '--succeed-on-timeout'])).code, 0);
  });
});

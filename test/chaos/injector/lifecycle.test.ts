// The lifecycle with recording kinds (the host kinds have their own tests on real cgroups): which injections,
// cleans, waits, retries and finalizer removals happen, and the exit status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DisruptionKindName } from '../../../src/chaos/api/constants.ts';
import type { InjectorContext, KindDefinition } from '../../../src/chaos/injector/injector.ts';
import type { RuntimeContainer } from '../../../src/client/node-runtime/protocol.ts';
import { runLifecycle } from '../../../src/chaos/injector/lifecycle.ts';
import { createInjectorLogger } from '../../../src/chaos/injector/logger.ts';
import { parseCommonOptions, type RawCommonOptions } from '../../../src/chaos/injector/options.ts';
import { stripRuntimeScheme } from '../../../src/chaos/injector/targets.ts';
import { parseGoDuration } from '../../../src/chaos/injector/durations.ts';
import { FeatureUnavailableError } from '../../../src/chaos/injector/kinds/feature-probes.ts';
import { MemoryPort } from './memory-port.ts';

interface Behaviour {
  injectFails?: boolean;
  /** inject fails because the node lacks a feature. */
  injectUnsupported?: boolean;
  /** How many clean attempts fail before one succeeds (Infinity: all). */
  cleanFailures?: number;
  /** inject waits for the abort signal. */
  injectHangs?: boolean;
}

function recordingKind(name: DisruptionKindName, behaviour: Behaviour = {}): { kind: KindDefinition; events: string[] } {
  const events: string[] = [];
  let cleanFailures = behaviour.cleanFailures ?? 0;
  const kind: KindDefinition = {
    name,
    options: [],
    create: (ctx: InjectorContext) => {
      const target = ctx.target.container?.id ?? 'node';
      return {
        kind: name,
        inject: async () => {
          events.push(`inject ${target}`);
          if (behaviour.injectHangs) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
          if (behaviour.injectFails) throw new Error('injection refused (test)');
          if (behaviour.injectUnsupported) throw new FeatureUnavailableError('network disruptions with delay', [{ missing: 'the kernel has no sch_netem qdisc', evidence: 'test' }]);
        },
        clean: () => {
          events.push(`clean ${target}`);
          if (cleanFailures > 0) {
            cleanFailures--;
            return Promise.reject(new Error('clean refused (test)'));
          }
          return Promise.resolve();
        },
      };
    },
  };
  return { kind, events };
}

function container(id: string): RuntimeContainer {
  return { id, podUid: 'u1', namespace: 'default', pod: 'web', container: 'app', pid: 1, cgroupVersion: 1, cgroups: {} };
}

const soon = (ms: number): string => new Date(Date.now() + ms).toISOString();

async function run(kind: KindDefinition, raw: RawCommonOptions, port?: MemoryPort): Promise<{ code: number; ready: boolean; logs: Record<string, unknown>[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-lifecycle-'));
  const logs: Record<string, unknown>[] = [];
  try {
    const options = parseCommonOptions({ readinessFile: join(dir, 'ready'), ...raw });
    const log = createInjectorLogger({}, (line) => logs.push(JSON.parse(line) as Record<string, unknown>));
    const code = await runLifecycle(kind, {}, options, { log, retryDelayMs: 10, ...(port ? { port, podName: 'chaos-1' } : {}) });
    return { code, ready: existsSync(join(dir, 'ready')), logs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('flags: durations, dates, containers, levels', () => {
  assert.equal(parseGoDuration('x', '1m30s'), 90_000);
  assert.equal(parseGoDuration('x', '250ms'), 250);
  assert.throws(() => parseGoDuration('x', '10 seconds'), { name: 'InjectorFlagError' });
  assert.equal(stripRuntimeScheme('containerd://abc'), 'abc');
  assert.equal(stripRuntimeScheme('bosun://abc'), 'abc');
  const options = parseCommonOptions({ level: 'pod', targetContainers: 'app;bosun://a,side;containerd://b', deadline: '2030-01-01T00:00:00Z', logContextTargetName: 'web' });
  assert.deepEqual(options.targetContainers, [{ name: 'app', id: 'bosun://a' }, { name: 'side', id: 'containerd://b' }]);
  assert.deepEqual(options.logContext, { targetName: 'web' });
  assert.throws(() => parseCommonOptions({ level: 'cluster' }), { name: 'InjectorFlagError' });
  assert.throws(() => parseCommonOptions({ level: 'pod', deadline: 'tomorrow' }), { name: 'InjectorFlagError' });
  assert.throws(() => parseCommonOptions({ level: 'pod', targetContainers: 'app' }), { name: 'InjectorFlagError' });
});

test('deadline: inject, readiness file, clean, finalizer removed, exit 0', async () => {
  const { kind, events } = recordingKind('cpu-pressure');
  const port = new MemoryPort();
  port.containers.set('a', container('a'));
  const result = await run(kind, { level: 'pod', targetContainers: 'app;bosun://a', deadline: soon(300) }, port);
  assert.equal(result.code, 0);
  assert.ok(result.ready);
  assert.deepEqual(events, ['inject a', 'clean a']);
  assert.deepEqual(port.finalizerRemovals, ['chaos-engineering/chaos-1/finalizer.chaos.datadoghq.com/chaos-pod']);
});

test('an injection failure: no readiness file, still cleaned, exit 0', async () => {
  const { kind, events } = recordingKind('cpu-pressure', { injectFails: true });
  const result = await run(kind, { level: 'node', deadline: soon(300) });
  assert.equal(result.code, 0);
  assert.equal(result.ready, false);
  assert.deepEqual(events, ['inject node', 'clean node']);
});

test('an injection the node cannot run: cleaned, finalizer removed, exit 1 at once (not at the deadline)', async () => {
  const { kind, events } = recordingKind('network-disruption', { injectUnsupported: true });
  const port = new MemoryPort();
  const result = await run(kind, { level: 'node', deadline: soon(600_000) }, port);
  assert.equal(result.code, 1);
  assert.equal(result.ready, false);
  assert.deepEqual(events, ['inject node', 'clean node']);
  assert.equal(port.finalizerRemovals.length, 1);
  assert.ok(result.logs.some((l) => l['level'] === 'error' && String(l['error']).includes('the kernel has no sch_netem qdisc (test): network disruptions with delay cannot run on this node')));
});

test('clean is retried 3 times: a clean that fails twice succeeds, one that always fails exits 1 after 4 attempts', async () => {
  const flaky = recordingKind('cpu-pressure', { cleanFailures: 2 });
  assert.equal((await run(flaky.kind, { level: 'node', deadline: soon(200) })).code, 0);
  assert.deepEqual(flaky.events, ['inject node', 'clean node', 'clean node', 'clean node']);

  const broken = recordingKind('cpu-pressure', { cleanFailures: Infinity });
  const port = new MemoryPort();
  const result = await run(broken.kind, { level: 'node', deadline: soon(200) }, port);
  assert.equal(result.code, 1);
  assert.deepEqual(broken.events, ['inject node', 'clean node', 'clean node', 'clean node', 'clean node']);
  assert.deepEqual(port.finalizerRemovals, [], 'the finalizer stays while the disruption may still be in place');
});

test('finalizer removal is retried 3 times and its failure is only logged', async () => {
  const { kind } = recordingKind('cpu-pressure');
  const port = new MemoryPort();
  port.finalizerFailures = 10;
  const result = await run(kind, { level: 'node', deadline: soon(200) }, port);
  assert.equal(result.code, 0);
  assert.equal(port.finalizerRemovals.length, 4);
  assert.ok(result.logs.some((line) => line['msg'] === 'could not remove the chaos pod finalizer'));
});

test('the deadline aborts an injection in progress, which is then cleaned', async () => {
  const { kind, events } = recordingKind('cpu-pressure', { injectHangs: true });
  const result = await run(kind, { level: 'node', deadline: soon(300) });
  assert.equal(result.code, 0);
  assert.deepEqual(events, ['inject node', 'clean node']);
});

test('--not-injected-before past the deadline: never injected, still cleaned (idempotent) and exit 0', async () => {
  const { kind, events } = recordingKind('cpu-pressure');
  const result = await run(kind, { level: 'node', notInjectedBefore: soon(60_000), deadline: soon(300) });
  assert.equal(result.code, 0);
  assert.equal(result.ready, false);
  assert.deepEqual(events, ['clean node']);
});

test('--not-injected-before and --pulse-initial-delay are waited for', async () => {
  const { kind, events } = recordingKind('cpu-pressure');
  const started = Date.now();
  const result = await run(kind, { level: 'node', notInjectedBefore: soon(300), pulseInitialDelay: '200ms', deadline: soon(1500) });
  assert.equal(result.code, 0);
  assert.ok(Date.now() - started >= 1400);
  const injected = result.logs.find((line) => line['msg'] === 'injected, readiness file written');
  assert.ok(injected && new Date(String(injected['time'])).getTime() - started >= 500, 'injected after both waits');
  assert.deepEqual(events, ['inject node', 'clean node']);
});

test('pulse: clean at the end of each active period, inject at the end of each dormant one', async () => {
  const { kind, events } = recordingKind('cpu-pressure');
  const result = await run(kind, { level: 'node', pulseActiveDuration: '300ms', pulseDormantDuration: '300ms', deadline: soon(1500) });
  assert.equal(result.code, 0);
  // inject, (clean, inject) at least once, then the final clean
  assert.ok(events.length >= 4, events.join(', '));
  assert.equal(events[0], 'inject node');
  assert.equal(events.at(-1), 'clean node');
  assert.ok(events.slice(1, -1).join(',').startsWith('clean node,inject node'), events.join(', '));
});

test('a restarted target container is cleaned and injected again under its new ID (reinjectable kinds only)', async () => {
  for (const [name, reinjected] of [['cpu-pressure', true], ['container-failure', false]] as const) {
    const { kind, events } = recordingKind(name);
    const port = new MemoryPort();
    port.containers.set('a', container('a'));
    port.containers.set('b', container('b'));
    const running = run(kind, { level: 'pod', targetContainers: 'app;bosun://a', deadline: soon(2000) }, port);
    if (reinjected) {
      while (port.watching() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      port.report('default', 'web', { podUid: 'u1', containers: [{ name: 'app', id: 'bosun://a', running: true }] });
      port.report('default', 'web', { podUid: 'u1', containers: [{ name: 'app', id: 'bosun://b', running: true }] });
    } else {
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(port.watching(), 0, 'container-failure does not watch for restarts');
    }
    const result = await running;
    assert.equal(result.code, 0);
    assert.deepEqual(events, reinjected ? ['inject a', 'clean a', 'inject b', 'clean b'] : ['inject a', 'clean a']);
  }
});

test('pod level with an unknown container: initialization fails, exit 1, nothing injected', async () => {
  const { kind, events } = recordingKind('cpu-pressure');
  const result = await run(kind, { level: 'pod', targetContainers: 'app;bosun://missing', deadline: soon(200) }, new MemoryPort());
  assert.equal(result.code, 1);
  assert.deepEqual(events, []);
  assert.match(String(result.logs.find((line) => line['msg'] === 'injector initialization failed')?.['error']), /TargetResolutionError: .*missing/);
});

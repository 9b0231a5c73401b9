// The injector's lifecycle (upstream cli/injector/main.go: initialize, injectAndWait, cleanAndExit): resolve
// the targets and build one injector each; wait for --not-injected-before and the pulse's initial delay; inject
// every one (failures logged, not fatal, so partial injections are still cleaned); write the readiness file only
// when all succeeded; then hold — pulsing, re-injecting restarted containers — until SIGINT/SIGTERM or
// --deadline; clean each with 3 retries; remove the chaos pod's finalizer; exit 0, or 1 when a clean failed.
// When every failed injection failed for a feature the node lacks (FeatureUnavailableError), it does not hold:
// it cleans, removes its finalizer and exits 1 at once.
import type { HostReads } from './host/host-reads.ts';
import type { HostWrites } from './host/host-writes.ts';
import type { Injector, InjectorContext, InjectorLogger, KindDefinition } from './injector.ts';
import { REINJECTABLE_KINDS } from './injector.ts';
import type { NodeRuntimePort } from './node-runtime-port.ts';
import type { CommonOptions } from './options.ts';
import { createDryRunWrites } from './host/dry-run-writes.ts';
import { createRealReads } from './host/real-reads.ts';
import { createRealWrites } from './host/real-writes.ts';
import { sleep } from './durations.ts';
import { removeOwnFinalizer } from './finalizer.ts';
import { writeReadinessFile } from './readiness.ts';
import { watchRestarts, type ContainerRestart } from './reinjection.ts';
import { withRetries } from './retry.ts';
import { resolveContainer, resolveTargets, type ResolvedTarget } from './targets.ts';
import { watchTermination } from './termination.ts';
import { FeatureUnavailableError } from './kinds/feature-probes.ts';

export const EXIT_OK = 0;
/** Initialization failed, or a clean still failed after its retries. */
export const EXIT_FAILURE = 1;
/** The logger could not be set up. */
export const EXIT_LOGGER_FAILURE = 2;

export interface LifecycleDeps {
  log: InjectorLogger;
  /** Absent: no node runtime (pod level cannot resolve containers; no finalizer removal, no re-injection). */
  port?: NodeRuntimePort;
  /** INJECTOR_POD_NAME: this chaos pod, whose finalizer is removed at the end. */
  podName?: string;
  /** Defaults: the real host, or dry-run writes with --dry-run. */
  writes?: HostWrites;
  reads?: HostReads;
  /** The first wait between clean (and finalizer) attempts; doubles each retry. */
  retryDelayMs?: number;
}

interface Entry {
  target: ResolvedTarget;
  injector: Injector;
}

const CLEAN_RETRIES = 3;
const HANDLER_CONTAINER = 'chaos-handler';

/**
 * onInit: the target pod waits in its chaos-handler init container; SIGUSR1 lets it go on, now disrupted. Not a
 * write to the host's state (the pod would only wait out its timeout), so dry-run sends it too. A handler still
 * starting has no SIGUSR1 handler yet and would miss the signal, so it is sent again, backing off, until the
 * handler has exited (its acknowledgement) or the injector stops.
 */
async function releaseHandlers(entries: readonly Entry[], log: InjectorLogger, signal: AbortSignal): Promise<void> {
  const handlers = entries.map((e) => e.target.container).filter((c): c is NonNullable<typeof c> & { pid: number } => c?.container === HANDLER_CONTAINER && c.pid !== undefined);
  if (handlers.length === 0) log.warn('--on-init: the target has no running chaos-handler init container to release');
  await Promise.all(
    handlers.map(async (handler) => {
      for (let delay = 100; !signal.aborted; delay = Math.min(delay * 2, 5000)) {
        try {
          process.kill(handler.pid, 'SIGUSR1');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
            log.info('released the chaos handler', { pod: handler.pod, pid: handler.pid });
            return;
          }
          log.error('could not release the chaos handler', { pod: handler.pod, error });
          return;
        }
        await sleep(delay, signal);
      }
    }),
  );
}

export async function runLifecycle(kind: KindDefinition, values: Readonly<Record<string, unknown>>, options: CommonOptions, deps: LifecycleDeps): Promise<number> {
  const { log, port } = deps;
  const retryDelayMs = deps.retryDelayMs ?? 500;
  const termination = watchTermination(options.deadline);
  try {
    const writes = deps.writes ?? (options.dryRun ? createDryRunWrites(log) : createRealWrites());
    const reads = deps.reads ?? createRealReads();
    const contextFor = (target: ResolvedTarget): InjectorContext => ({ target, writes, reads, log, dryRun: options.dryRun, signal: termination.signal });

    // 1. Initialization: any failure is fatal (exit 1), as upstream's log.Fatal.
    let entries: Entry[];
    try {
      const targets = await resolveTargets(options, port);
      entries = targets.map((target) => ({ target, injector: kind.create(contextFor(target), values) }));
    } catch (error) {
      log.error('injector initialization failed', { kind: kind.name, error });
      return EXIT_FAILURE;
    }
    log.info('injector initialized', { kind: kind.name, disruptionLevel: options.level, dryRun: options.dryRun, targets: entries.map((e) => e.target.container?.id ?? e.target.nodeName) });
    if (options.metricsSink !== 'noop') log.warn('metrics sink not supported, using noop', { metricsSink: options.metricsSink });

    // Everything that injects or cleans after the first injection runs one at a time.
    let queue: Promise<unknown> = Promise.resolve();
    const serially = <T>(operation: () => Promise<T>): Promise<T> => {
      const run = queue.then(operation, operation);
      queue = run.catch(() => undefined);
      return run;
    };
    // Whether every failed injection failed because the node lacks a feature (it will not grow one).
    let onlyUnsupported = true;
    const injectAll = async (): Promise<boolean> => {
      let ok = true;
      for (const entry of entries) {
        try {
          await entry.injector.inject();
        } catch (error) {
          ok = false;
          if (!(error instanceof FeatureUnavailableError)) onlyUnsupported = false;
          log.error('injection failed', { kind: kind.name, target: entry.target.container?.id ?? entry.target.nodeName, error });
        }
      }
      return ok;
    };
    const cleanOnce = async (): Promise<void> => {
      for (const entry of entries) await entry.injector.clean().catch((error: unknown) => log.error('clean failed', { kind: kind.name, error }));
    };

    // 2. Waits before injecting; a signal (or the deadline) ends them early and skips the injection.
    if (options.notInjectedBefore) {
      const wait = options.notInjectedBefore.getTime() - Date.now();
      if (wait > 0) log.info('waiting before injecting', { notInjectedBefore: options.notInjectedBefore.toISOString() });
      await sleep(wait, termination.signal);
    }
    if (options.pulseInitialDelayMs > 0 && !termination.signal.aborted) {
      log.info('waiting for the pulse initial delay', { ms: options.pulseInitialDelayMs });
      await sleep(options.pulseInitialDelayMs, termination.signal);
    }

    // 3. Inject, then the readiness file when every injection succeeded.
    let active = false;
    if (!termination.signal.aborted) {
      active = true;
      const ok = await serially(injectAll);
      if (ok) {
        try {
          await writeReadinessFile(options.readinessFile);
          log.info('injected, readiness file written', { kind: kind.name, path: options.readinessFile });
        } catch (error) {
          log.error('could not write the readiness file', { path: options.readinessFile, error });
        }
      } else if (onlyUnsupported) {
        // Holding would leave a chaos pod that never gets ready and says why only in its log: end now, clean,
        // and exit 1, so that the pod fails and the controller's Warning carries the reason (from this log).
        log.error('this node cannot run the disruption: cleaning and exiting', { kind: kind.name });
        termination.end('unsupported');
      } else log.error('not every injection succeeded: the chaos pod does not become ready', { kind: kind.name });
    }

    // 4. Hold until a signal or the deadline, pulsing and re-injecting restarted containers meanwhile.
    const holding = new AbortController();
    const background: Promise<void>[] = [];
    if (active && options.onInit) background.push(releaseHandlers(entries, log, holding.signal));
    if (!termination.signal.aborted && options.pulseActiveMs > 0 && options.pulseDormantMs > 0) {
      background.push(
        (async () => {
          for (;;) {
            await sleep(options.pulseActiveMs, holding.signal);
            if (holding.signal.aborted) return;
            await serially(async () => {
              log.info('pulse: dormant');
              await cleanOnce();
              active = false;
            });
            await sleep(options.pulseDormantMs, holding.signal);
            if (holding.signal.aborted) return;
            await serially(async () => {
              log.info('pulse: active');
              active = true;
              await injectAll();
            });
          }
        })(),
      );
    }
    if (!termination.signal.aborted && port && options.level === 'pod' && REINJECTABLE_KINDS.includes(kind.name)) {
      const onRestart = (restart: ContainerRestart): Promise<void> =>
        serially(async () => {
          const entry = entries.find((e) => e.target.container?.namespace === restart.namespace && e.target.container.pod === restart.pod && e.target.containerName === restart.container);
          if (!entry) return;
          log.info('target container restarted, injecting again', { container: restart.container, oldId: entry.target.container?.id, newId: restart.newId });
          try {
            await withRetries(() => entry.injector.clean(), { retries: CLEAN_RETRIES, initialDelayMs: retryDelayMs });
            const target = await resolveContainer({ name: restart.container, id: restart.newId }, options, port);
            entry.target = target;
            entry.injector = kind.create(contextFor(target), values);
            if (active) await entry.injector.inject();
          } catch (error) {
            log.error('re-injection failed', { container: restart.container, newId: restart.newId, error });
          }
        });
      const pods = new Map<string, { namespace: string; pod: string }>();
      for (const { target } of entries) if (target.container) pods.set(`${target.container.namespace}/${target.container.pod}`, { namespace: target.container.namespace, pod: target.container.pod });
      for (const { namespace, pod } of pods.values()) {
        const current = (): ReadonlyMap<string, string> => new Map(entries.flatMap((e) => (e.target.container?.namespace === namespace && e.target.container.pod === pod && e.target.containerName ? [[e.target.containerName, e.target.container.id] as const] : [])));
        background.push(watchRestarts(port, namespace, pod, current, onRestart, log, holding.signal));
      }
    }
    const reason = await termination.ended;
    log.info('stopping', { reason });
    holding.abort();
    await Promise.all(background);
    await queue;

    // 5. Clean every injector, each with 3 retries.
    let cleaned = true;
    for (const entry of entries) {
      try {
        await withRetries(() => entry.injector.clean(), {
          retries: CLEAN_RETRIES,
          initialDelayMs: retryDelayMs,
          onRetry: (error, attempt, delayMs) => log.warn('clean failed, retrying', { kind: kind.name, attempt, delayMs, error }),
        });
      } catch (error) {
        cleaned = false;
        log.error('clean failed after retries', { kind: kind.name, target: entry.target.container?.id ?? entry.target.nodeName, error });
      }
    }
    if (!cleaned) return EXIT_FAILURE;
    log.info('cleaned', { kind: kind.name });

    // 6. The chaos pod's own finalizer. Not a change to the target: done in dry-run too, or the pod would hang.
    await removeOwnFinalizer(port, options.chaosNamespace, deps.podName, log, retryDelayMs);
    return reason === 'unsupported' ? EXIT_FAILURE : EXIT_OK;
  } finally {
    termination.dispose();
  }
}

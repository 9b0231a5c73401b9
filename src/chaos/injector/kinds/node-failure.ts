// node-failure: crashes (or shuts down) the node; upstream's injector/node_failure.go. inject returns at once so
// that the chaos pod becomes Ready and its logs are collected, and the failure comes 31 s later. On Bosun's
// node agent (the port present) the agent is asked to fail (it kills its pods and goes dark, as after a crash);
// without it, upstream's sysrq writes: `1` to the sysrq file now, then `c` (panic) or `o` (power off) to
// sysrq-trigger. Clean is a no-op upstream, but a failure still pending is cancelled: upstream's process would
// have exited before its timer fired.
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Injector, InjectorContext, KindDefinition } from '../injector.ts';
import { sysrqPath, sysrqTriggerPath } from './mounts.ts';
import type { NodeActions } from './node-actions.ts';
import { boolValue } from './option-values.ts';

export const NODE_FAILURE_DELAY_MS = 31_000;

export class NodeFailureError extends Error {
  override readonly name = 'NodeFailureError' as const;
}

export interface NodeFailureDeps {
  actions?: NodeActions;
  env?: NodeJS.ProcessEnv;
  /** Waits, rejecting when aborted; tests make it immediate or controlled. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> => sleepFor(ms, undefined, { signal });

class NodeFailureInjector implements Injector {
  readonly kind = 'node-failure' as const;
  private pending: AbortController | undefined;
  /** Settles when the delayed failure has been triggered (or cancelled); for tests and logs. */
  failure: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: InjectorContext,
    private readonly shutdown: boolean,
    private readonly deps: Required<NodeFailureDeps>,
    private readonly triggered: { done: boolean },
  ) {}

  async inject(): Promise<void> {
    // One node per chaos pod, whatever the number of targeted containers.
    if (this.triggered.done) return;
    this.triggered.done = true;
    const nodeFailure = this.deps.actions.nodeFailure;
    let trigger: () => Promise<void>;
    if (nodeFailure) {
      this.ctx.log.info(`injecting a node failure through the node agent in ${NODE_FAILURE_DELAY_MS / 1000}s`, { shutdown: this.shutdown });
      trigger = () => this.ctx.writes.runtimeCall(`node ${this.shutdown ? 'shutdown' : 'crash'}`, () => nodeFailure.call(this.deps.actions, { shutdown: this.shutdown }));
    } else {
      const sysrq = sysrqPath(this.deps.env);
      const sysrqTrigger = sysrqTriggerPath(this.deps.env);
      this.ctx.log.info('injecting a node failure by triggering a kernel panic', { sysrqPath: sysrq, sysrqTriggerPath: sysrqTrigger });
      try {
        await this.ctx.writes.writeFile(sysrq, '1');
      } catch (err) {
        throw new NodeFailureError(`error while writing to the sysrq file (${sysrq}): ${(err as Error).message}`);
      }
      trigger = () => this.ctx.writes.writeFile(sysrqTrigger, this.shutdown ? 'o' : 'c');
    }
    this.ctx.log.info('from this point, if no fatal log occurs, the injection succeeded and the node will fail');
    const pending = new AbortController();
    this.pending = pending;
    const onAbort = () => pending.abort();
    this.ctx.signal.addEventListener('abort', onAbort, { once: true });
    this.failure = this.deps
      .sleep(NODE_FAILURE_DELAY_MS, pending.signal)
      .then(trigger)
      .catch((err: unknown) => {
        if (pending.signal.aborted) this.ctx.log.info('node failure cancelled before it was triggered');
        else this.ctx.log.error('error while triggering the node failure', { error: (err as Error).message });
      })
      .finally(() => this.ctx.signal.removeEventListener('abort', onAbort));
  }

  clean(): Promise<void> {
    this.pending?.abort();
    return Promise.resolve();
  }
}

export function nodeFailureKind(deps: NodeFailureDeps = {}): KindDefinition {
  const resolved: Required<NodeFailureDeps> = { actions: deps.actions ?? {}, env: deps.env ?? process.env, sleep: deps.sleep ?? defaultSleep };
  const triggered = { done: false };
  return {
    name: 'node-failure',
    options: [{ flags: '--shutdown', description: 'If specified, the host will shut down instead of reboot', defaultValue: false }],
    create: (ctx, values) => new NodeFailureInjector(ctx, boolValue(values, 'shutdown', false), resolved, triggered),
  };
}

// Chaos pods that failed while their disruption is live. Their injector died before the end: the node agent
// restarted and could not adopt it (it kills what it cannot adopt), it crashed, or it was killed. Upstream keeps
// such a pod forever, and the disruption stays PartiallyInjected with nothing injected. Here the pod is deleted,
// so that the termination handling (termination.ts) decides its end: when it cannot have left anything behind its
// finalizer goes and, once it is gone, a new chaos pod is created for its target; when it may have left the
// target disrupted it keeps its finalizer and the disruption is marked stuck, with a Warning Event saying so.
// Replacements of one target × kind back off exponentially, so an injector that always fails is not a hot loop.
// The Warning quotes the injector's last logged error (its log, read once), so that an injection the node
// cannot run (a network delay on a kernel without netem) names the missing feature on the disruption itself.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import { NotFoundError } from '../../client/errors.ts';
import { ExponentialRateLimiter } from '../../runtime/index.ts';
import { DISRUPTION_KIND_LABEL, TARGET_LABEL } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import { INJECTOR_CONTAINER } from './chaos-pod.ts';
import { EVENT_CHAOS_POD_FAILED } from './events.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import type { DisruptionControllerData } from './options.ts';

/** First wait before a failed chaos pod's replacement, doubled on each failure of the same target × kind. */
const REPLACEMENT_BACKOFF_BASE_MS = 1000;
const REPLACEMENT_BACKOFF_MAX_MS = 5 * 60_000;

export class ChaosPodReplacements {
  private readonly limiter = new ExponentialRateLimiter(REPLACEMENT_BACKOFF_BASE_MS, REPLACEMENT_BACKOFF_MAX_MS);
  private readonly notBefore = new Map<string, number>();

  /** Counts a failure of the target × kind's chaos pod; its replacement waits (at least `minWaitMs`). */
  failed(disruptionKey: string, target: string, kind: string, nowMs: number, minWaitMs = 0): void {
    const key = replacementKey(disruptionKey, target, kind);
    this.notBefore.set(key, nowMs + Math.max(this.limiter.when(key), minWaitMs));
  }

  /** How long the target × kind's replacement must still wait (0: create it now). */
  waitMs(disruptionKey: string, target: string, kind: string, nowMs: number): number {
    return Math.max(0, (this.notBefore.get(replacementKey(disruptionKey, target, kind)) ?? 0) - nowMs);
  }

  /** The disruption is gone: its history goes too. */
  forget(disruptionKey: string): void {
    const prefix = `${disruptionKey}\u0000`;
    for (const key of this.notBefore.keys()) {
      if (!key.startsWith(prefix)) continue;
      this.notBefore.delete(key);
      this.limiter.forget(key);
    }
  }
}

function replacementKey(disruptionKey: string, target: string, kind: string): string {
  return `${disruptionKey}\u0000${target}\u0000${kind}`;
}

/** What the injector's end says, for the Event: the terminated state's reason and exit code. */
function failureOf(pod: Pod): string {
  const injector = pod.status?.containerStatuses?.find((s) => s.name === INJECTOR_CONTAINER);
  const terminated = injector?.state?.terminated;
  const parts = [terminated?.reason ?? pod.status?.reason, terminated?.exitCode !== undefined ? `exit code ${terminated.exitCode}` : undefined];
  return parts.filter((p) => p !== undefined && p !== '').join(', ') || 'no reason given';
}

/** The last error the injector logged (JSON lines: `msg` and `error`), or undefined when there is none to read. */
async function lastInjectorError(x: DisruptionControllerData, pod: Pod): Promise<string | undefined> {
  let text: string;
  try {
    text = await x.client.podLog(pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '', container: INJECTOR_CONTAINER, tailLines: 50, limitBytes: 64 * 1024, timeoutMs: 5000 });
  } catch {
    return undefined; // no log to read (the node is gone): the exit code alone says it
  }
  for (const line of text.trim().split('\n').reverse()) {
    try {
      const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; error?: unknown };
      if (entry.level === 'error' && typeof entry.error === 'string') return `${String(entry.msg)}: ${entry.error}`;
    } catch {
      // not a JSON line of the injector's
    }
  }
  return undefined;
}

/** Deletes the disruption's failed chaos pods (not being deleted yet), says so in a Warning Event, and backs their replacement off. */
export async function deleteFailedChaosPods(x: DisruptionControllerData, d: Disruption, disruptionKey: string, chaosPods: readonly Pod[], now: Date): Promise<void> {
  for (const pod of chaosPods) {
    if (pod.status?.phase !== 'Failed' || pod.metadata.deletionTimestamp) continue;
    const target = pod.metadata.labels?.[TARGET_LABEL] ?? '';
    const kind = pod.metadata.labels?.[DISRUPTION_KIND_LABEL] ?? '';
    const error = await lastInjectorError(x, pod);
    // A node that lacks a kernel feature will not grow it: its replacement waits the longest backoff at once.
    x.replacements.failed(disruptionKey, target, kind, now.getTime(), error?.includes('cannot run on this node') ? REPLACEMENT_BACKOFF_MAX_MS : 0);
    void x.recorder.warning(d, EVENT_CHAOS_POD_FAILED, `chaos pod ${pod.metadata.name ?? ''} (${kind}) of target ${target} failed before the end (${failureOf(pod)}${error ? `; ${error}` : ''}): deleting it; a new one replaces it once it is cleaned up`);
    try {
      await x.client.delete(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '' });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
}

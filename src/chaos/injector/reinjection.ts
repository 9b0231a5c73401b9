// Re-injection after a targeted container restarts (upstream watches the target pod through the API): the node
// runtime reports the pod's containers on every start and stop; a targeted container running under a new ID
// is a restart, and its injector is cleaned, rebuilt for the new container and injected again. Only for
// REINJECTABLE_KINDS: re-killing a restarted container (container-failure) made a CrashLoopBackOff (#747).
import type { RuntimePodContainers } from '../../client/node-runtime/protocol.ts';
import type { InjectorLogger } from './injector.ts';
import type { NodeRuntimePort } from './node-runtime-port.ts';
import { sleep } from './durations.ts';
import { stripRuntimeScheme } from './targets.ts';

/** A targeted container now running under a new ID. */
export interface ContainerRestart {
  namespace: string;
  pod: string;
  container: string;
  newId: string;
}

/** Which of the watched containers run under another ID than `current` (name → ID) says. */
export function restartsIn(state: RuntimePodContainers, current: ReadonlyMap<string, string>): { container: string; newId: string }[] {
  return state.containers.flatMap((c) => {
    const known = current.get(c.name);
    if (known === undefined || !c.running || !c.id) return [];
    const id = stripRuntimeScheme(c.id);
    return id === known ? [] : [{ container: c.name, newId: id }];
  });
}

const WATCH_RETRIES = 5;

/**
 * Watches one pod until `signal` aborts, calling onRestart (awaited: the next report waits for it) for each
 * restart. `current` gives the IDs in use now (the caller updates them). A failing watch is retried 5 times.
 */
export async function watchRestarts(port: NodeRuntimePort, namespace: string, pod: string, current: () => ReadonlyMap<string, string>, onRestart: (restart: ContainerRestart) => Promise<void>, log: InjectorLogger, signal: AbortSignal): Promise<void> {
  let failures = 0;
  while (!signal.aborted) {
    try {
      for await (const state of port.watchPod(namespace, pod, signal)) {
        failures = 0;
        for (const restart of restartsIn(state, current())) await onRestart({ namespace, pod, ...restart });
        if (signal.aborted) break;
      }
      if (signal.aborted) return;
      // The stream ended by itself (the agent restarted): watch again.
    } catch (error) {
      if (signal.aborted) return;
      failures++;
      if (failures > WATCH_RETRIES) {
        log.error('giving up watching the target pod: restarted containers will not be disrupted again', { namespace, pod, error });
        return;
      }
      log.warn('watching the target pod failed, retrying', { namespace, pod, attempt: failures, error });
    }
    await sleep(1000, signal);
  }
}

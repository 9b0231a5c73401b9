// Chaos pods created but not yet in the cache. The next reconcile may run before the informer sees a create;
// without this it would create the same chaos pod again (upstream waits up to 30 s for each pod to appear).
import { objectKey } from '../../apimachinery/object.ts';
import type { Pod } from '../../apimachinery/api/index.ts';

/** How long a created pod is trusted to show up in the cache; past it the cache is believed. */
const EXPECTATION_TTL_MS = 60_000;

export class ChaosPodExpectations {
  private readonly created = new Map<string, Map<string, { pod: Pod; atMs: number }>>();

  expect(disruptionKey: string, pod: Pod, nowMs: number): void {
    let pods = this.created.get(disruptionKey);
    if (!pods) this.created.set(disruptionKey, (pods = new Map()));
    pods.set(objectKey(pod.metadata.namespace, pod.metadata.name ?? ''), { pod, atMs: nowMs });
  }

  /** The cached chaos pods plus those created and not seen yet (dropped once seen, deleted or stale). */
  merge(disruptionKey: string, cached: readonly Pod[], nowMs: number): Pod[] {
    const pods = this.created.get(disruptionKey);
    if (!pods) return [...cached];
    const seen = new Set(cached.map((p) => objectKey(p.metadata.namespace, p.metadata.name ?? '')));
    const out = [...cached];
    for (const [key, entry] of pods) {
      if (seen.has(key) || nowMs - entry.atMs > EXPECTATION_TTL_MS) pods.delete(key);
      else out.push(entry.pod);
    }
    if (pods.size === 0) this.created.delete(disruptionKey);
    return out;
  }

  /** Every disruption's created pods not yet seen in the cache (another disruption's selection must see them). */
  pending(nowMs: number): Pod[] {
    const out: Pod[] = [];
    for (const pods of this.created.values()) for (const entry of pods.values()) if (nowMs - entry.atMs <= EXPECTATION_TTL_MS) out.push(entry.pod);
    return out;
  }

  forget(disruptionKey: string, podKey?: string): void {
    if (podKey === undefined) this.created.delete(disruptionKey);
    else this.created.get(disruptionKey)?.delete(podKey);
  }
}

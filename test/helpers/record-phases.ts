// Records the distinct phases a Landscaper object passes through, from a watch on it.
import type { KubeClient, ResourceTarget } from '../../src/client/client.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';

export async function recordPhases(client: KubeClient, target: ResourceTarget, ns: string, name: string): Promise<{ phases: string[]; stop(): void }> {
  const stream = await client.watch<KubeObject & { status?: { phase?: string } }>(target, { namespace: ns, name });
  const phases: string[] = [];
  void (async () => {
    try {
      for await (const ev of stream) {
        const p = ev.object.status?.phase;
        if (p !== undefined && phases[phases.length - 1] !== p) phases.push(p);
      }
    } catch {
      // closed
    }
  })();
  return { phases, stop: () => stream.close() };
}

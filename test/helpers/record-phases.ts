// Records the distinct phases a Landscaper object passes through, from a watch on it.
import type { KubeClient, ResourceTarget } from '../../src/client/client.ts';
import type { KubeObject } from '../../src/apimachinery/object.ts';

export interface PhaseRecording {
  phases: string[];
  /**
   * Stops once the watch has caught up with the server (it delivered the object's current resourceVersion),
   * so a phase the test already saw through a GET is never missing from the recording.
   */
  stop(): Promise<void>;
}

export async function recordPhases(client: KubeClient, target: ResourceTarget, ns: string, name: string): Promise<PhaseRecording> {
  const stream = await client.watch<KubeObject & { status?: { phase?: string } }>(target, { namespace: ns, name });
  const phases: string[] = [];
  const seen = new Set<string>();
  let wake: (() => void) | undefined;
  void (async () => {
    try {
      for await (const ev of stream) {
        const p = ev.object.status?.phase;
        if (p !== undefined && phases[phases.length - 1] !== p) phases.push(p);
        if (ev.object.metadata.resourceVersion) seen.add(ev.object.metadata.resourceVersion);
        wake?.();
      }
    } catch {
      // closed
    }
  })();
  return {
    phases,
    async stop() {
      const current = await client.get(target, name, { namespace: ns }).catch(() => undefined);
      const rv = current?.metadata.resourceVersion;
      const deadline = Date.now() + 5_000;
      while (rv !== undefined && !seen.has(rv) && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      stream.close();
    },
  };
}

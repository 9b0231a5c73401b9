// The tail of a finished Job's log, for the check run output: read through the API (GET pods/{name}/log with
// tailLines and limitBytes), from the Job's newest pod. A log that cannot be read is a result that says why,
// never an error: the check run still completes.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import type { Container, Job, Pod } from '../../apimachinery/api/index.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** The label the Job controller puts on its pods; the legacy one first existed alone. */
export const JOB_NAME_LABELS = ['batch.kubernetes.io/job-name', 'job-name'] as const;
const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

export interface LogLimits {
  tailLines: number;
  limitBytes: number;
}

export type LogTail = { readable: true; pod: string; container: string; text: string } | { readable: false; reason: string };

export async function readJobLogTail(client: KubeClient, job: Job, limits: LogLimits, signal?: AbortSignal): Promise<LogTail> {
  const namespace = job.metadata.namespace ?? '';
  const name = job.metadata.name ?? '';
  try {
    const pod = await newestPod(client, job, signal);
    if (!pod) return { readable: false, reason: `no pod of Job ${name} was found` };
    const container = containerToRead(pod);
    if (!container) return { readable: false, reason: `pod ${pod.metadata.name ?? ''} has no containers` };
    const text = await client.podLog(pod.metadata.name ?? '', { namespace, container, tailLines: limits.tailLines, limitBytes: limits.limitBytes, ...(signal ? { signal } : {}) });
    return { readable: true, pod: pod.metadata.name ?? '', container, text };
  } catch (err) {
    return { readable: false, reason: messageOf(err) };
  }
}

async function newestPod(client: KubeClient, job: Job, signal: AbortSignal | undefined): Promise<Pod | undefined> {
  for (const label of JOB_NAME_LABELS) {
    const list = await client.list<Pod>(podsResource, { namespace: job.metadata.namespace ?? '', labelSelector: `${label}=${job.metadata.name ?? ''}`, ...(signal ? { signal } : {}) });
    // A Job of the same name that came before would have left pods of another controller.
    const ours = list.items.filter((p) => (p.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === job.metadata.uid));
    if (ours.length > 0) return ours.sort(byCreation).at(-1);
  }
  return undefined;
}

function byCreation(a: Pod, b: Pod): number {
  const at = (p: Pod): string => p.metadata.creationTimestamp ?? '';
  return at(a).localeCompare(at(b)) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

/** The default container named by annotation, else the first that exited non-zero, else the first. */
function containerToRead(pod: Pod): string | undefined {
  const containers: Container[] = pod.spec?.containers ?? [];
  const names = containers.map((c) => c.name ?? '').filter((n) => n !== '');
  const annotated = pod.metadata.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
  if (annotated && names.includes(annotated)) return annotated;
  const failed = pod.status?.containerStatuses?.find((s) => (s.state?.terminated?.exitCode ?? 0) !== 0 && names.includes(s.name));
  return failed?.name ?? names[0];
}

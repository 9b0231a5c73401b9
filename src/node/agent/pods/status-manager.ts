// kubelet's status manager for one pod: a change marks the status stale; one write runs at a time and carries
// every change made before it began; a failed write is retried with exponential back-off. A pod gone from the
// API (NotFound) ends the writing.
import type { Logger } from 'pino';
import { podsResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { updateStatus } from '../../../runtime/index.ts';
import type { Pod, PodStatus } from '../../../apimachinery/api/index.ts';
import { formatPod } from './format-pod.ts';
import { tracePodStart } from '../../pod-start-trace.ts';

export interface StatusManagerOptions {
  client: KubeClient;
  logger: Logger;
  /** The pod as last read or written. */
  pod(): Pod;
  /** The pod as the API server answered the write. */
  written(pod: Pod): void;
  /** The status to write, computed at write time from the worker's state over the stored one. */
  render(existing: PodStatus | undefined): PodStatus;
}

const MAX_RETRY_MS = 30_000;

export class PodStatusManager {
  private dirty = false;
  private write: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(private readonly options: StatusManagerOptions) {}

  /** Marks the status stale and starts a write unless one runs or waits to be retried. */
  request(): void {
    if (this.stopped) return;
    this.dirty = true;
    if (this.write !== undefined || this.retryTimer !== undefined) return;
    this.write = this.flush().finally(() => (this.write = undefined));
  }

  /** Resolves once the write under way (if any) is over. */
  async settled(): Promise<void> {
    await this.write;
  }

  /** No more writes (the worker stopped driving the pod); a write under way still ends. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  private async flush(): Promise<void> {
    const { client, logger } = this.options;
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      const uid = this.options.pod().metadata.uid ?? '';
      try {
        tracePodStart(uid, 'status-write');
        this.options.written(await updateStatus(client, podsResource, this.options.pod(), (draft) => void (draft.status = this.options.render(draft.status))));
        tracePodStart(uid, 'status-written');
        this.failures = 0;
      } catch (error) {
        if (error instanceof NotFoundError) return;
        logger.warn({ err: error, pod: formatPod(this.options.pod()) }, 'could not write pod status');
        this.dirty = true;
        const delayMs = Math.min(MAX_RETRY_MS, 100 * 2 ** this.failures++);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.request();
        }, delayMs);
        return;
      }
    }
  }
}

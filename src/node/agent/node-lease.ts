// The node heartbeat: a Lease in kube-node-lease named after the node, renewed on a timer. The node
// lifecycle controller (src/workloads/node-lifecycle) reads its renewTime to judge the node healthy.
import { leasesResource, NODE_LEASE_NAMESPACE } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import type { Lease } from '../../apimachinery/api/index.ts';

export interface NodeLeaseOptions {
  nodeName: string;
  /** Kubelet's default is 40 s. */
  leaseDurationSeconds?: number;
  /** Kubelet renews every quarter of the duration: 10 s. */
  renewIntervalMs?: number;
  onError?: (error: unknown) => void;
  /** Runs after each renewal on the timer: the agent's node status check shares the heartbeat's cadence. */
  afterRenew?: () => Promise<void>;
}

/** MicroTime, as the Lease API serialises renewTime. */
function microTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '000Z');
}

export class NodeLease {
  private timer: NodeJS.Timeout | undefined;
  private readonly durationSeconds: number;

  constructor(
    private readonly client: KubeClient,
    private readonly options: NodeLeaseOptions,
  ) {
    this.durationSeconds = options.leaseDurationSeconds ?? 40;
  }

  /** Renews once (so the first heartbeat is there when start resolves), then on the timer. */
  async start(): Promise<Lease> {
    const lease = await this.renew();
    this.timer = setInterval(() => {
      this.renew()
        .then(() => this.options.afterRenew?.())
        .catch((error: unknown) => this.options.onError?.(error));
    }, this.options.renewIntervalMs ?? (this.durationSeconds * 1000) / 4);
    return lease;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async renew(): Promise<Lease> {
    const spec = { holderIdentity: this.options.nodeName, leaseDurationSeconds: this.durationSeconds, renewTime: microTime(new Date()) };
    try {
      const current = await this.client.get<Lease>(leasesResource, this.options.nodeName, { namespace: NODE_LEASE_NAMESPACE });
      return await this.client.update<Lease>(leasesResource, { ...current, spec: { ...current.spec, ...spec } }, { namespace: NODE_LEASE_NAMESPACE });
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
    const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.options.nodeName, namespace: NODE_LEASE_NAMESPACE }, spec };
    try {
      return await this.client.create<Lease>(leasesResource, lease, { namespace: NODE_LEASE_NAMESPACE });
    } catch (error) {
      if (!(error instanceof AlreadyExistsError)) throw error;
      return this.renew();
    }
  }
}

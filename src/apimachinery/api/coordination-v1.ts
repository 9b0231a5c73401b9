// coordination.k8s.io/v1 (k8s.io/api/coordination/v1): Lease, for node heartbeats and leader election.
import type { KubeObject } from '../object.ts';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

// How a pod gets its address. The agent asks a provider for each pod that does not use the host's network;
// the bridge provider (src/node/network) gives it a network namespace on the agent's bridge, and a pod with
// hostNetwork: true shares the host's network and the node's address.
import type { PodNetwork } from '../sandbox/types.ts';

export interface PodNetworkAttachment {
  /** status.podIP. */
  podIP: string;
  /** What the pod's containers join. */
  network: PodNetwork;
}

export interface PodIdentity {
  uid: string;
  name: string;
  namespace: string;
}

export interface PodNetworkProvider {
  /**
   * Gives the pod its address; attaching a pod already attached returns the same attachment (agent restarts).
   * addressed, if given, may be called with the attachment as soon as the address is chosen, before the
   * namespace is ready, so that the caller does what needs only the address meanwhile.
   */
  attach(pod: PodIdentity, addressed?: (attachment: PodNetworkAttachment) => void): Promise<PodNetworkAttachment>;
  /** Releases the pod's address and namespace; a pod not attached is a no-op. */
  detach(podUid: string): Promise<void>;
  /** The uids of the pods attached now, so that an agent restart can release what no pod needs. */
  attached(): Promise<string[]>;
}

/** Every pod shares the host's network and the node's address: the fallback where no bridge can be made. */
export function hostNetworkProvider(hostIP: string): PodNetworkProvider {
  return {
    attach: () => Promise.resolve({ podIP: hostIP, network: { kind: 'host' } }),
    detach: () => Promise.resolve(),
    attached: () => Promise.resolve([]),
  };
}

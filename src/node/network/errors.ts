// The pod network's typed errors. The agent tells them apart by name: an unavailable network makes it fall back
// to host networking, a configuration error is the operator's to fix, an attach error fails one pod.

/** The bridge cannot be set up on this host (no permission, no iproute2); the message says what to do. */
export class PodNetworkUnavailableError extends Error {
  override readonly name = 'PodNetworkUnavailableError' as const;
}

/** The provider's options or its state file do not make sense (a malformed CIDR, a node CIDR outside the cluster's). */
export class PodNetworkConfigError extends Error {
  override readonly name = 'PodNetworkConfigError' as const;
}

/** One pod could not be given (or released from) its network: no address left, a command that failed. */
export class PodNetworkError extends Error {
  override readonly name = 'PodNetworkError' as const;
}

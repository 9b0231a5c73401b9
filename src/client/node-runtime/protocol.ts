// The node runtime API: what a node agent answers on a unix socket for the privileged pods it runs (chaos
// injectors), as containerd answers upstream's injector on /run/containerd. Pods on Bosun's node agent have no
// API identity (no TokenRequest), so the few API writes an injector makes for its own node (its own pod's
// finalizer, pod replacement) go through the agent, which holds the node's credentials and checks that the
// objects are its own. Reaching the socket takes a hostPath mount of /run: root on the node already.

/** The environment variable the agent sets on privileged containers of trusted namespaces: the socket's path. */
export const NODE_RUNTIME_SOCKET_ENV = 'BOSUN_NODE_RUNTIME_SOCKET';

/** A running (or last run) container, as the agent knows it. */
export interface RuntimeContainer {
  /** The ID without the `bosun://` scheme. */
  id: string;
  podUid: string;
  namespace: string;
  pod: string;
  container: string;
  /** Host PID of the container's main process (its PID 1), absent when it is not running. */
  pid?: number;
  /** 1 or 2: which cgroup API the paths below speak. */
  cgroupVersion: 1 | 2;
  /** Absolute host paths of the container's cgroup, by controller (v1: cpu, cpuacct, memory, pids, blkio, cpuset when present; v2: one path under 'unified'). */
  cgroups: Record<string, string>;
}

/** One line of GET /v1/pods/{namespace}/{name}/containers?watch=true (newline-delimited JSON), sent at once and on every container start or stop. */
export interface RuntimePodContainers {
  podUid: string;
  containers: { name: string; id?: string; running: boolean }[];
}

/** One port of a watched Service, with the ready endpoints behind it. */
export interface RuntimeServicePort {
  /** '' for an unnamed port. */
  name: string;
  /** TCP, UDP or SCTP. */
  protocol: string;
  port: number;
  /** Ready IPv4 endpoints of this port, each with its target port as the EndpointSlices resolve it. */
  endpoints: { ip: string; port: number }[];
}

/**
 * One line of GET /v1/services/{namespace}/{name}?watch=true (newline-delimited JSON), sent once the agent has
 * read the Service and its EndpointSlices, and again on every change of what it says: what a chaos injector's
 * `services` filter disrupts, kept current while it runs.
 */
export interface RuntimeService {
  namespace: string;
  name: string;
  /** false while there is no such Service (not created yet, or deleted). */
  exists: boolean;
  /** The IPv4 ClusterIP; absent for headless and ExternalName Services. */
  clusterIP?: string;
  ports: RuntimeServicePort[];
  /** Every ready IPv4 endpoint address, whatever its ports (a headless Service's pods). */
  endpointIPs: string[];
}

/** GET /v1/node: the node itself, for node-level disruptions. */
export interface RuntimeNode {
  name: string;
  /**
   * A host process in the node's own namespaces (the agent's): what upstream finds as PID 1, which may be out of
   * reach (a node inside a container or a sandboxed VM, whose PID 1 has capabilities no pod has).
   */
  pid: number;
}

export interface PodReplacementRequest {
  /** Delete the PersistentVolumeClaims the pod mounts. */
  deleteStorage: boolean;
  /** Delete with grace 0 (force) instead of the pod's own grace period. */
  force: boolean;
  /** A grace period for the delete, when not forced (seconds). */
  gracePeriodSeconds?: number;
}

export interface NodeFailureRequest {
  /** false: a crash (the agent kills its pods and stops reporting, then comes back as after a reboot); true: a shutdown (same, and it stays down until restarted). */
  shutdown: boolean;
}

/** An error answer: HTTP status plus this body. */
export interface RuntimeErrorBody {
  message: string;
}

// Routes (all JSON; an error is RuntimeErrorBody with 400 for a bad body, 403, 404 or 500):
//   GET  /v1/containers/{id}                               → RuntimeContainer; id with or without bosun://; 404 unknown
//   GET  /v1/pods/{namespace}/{name}/containers            → RuntimePodContainers; 404 no such pod on this node
//   GET  /v1/pods/{namespace}/{name}/containers?watch=true → RuntimePodContainers lines (application/x-ndjson),
//                                                            ending when the pod leaves this node; 404 as above
//   POST /v1/pods/{namespace}/{name}/finalizers/remove     body { finalizer } → 204; 403 a pod of another node, 404 none
//   POST /v1/pods/{namespace}/{name}/replace               body PodReplacementRequest → 204 (cordon, PVCs, delete, uncordon); 403, 404 as above
//   GET  /v1/services/{namespace}/{name}[?watch=true]      → RuntimeService; with watch, lines (application/x-ndjson),
//                                                            one now and one per change, until the client goes
//   POST /v1/node/failure                                  body NodeFailureRequest → 202, then the agent goes dark

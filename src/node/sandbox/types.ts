// What the sandbox is asked to run: a resolved subset of core/v1 Container plus the pod-level facts
// the kubelet would have decided (hostname, hosts and resolv.conf contents, namespaces to share).
import type { SecurityContext as ApiSecurityContext } from '../../apimachinery/api/index.ts';

export interface EnvVar {
  name: string;
  value: string;
}

/** A volume already materialised on the host, bound at mountPath. */
export interface VolumeBinding {
  hostPath: string;
  mountPath: string;
  readOnly?: boolean;
}

/**
 * The effective security context (pod-level fields already merged into the container's, as kubelet does): the
 * core/v1 fields the sandbox enforces.
 */
export type SecurityContext = Pick<ApiSecurityContext, 'runAsUser' | 'runAsGroup' | 'runAsNonRoot' | 'allowPrivilegeEscalation' | 'privileged' | 'readOnlyRootFilesystem' | 'capabilities'>;

export interface ResourceList {
  cpu?: string;
  memory?: string;
}

export interface ContainerSpec {
  name: string;
  /** command + args, with $(VAR) references already expanded. */
  argv: string[];
  env?: EnvVar[];
  /** Defaults to "/". */
  workingDir?: string;
  volumeMounts?: VolumeBinding[];
  securityContext?: SecurityContext;
  resources?: { limits?: ResourceList; requests?: ResourceList };
  /**
   * kube's pod.spec.hostUsers: false runs a root container (uid 0, not privileged) in a user namespace where
   * root is the sandbox's default user on the host; its capabilities then hold only inside that namespace.
   */
  hostUsers?: boolean;
  /**
   * kube's stdin/stdinOnce: the container's stdin is a pipe the agent holds (for attach) rather than /dev/null;
   * with once, the first attach that detaches closes it.
   */
  stdin?: { once: boolean };
  /** kube's tty: the command runs on a pseudo-terminal (util-linux script), its output one stream on stdout. */
  tty?: boolean;
}

export type PodNetwork = { kind: 'host' } | { kind: 'namespace'; path: string };

export interface PodFacts {
  name: string;
  namespace: string;
  uid: string;
  /** spec.hostname or the pod name, as kubelet chooses it. */
  hostname: string;
  etcHosts: string;
  resolvConf: string;
  /** Pod-level directory on the host: the /etc files and the containers' run directories live here. */
  podDir: string;
  hostPID?: boolean;
  network: PodNetwork;
  /** supplementalGroups plus fsGroup. */
  supplementalGroups?: number[];
}

export interface StartRequest {
  pod: PodFacts;
  container: ContainerSpec;
  /** Where the CRI-format log of this run goes (kubelet: /var/log/pods/<ns>_<pod>_<uid>/<container>/<n>.log). */
  logPath: string;
}

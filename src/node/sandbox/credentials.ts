// Who the container's process is: uid, gid, groups, capabilities and no_new_privs, decided from the
// security context the way kubelet and containerd decide it, with two hardened defaults for a host that is
// usually someone's own machine: a container that names no user runs as an unprivileged one unless the
// agent allows root by default, and no_new_privs is on unless allowPrivilegeEscalation is explicitly true.
import { boundingSet } from './capabilities.ts';
import { SandboxSpecError } from './errors.ts';
import type { HostTools } from './host-tools.ts';
import type { PasswdEntry } from './passwd.ts';
import type { ContainerSpec, PodFacts } from './types.ts';

export interface IdentityPolicy {
  /** Run containers that set no runAsUser as root (the image default Bosun has no image to read). */
  allowRootByDefault: boolean;
  /** Who they run as otherwise. */
  defaultUser: { uid: number; gid: number };
}

export interface Credentials {
  uid: number;
  gid: number;
  groups: number[];
  home: string;
  noNewPrivs: boolean;
  /** Capability names kept in the bounding set, or every capability (privileged). */
  bounding: string[] | 'all';
  /** Root in a user namespace: the host ids its uid and gid 0 map to (ContainerSpec.hostUsers false). */
  userNamespace?: { hostUid: number; hostGid: number };
}

const MAX_ID = 2 ** 31 - 1;

function checkId(field: string, id: number): number {
  if (!Number.isInteger(id) || id < 0 || id > MAX_ID) throw new SandboxSpecError('CreateContainerConfigError', `${field}: Invalid value: ${id}: must be between 0 and ${MAX_ID}, inclusive`);
  return id;
}

/** kubelet's format.Pod: name_namespace(uid). */
function formatPod(pod: PodFacts): string {
  return `${pod.name}_${pod.namespace}(${pod.uid})`;
}

export function resolveCredentials(pod: PodFacts, container: ContainerSpec, policy: IdentityPolicy, passwd: PasswdEntry[], lastCap: number): Credentials {
  const sc = container.securityContext ?? {};
  const quotedPod = JSON.stringify(formatPod(pod));
  // kubelet's verifyRunAsNonRoot, word for word; with no image, the "image user" is the agent's default.
  if (sc.runAsNonRoot === true) {
    if (sc.runAsUser === 0) throw new SandboxSpecError('CreateContainerConfigError', `container's runAsUser breaks non-root policy (pod: ${quotedPod}, container: ${container.name})`);
    if (sc.runAsUser === undefined && policy.allowRootByDefault) {
      throw new SandboxSpecError('CreateContainerConfigError', `container has runAsNonRoot and image will run as root (pod: ${quotedPod}, container: ${container.name})`);
    }
  }
  const fallback = policy.allowRootByDefault ? { uid: 0, gid: 0 } : policy.defaultUser;
  const uid = sc.runAsUser !== undefined ? checkId('securityContext.runAsUser', sc.runAsUser) : fallback.uid;
  const entry = passwd.find((e) => e.uid === uid);
  const gid = sc.runAsGroup !== undefined ? checkId('securityContext.runAsGroup', sc.runAsGroup) : sc.runAsUser !== undefined ? (entry?.gid ?? policy.defaultUser.gid) : fallback.gid;
  const groups = [...new Set((pod.supplementalGroups ?? []).map((g) => checkId('securityContext.supplementalGroups', g)))];
  const privileged = sc.privileged === true;
  const userNamespace = uid === 0 && !privileged && container.hostUsers === false;
  return {
    uid,
    gid,
    groups,
    home: entry?.home ?? '/',
    noNewPrivs: !privileged && sc.allowPrivilegeEscalation !== true,
    bounding: privileged ? 'all' : boundingSet(sc.capabilities, lastCap),
    ...(userNamespace ? { userNamespace: { hostUid: policy.defaultUser.uid, hostGid: gid === 0 ? policy.defaultUser.gid : gid } } : {}),
  };
}

/**
 * The commands, each exec'ing the next, that turn the sandbox's root helper into the container's process;
 * `env -i` and the container's argv follow. Root in a user namespace: setpriv to the host ids, unshare a user
 * namespace mapping them to 0 and the container's gid, then setpriv again inside it, since a new user
 * namespace starts with a full bounding set.
 */
export function identityCommand(tools: Pick<HostTools, 'setpriv' | 'unshare'>, credentials: Credentials): string[] {
  const groups = credentials.groups.length > 0 ? ['--groups', credentials.groups.join(',')] : ['--clear-groups'];
  // Nothing inheritable: a non-root process ends with no capabilities, root with exactly the bounding set.
  const capabilities = ['--inh-caps', '-all', ...(credentials.bounding === 'all' ? [] : ['--bounding-set', ['-all', ...credentials.bounding.map((c) => `+${c.toLowerCase()}`)].join(',')])];
  const noNewPrivs = credentials.noNewPrivs ? ['--nnp'] : [];
  const { userNamespace } = credentials;
  if (userNamespace === undefined) {
    return [tools.setpriv, '--reuid', String(credentials.uid), '--regid', String(credentials.gid), ...groups, ...capabilities, ...noNewPrivs, '--'];
  }
  return [
    tools.setpriv, '--reuid', String(userNamespace.hostUid), '--regid', String(userNamespace.hostGid), ...groups, '--inh-caps', '-all', ...noNewPrivs, '--',
    tools.unshare, '--user', '--map-user=0', `--map-group=${credentials.gid}`, '--',
    tools.setpriv, ...capabilities, '--',
  ];
}

// What the sandbox runs for a pod: its PodFacts and each container's ContainerSpec, built from the Pod as
// kubelet's runtime manager builds a container config. Every call to the argv, env and volume helpers is
// here, so that a change to their signatures is met in one place.
import type { KubeClient } from '../../../client/client.ts';
import { NODE_RUNTIME_SOCKET_ENV } from '../../../client/node-runtime/protocol.ts';
import { SandboxSpecError } from '../../sandbox/errors.ts';
import type { ContainerSpec, PodFacts, PodNetwork, SecurityContext } from '../../sandbox/types.ts';
import { imageDefaults, resolveArgv, type ImageDefaults } from '../container-argv.ts';
import { resolveEnv } from '../container-env.ts';
import { PodApiObjects } from '../pod-api-objects.ts';
import type { PodView } from '../pod-context.ts';
import { materialiseVolumes, removePodVolumes, volumeBindings, type MaterialisedVolume, type VolumeContext } from '../pod-volumes.ts';
import { checkCapabilities } from './capability-policy.ts';
import { describeTrusted, isTrustedNamespace } from './namespace-trust.ts';
import type { ClusterDnsSettings, PodDnsWarning } from './pod-dns-config.ts';
import { etcHosts, podHostname, resolvConf } from './pod-etc-files.ts';
import type { Container, Pod } from '../../../apimachinery/api/index.ts';

export interface PodPlacement {
  nodeName: string;
  podDir: string;
  dataDir: string;
  podIP: string;
  hostIP: string;
  network: PodNetwork;
  /** The node's allocatable cpu and memory: what an unset limit reads as in the downward API. */
  nodeAllocatable: Readonly<Record<string, string>>;
  /** The node's cluster DNS; undefined: pods on ClusterFirst get the host's resolvers. */
  clusterDns?: ClusterDnsSettings;
}

/** The pod as the sandbox sees it, plus its volumes by name and what env and volumes read of it. */
export interface PreparedPod {
  facts: PodFacts;
  volumes: ReadonlyMap<string, MaterialisedVolume>;
  placement: PodPlacement;
  context: VolumeContext;
  /** Warning Events kubelet records while forming the pod's DNS configuration (DNSConfigForming). */
  warnings: PodDnsWarning[];
}

export interface NodePolicy {
  /** Namespaces whose pods may be privileged or use hostPID. */
  trustedNamespaces: readonly string[];
  /** Entrypoints of images beyond the built-in table, by base name. */
  imageMap: Readonly<Record<string, ImageDefaults>>;
  /** The node runtime API's socket, told to privileged containers of trusted namespaces (chaos injectors). */
  runtimeSocketPath?: string;
}

export interface ContainerConfig {
  spec: ContainerSpec;
  /** Warning Events kubelet records (InvalidEnvironmentVariableNames). */
  warnings: string[];
}

export function supplementalGroups(pod: Pod): number[] {
  const sc = pod.spec.securityContext ?? {};
  return [...(sc.supplementalGroups ?? []), ...(sc.fsGroup !== undefined ? [sc.fsGroup] : [])];
}

function podView(pod: Pod): PodView {
  const { metadata } = pod;
  return {
    metadata: {
      name: metadata.name ?? '',
      namespace: metadata.namespace ?? '',
      uid: metadata.uid ?? '',
      ...(metadata.labels ? { labels: metadata.labels } : {}),
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
    },
    spec: pod.spec,
  };
}

/** Reads the pod's ConfigMaps, Secrets and claims afresh: each container start sees their current content. */
function volumeContext(pod: Pod, placement: PodPlacement, client: KubeClient): VolumeContext {
  return {
    pod: podView(pod),
    nodeName: placement.nodeName,
    podIPs: [placement.podIP],
    hostIPs: [placement.hostIP],
    nodeAllocatable: placement.nodeAllocatable,
    objects: new PodApiObjects(client, pod.metadata.namespace ?? ''),
    podDir: placement.podDir,
    dataDir: placement.dataDir,
  };
}

/** Sets up the pod's volumes (idempotent) and what the sandbox needs of the pod; the sandbox writes the /etc files. */
export async function preparePod(pod: Pod, placement: PodPlacement, client: KubeClient): Promise<PreparedPod> {
  const context = volumeContext(pod, placement, client);
  const [hosts, resolv, volumes] = await Promise.all([etcHosts(pod, placement.podIP), resolvConf(pod, placement.clusterDns), materialiseVolumes(context, pod.spec.volumes ?? [])]);
  const groups = supplementalGroups(pod);
  const facts: PodFacts = {
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace ?? '',
    uid: pod.metadata.uid ?? '',
    hostname: podHostname(pod),
    etcHosts: hosts,
    resolvConf: resolv.content,
    podDir: placement.podDir,
    network: placement.network,
    ...(pod.spec.hostPID === true ? { hostPID: true } : {}),
    ...(groups.length > 0 ? { supplementalGroups: groups } : {}),
  };
  return { facts, volumes, placement, context, warnings: resolv.warnings };
}

/** Unmounts and removes the pod's volumes (hostPath and claim data stay where they are). */
export function removeVolumes(podDir: string): Promise<void> {
  return removePodVolumes(podDir);
}

/** The pod-level runAsUser/runAsGroup/runAsNonRoot, overridden field by field by the container's (kubelet's merge). */
export function effectiveSecurityContext(pod: Pod, container: Container): SecurityContext {
  const podSc = pod.spec.securityContext ?? {};
  const sc = container.securityContext ?? {};
  const merged: SecurityContext = {};
  const runAsUser = sc.runAsUser ?? podSc.runAsUser;
  const runAsGroup = sc.runAsGroup ?? podSc.runAsGroup;
  const runAsNonRoot = sc.runAsNonRoot ?? podSc.runAsNonRoot;
  if (runAsUser !== undefined) merged.runAsUser = runAsUser;
  if (runAsGroup !== undefined) merged.runAsGroup = runAsGroup;
  if (runAsNonRoot !== undefined) merged.runAsNonRoot = runAsNonRoot;
  if (sc.allowPrivilegeEscalation !== undefined) merged.allowPrivilegeEscalation = sc.allowPrivilegeEscalation;
  if (sc.privileged !== undefined) merged.privileged = sc.privileged;
  if (sc.readOnlyRootFilesystem !== undefined) merged.readOnlyRootFilesystem = sc.readOnlyRootFilesystem;
  if (sc.capabilities !== undefined) merged.capabilities = sc.capabilities;
  return merged;
}

/** privileged and hostPID reach the host's processes and devices: only pods of trusted namespaces get them. */
export function checkHostAccess(pod: Pod, container: Container, trustedNamespaces: readonly string[]): void {
  const namespace = pod.metadata.namespace ?? '';
  if (trustedNamespaces.includes(namespace)) return;
  const wants = [...(container.securityContext?.privileged === true ? ['privileged'] : []), ...(pod.spec.hostPID === true ? ['hostPID'] : [])];
  if (wants.length === 0) return;
  throw new SandboxSpecError(
    'CreateContainerConfigError',
    `container ${container.name} asks for ${wants.join(' and ')}, which this node allows only in ${describeTrusted(trustedNamespaces)}; namespace "${namespace}" is neither`,
  );
}

/**
 * Only a privileged container of a trusted namespace learns where the node runtime API is: it can reach the
 * host's /run anyway, and no other pod should be pointed at the agent's privileged endpoint.
 */
export function runtimeSocketEnv(pod: Pod, container: Container, policy: NodePolicy): { name: string; value: string }[] {
  if (policy.runtimeSocketPath === undefined || container.securityContext?.privileged !== true) return [];
  if (!policy.trustedNamespaces.includes(pod.metadata.namespace ?? '')) return [];
  return [{ name: NODE_RUNTIME_SOCKET_ENV, value: policy.runtimeSocketPath }];
}

/** The host directories an image's program needs (Bosun's own images: its install, which may be under /tmp), read-only. */
function imageDirs(container: Container, policy: NodePolicy): { hostPath: string; mountPath: string; readOnly: boolean }[] {
  return (imageDefaults(container.image, policy.imageMap)?.hostDirs ?? []).map((dir) => ({ hostPath: dir, mountPath: dir, readOnly: true }));
}

/** An image that runs as another user than the node's default (the chaos injector: root) does so in trusted namespaces, unless the pod names a user. */
function imageUser(pod: Pod, container: Container, policy: NodePolicy, sc: ContainerSpec['securityContext']): ContainerSpec['securityContext'] {
  const user = imageDefaults(container.image, policy.imageMap)?.user;
  if (user === undefined || sc?.runAsUser !== undefined || !policy.trustedNamespaces.includes(pod.metadata.namespace ?? '')) return sc;
  return { ...sc, runAsUser: user };
}

export async function containerConfig(pod: Pod, container: Container, prepared: PreparedPod, nodePolicy: NodePolicy, client: KubeClient): Promise<ContainerConfig> {
  const namespace = pod.metadata.namespace ?? '';
  // Both read the API: side by side, their failures reported in the order the checks are made.
  const [trust, resolving] = await Promise.allSettled([isTrustedNamespace(client, namespace, nodePolicy.trustedNamespaces), resolveEnv(container, volumeContext(pod, prepared.placement, client))]);
  if (trust.status === 'rejected') throw trust.reason;
  const trusted = trust.value;
  // A namespace trusted by its label counts as one the agent names, for every check below.
  const policy = trusted && !nodePolicy.trustedNamespaces.includes(namespace) ? { ...nodePolicy, trustedNamespaces: [...nodePolicy.trustedNamespaces, namespace] } : nodePolicy;
  checkHostAccess(pod, container, policy.trustedNamespaces);
  checkCapabilities(pod, container, trusted, nodePolicy.trustedNamespaces);
  if (resolving.status === 'rejected') throw resolving.reason;
  const resolved = resolving.value;
  const { warnings } = resolved;
  // The container's own setting of the variable wins, as with any variable the runtime adds.
  const imageEnv = Object.entries(imageDefaults(container.image, policy.imageMap)?.env ?? {}).map(([name, value]) => ({ name, value }));
  const env = [...[...imageEnv, ...runtimeSocketEnv(pod, container, policy)].filter((extra) => !resolved.env.some((v) => v.name === extra.name)), ...resolved.env];
  const envMap = new Map(env.map((v) => [v.name, v.value]));
  const argv = resolveArgv(container, envMap, policy.imageMap);
  const spec: ContainerSpec = {
    name: container.name,
    argv,
    env,
    volumeMounts: [...(await volumeBindings(container.name, container.volumeMounts ?? [], prepared.volumes, envMap)), ...imageDirs(container, policy)],
    securityContext: imageUser(pod, container, policy, effectiveSecurityContext(pod, container)),
    // Root outside trusted namespaces is root in a user namespace, never on the host.
    hostUsers: trusted,
  };
  if (container.workingDir !== undefined) spec.workingDir = container.workingDir;
  if (container.resources !== undefined) spec.resources = container.resources;
  if (container.stdin === true) spec.stdin = { once: container.stdinOnce === true };
  if (container.tty === true) spec.tty = true;
  return { spec, warnings };
}

// What the sandbox runs for a pod: its PodFacts and each container's ContainerSpec, built from the Pod as
// kubelet's runtime manager builds a container config. Every call to the argv, env and volume helpers is
// here, so that a change to their signatures is met in one place.
import { SandboxSpecError } from '../../sandbox/errors.ts';
import type { ContainerSpec, PodFacts, PodNetwork, SecurityContext } from '../../sandbox/types.ts';
import { resolveArgv, type ImageDefaults } from '../container-argv.ts';
import { resolveEnv } from '../container-env.ts';
import { materialiseVolumes, volumeBindings } from '../pod-volumes.ts';
import { etcHosts, podHostname, resolvConf } from './pod-etc-files.ts';
import type { Container, Pod } from './pod-types.ts';

export interface PodPlacement {
  nodeName: string;
  podDir: string;
  podIP: string;
  hostIP: string;
  network: PodNetwork;
}

/** The pod as the sandbox sees it, plus the host paths of its volumes by name. */
export interface PreparedPod {
  facts: PodFacts;
  volumePaths: ReadonlyMap<string, string>;
  placement: PodPlacement;
}

export function supplementalGroups(pod: Pod): number[] {
  const sc = pod.spec.securityContext ?? {};
  return [...(sc.supplementalGroups ?? []), ...(sc.fsGroup !== undefined ? [sc.fsGroup] : [])];
}

/** Writes nothing but the pod's volume directories; the sandbox writes the /etc files at each start. */
export async function preparePod(pod: Pod, placement: PodPlacement): Promise<PreparedPod> {
  const [hosts, resolv, volumePaths] = await Promise.all([etcHosts(pod, placement.podIP), resolvConf(pod), materialiseVolumes(placement.podDir, pod.spec.volumes ?? [])]);
  const groups = supplementalGroups(pod);
  const facts: PodFacts = {
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace ?? '',
    uid: pod.metadata.uid ?? '',
    hostname: podHostname(pod),
    etcHosts: hosts,
    resolvConf: resolv,
    podDir: placement.podDir,
    network: placement.network,
    ...(pod.spec.hostPID === true ? { hostPID: true } : {}),
    ...(groups.length > 0 ? { supplementalGroups: groups } : {}),
  };
  return { facts, volumePaths, placement };
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
  const trusted = trustedNamespaces.length === 0 ? 'none' : trustedNamespaces.join(', ');
  throw new SandboxSpecError(
    'CreateContainerConfigError',
    `container ${container.name} asks for ${wants.join(' and ')}, which this node allows only in trusted namespaces (${trusted}); namespace "${namespace}" is not one of them`,
  );
}

export interface NodePolicy {
  /** Namespaces whose pods may be privileged or use hostPID. */
  trustedNamespaces: readonly string[];
  /** Entrypoints of images beyond the built-in table, by base name. */
  imageMap: Readonly<Record<string, ImageDefaults>>;
}

export function containerSpec(pod: Pod, container: Container, prepared: PreparedPod, policy: NodePolicy): ContainerSpec {
  checkHostAccess(pod, container, policy.trustedNamespaces);
  const { placement } = prepared;
  const env = resolveEnv(container.env ?? [], { name: prepared.facts.name, namespace: prepared.facts.namespace, nodeName: placement.nodeName, podIP: placement.podIP, hostIP: placement.hostIP });
  const argv = resolveArgv(container, new Map(env.map((v) => [v.name, v.value])), policy.imageMap);
  const spec: ContainerSpec = {
    name: container.name,
    argv,
    env,
    volumeMounts: volumeBindings(container.volumeMounts ?? [], prepared.volumePaths),
    securityContext: effectiveSecurityContext(pod, container),
  };
  if (container.workingDir !== undefined) spec.workingDir = container.workingDir;
  if (container.resources !== undefined) spec.resources = container.resources;
  return spec;
}

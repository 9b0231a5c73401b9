// The downward API as kubelet resolves it for env (fieldRef, resourceFieldRef) and for downwardAPI/projected
// volume files. Env and volumes accept different field paths (API validation's lists), so each caller says
// which one it is.
import type { ObjectFieldSelector, ResourceFieldSelector } from '../../apimachinery/api/index.ts';
import { SandboxSpecError } from '../sandbox/errors.ts';
import { parseBytes, parseMilliCpu } from '../sandbox/quantity.ts';
import type { ContainerView, PodContext } from './pod-context.ts';

export type DownwardApiUse = 'env' | 'volume';

const SUBSCRIPTED = /^metadata\.(labels|annotations)\['(.*)'\]$/;

/** kubelet's fieldpath.FormatMap: sorted `key="value"` lines, values quoted as Go's %q does. */
function formatMap(map: Readonly<Record<string, string>>): string {
  return Object.keys(map)
    .sort()
    .map((key) => `${key}=${JSON.stringify(map[key])}`)
    .join('\n');
}

function fieldValue(fieldPath: string, context: PodContext, use: DownwardApiUse): string | undefined {
  const { metadata, spec } = context.pod;
  const subscripted = SUBSCRIPTED.exec(fieldPath);
  if (subscripted) {
    const [, map, key = ''] = subscripted;
    return (map === 'labels' ? metadata.labels : metadata.annotations)?.[key] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return metadata.name;
    case 'metadata.namespace':
      return metadata.namespace;
    case 'metadata.uid':
      return metadata.uid;
  }
  if (use === 'volume') {
    if (fieldPath === 'metadata.labels') return formatMap(metadata.labels ?? {});
    if (fieldPath === 'metadata.annotations') return formatMap(metadata.annotations ?? {});
    return undefined;
  }
  switch (fieldPath) {
    case 'spec.nodeName':
      return context.nodeName;
    case 'spec.serviceAccountName':
      return spec.serviceAccountName ?? '';
    case 'status.podIP':
      return context.podIPs[0] ?? '';
    case 'status.podIPs':
      return context.podIPs.join(',');
    case 'status.hostIP':
      return context.hostIPs[0] ?? '';
    case 'status.hostIPs':
      return context.hostIPs.join(',');
    default:
      return undefined;
  }
}

export function resolveFieldRef(selector: ObjectFieldSelector, context: PodContext, use: DownwardApiUse): string {
  const value = fieldValue(selector.fieldPath, context, use);
  if (value === undefined) {
    throw new SandboxSpecError('CreateContainerConfigError', `unsupported fieldPath: ${selector.fieldPath}`);
  }
  return value;
}

/**
 * kubelet's ExtractContainerResourceValue: the quantity divided by the divisor, rounded up; an unset limit reads as
 * the node's allocatable, an unset request as 0.
 */
export function resolveResourceFieldRef(selector: ResourceFieldSelector, container: ContainerView, context: PodContext): string {
  const [kind, resource] = selector.resource.split('.', 2) as [string, string | undefined];
  if ((kind !== 'limits' && kind !== 'requests') || (resource !== 'cpu' && resource !== 'memory' && resource !== 'ephemeral-storage')) {
    throw new SandboxSpecError('CreateContainerConfigError', `unsupported container resource : ${selector.resource}`);
  }
  const divisorText = selector.divisor ?? '1';
  const fromContainer = container.resources?.[kind]?.[resource];
  const quantity = fromContainer ?? (kind === 'limits' ? context.nodeAllocatable[resource] : undefined) ?? '0';
  const field = `resourceFieldRef ${selector.resource}`;
  const [value, divisor] =
    resource === 'cpu' ? [parseMilliCpu(field, quantity), parseMilliCpu(`${field} divisor`, divisorText)] : [parseBytes(field, quantity), parseBytes(`${field} divisor`, divisorText)];
  if (divisor <= 0) throw new SandboxSpecError('CreateContainerConfigError', `${field}: divisor must be greater than 0, got "${divisorText}"`);
  return String(Math.ceil(value / divisor));
}

/** The container a volume's resourceFieldRef names, among the pod's containers and init containers. */
export function namedContainer(context: PodContext, name: string | undefined): ContainerView {
  const container = [...context.pod.spec.containers, ...(context.pod.spec.initContainers ?? [])].find((c) => c.name === name);
  if (container === undefined) throw new SandboxSpecError('CreateContainerConfigError', `resourceFieldRef: container ${JSON.stringify(name ?? '')} not found in the pod`);
  return container;
}

// A Service's defaults, as the v1 defaulting functions and the service strategy set them (SetDefaults_Service,
// PrepareForCreate/PrepareForUpdate with NormalizeClusterIPs, patchAllocatedValues and dropTypeDependentFields):
// what a client may leave out and what an update keeps from the stored Service.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';

type Json = Record<string, unknown>;

export const CLUSTER_IP_NONE = 'None';
/** kube's DefaultClientIPServiceAffinitySeconds: three hours. */
const CLIENT_IP_AFFINITY_SECONDS = 10800;

export function serviceSpec(service: KubeObject): Json {
  if (!isPlainObject(service['spec'])) service['spec'] = {};
  return service['spec'] as Json;
}

export function servicePorts(spec: Json): Json[] {
  return Array.isArray(spec['ports']) ? (spec['ports'] as unknown[]).filter(isPlainObject) : [];
}

export function needsClusterIP(spec: Json): boolean {
  return spec['type'] !== 'ExternalName';
}

export function needsNodePorts(spec: Json): boolean {
  return spec['type'] === 'NodePort' || spec['type'] === 'LoadBalancer';
}

/** apiservice.ExternallyAccessible: reachable from outside through node ports or external IPs. */
export function externallyAccessible(spec: Json): boolean {
  return needsNodePorts(spec) || (spec['type'] === 'ClusterIP' && Array.isArray(spec['externalIPs']) && spec['externalIPs'].length > 0);
}

export function isHeadless(spec: Json): boolean {
  return spec['clusterIP'] === CLUSTER_IP_NONE;
}

function clusterIPs(spec: Json): unknown[] {
  return Array.isArray(spec['clusterIPs']) ? (spec['clusterIPs'] as unknown[]) : [];
}

/** SetDefaults_Service, and the IP family defaults the allocator sets on a single-stack IPv4 cluster. */
export function defaultService(spec: Json): void {
  spec['type'] ??= 'ClusterIP';
  spec['sessionAffinity'] ??= 'None';
  if (spec['sessionAffinity'] === 'ClientIP') {
    const config = isPlainObject(spec['sessionAffinityConfig']) ? spec['sessionAffinityConfig'] : {};
    const clientIP = isPlainObject(config['clientIP']) ? config['clientIP'] : {};
    clientIP['timeoutSeconds'] ??= CLIENT_IP_AFFINITY_SECONDS;
    spec['sessionAffinityConfig'] = { ...config, clientIP };
  }
  for (const port of servicePorts(spec)) {
    port['protocol'] ??= 'TCP';
    if (port['targetPort'] === undefined || port['targetPort'] === 0 || port['targetPort'] === '') port['targetPort'] = port['port'];
  }
  if (externallyAccessible(spec)) spec['externalTrafficPolicy'] ??= 'Cluster';
  if (spec['type'] === 'LoadBalancer') spec['allocateLoadBalancerNodePorts'] ??= true;
  // An old client sets only clusterIP; the plural follows it (NormalizeClusterIPs on create).
  if (typeof spec['clusterIP'] === 'string' && spec['clusterIP'] !== '' && clusterIPs(spec).length === 0) spec['clusterIPs'] = [spec['clusterIP']];
  if (!needsClusterIP(spec)) return;
  spec['internalTrafficPolicy'] ??= 'Cluster';
  const selectorless = !isPlainObject(spec['selector']) || Object.keys(spec['selector']).length === 0;
  // initIPFamilyFields: headless and selectorless defaults to dual-stack policy (it may hold addresses of either family).
  spec['ipFamilyPolicy'] ??= isHeadless(spec) && selectorless ? 'RequireDualStack' : 'SingleStack';
  if (!Array.isArray(spec['ipFamilies']) || spec['ipFamilies'].length === 0) {
    spec['ipFamilies'] = isHeadless(spec) && selectorless && spec['ipFamilyPolicy'] !== 'SingleStack' ? ['IPv4', 'IPv6'] : ['IPv4'];
  }
}

/** What an update keeps from the stored Service when the client left it out (or changed the type away from it). */
export function carryAllocations(spec: Json, old: Json): void {
  // dropTypeDependentFields: leaving a type drops what only that type had, unless the client changed it too.
  if (needsClusterIP(old) && !needsClusterIP(spec)) {
    for (const key of ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy'] as const) {
      if (JSON.stringify(spec[key]) === JSON.stringify(old[key])) delete spec[key];
    }
  }
  if (needsNodePorts(old) && !needsNodePorts(spec)) {
    const oldPorts = new Set(servicePorts(old).map((p) => p['nodePort']));
    for (const port of servicePorts(spec)) if (oldPorts.has(port['nodePort'])) delete port['nodePort'];
  }
  if (externallyAccessible(old) && !externallyAccessible(spec) && spec['externalTrafficPolicy'] === old['externalTrafficPolicy']) delete spec['externalTrafficPolicy'];
  // patchAllocatedValues: kubectl apply and replace send no clusterIP or nodePort; the allocated ones stay.
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (spec['clusterIP'] === undefined || spec['clusterIP'] === '') {
      if (old['clusterIP'] !== undefined) spec['clusterIP'] = old['clusterIP'];
      if (clusterIPs(spec).length === 0 && old['clusterIPs'] !== undefined) spec['clusterIPs'] = old['clusterIPs'];
    } else if (clusterIPs(spec).length === 0 && spec['clusterIP'] === old['clusterIP']) spec['clusterIPs'] = old['clusterIPs'];
    else if (spec['clusterIP'] !== old['clusterIP'] && JSON.stringify(spec['clusterIPs']) === JSON.stringify(old['clusterIPs'])) spec['clusterIPs'] = [spec['clusterIP']];
    spec['ipFamilyPolicy'] ??= old['ipFamilyPolicy'];
    spec['ipFamilies'] ??= old['ipFamilies'];
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const used = new Set(servicePorts(spec).map((p) => p['nodePort']).filter((n) => n !== undefined && n !== 0));
    const byName = new Map(servicePorts(old).map((p) => [p['name'] ?? '', p['nodePort']]));
    for (const port of servicePorts(spec)) {
      if (port['nodePort'] !== undefined && port['nodePort'] !== 0) continue;
      const previous = byName.get((port['name'] as string | undefined) ?? '');
      if (previous !== undefined && !used.has(previous)) port['nodePort'] = previous;
    }
  }
}

// ValidateService and ValidateServiceUpdate (pkg/apis/core/validation) in the part a single-stack IPv4 cluster
// needs, with kube-apiserver's field errors: ports, names, selector, type, headless "None", ExternalName, session
// affinity, IP families, and clusterIP immutability. Range and uniqueness of addresses and NodePorts are the
// allocators' (they answer "failed to allocate IP …" as kube's do).
import { isIP } from 'node:net';
import { fieldError, goQuote, PrintedValue } from '../../apimachinery/field-error.ts';
import { path, type FieldPath } from '../../apimachinery/field-path.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { validateLabels, validateName } from '../registry/object-meta-validation.ts';
import { dns1123Label, goStrings, portNameErrors, portNumberErrors, toCauses, VALID_IP, type Problem } from './field-checks.ts';
import { CLUSTER_IP_NONE, externallyAccessible, isHeadless, needsClusterIP, serviceSpec, servicePorts } from './service-defaults.ts';

type Json = Record<string, unknown>;

const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const AFFINITIES = ['ClientIP', 'None'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

/** ValidatePortNumOrName. */
function targetPortErrors(at: FieldPath, value: unknown): Problem[] {
  if (typeof value === 'number') return portNumberErrors(at, value);
  if (typeof value === 'string') return value === '' ? [fieldError.required(at)] : portNameErrors(at, value);
  return [fieldError.invalid(at, value, 'must be an integer or a string')];
}

function servicePortErrors(port: Json, requireName: boolean, names: Set<string>, at: FieldPath): Problem[] {
  const errs: Problem[] = [];
  const name = typeof port['name'] === 'string' ? port['name'] : '';
  if (requireName && name === '') errs.push(fieldError.required(at.child('name')));
  else if (name !== '') {
    errs.push(...dns1123Label(at.child('name'), name));
    if (names.has(name)) errs.push(fieldError.duplicate(at.child('name'), name));
    names.add(name);
  }
  errs.push(...portNumberErrors(at.child('port'), port['port']));
  const protocol = port['protocol'];
  if (protocol === undefined || protocol === '') errs.push(fieldError.required(at.child('protocol')));
  else if (!PROTOCOLS.includes(protocol as string)) errs.push(fieldError.notSupported(at.child('protocol'), protocol, PROTOCOLS));
  errs.push(...targetPortErrors(at.child('targetPort'), port['targetPort']));
  return errs;
}

/** The Go struct literal kube prints for a duplicate (protocol, port) key. */
function portKey(port: Json): PrintedValue {
  return new PrintedValue(
    `core.ServicePort{Name:"", Protocol:${goQuote(String(port['protocol'] ?? ''))}, AppProtocol:(*string)(nil), Port:${String(port['port'])}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`,
  );
}

function clusterIPErrors(spec: Json, selectorless: boolean): Problem[] {
  const errs: Problem[] = [];
  const field = path('spec').child('clusterIPs');
  const ips = Array.isArray(spec['clusterIPs']) ? (spec['clusterIPs'] as unknown[]) : [];
  const single = typeof spec['clusterIP'] === 'string' ? spec['clusterIP'] : '';
  if (single !== '') {
    if (ips.length === 0) errs.push(fieldError.required(field));
    else if (ips[0] !== single) errs.push({ ...fieldError.invalid(field, null, 'first value must match `clusterIP`'), badValue: goStrings(ips) });
  } else if (ips.length > 0) errs.push({ ...fieldError.invalid(field, null, 'must be empty when `clusterIP` is not specified'), badValue: goStrings(ips) });
  const families = Array.isArray(spec['ipFamilies']) ? (spec['ipFamilies'] as unknown[]) : [];
  const seen = new Set<unknown>();
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family as string)) errs.push(fieldError.notSupported(path('spec').child('ipFamilies').index(i), family, IP_FAMILIES));
    if (seen.has(family)) errs.push(fieldError.duplicate(path('spec').child('ipFamilies').index(i), family));
    seen.add(family);
  });
  const policy = spec['ipFamilyPolicy'];
  if (policy !== undefined && !IP_FAMILY_POLICIES.includes(policy as string)) errs.push(fieldError.notSupported(path('spec').child('ipFamilyPolicy'), policy, IP_FAMILY_POLICIES));
  ips.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (ips.length > 1) errs.push({ ...fieldError.invalid(field, null, "'None' must be the first and only value"), badValue: goStrings(ips) });
      return;
    }
    if (typeof ip !== 'string' || isIP(ip) === 0) errs.push(fieldError.invalid(field.index(i), ip, VALID_IP));
    else if (isIP(ip) === 6) errs.push({ ...fieldError.invalid(field.index(i), null, 'IPv6 is not configured on this cluster'), badValue: goStrings(ips) });
  });
  if (ips.length > 2) errs.push({ ...fieldError.invalid(field, null, 'may only hold up to 2 values'), badValue: goStrings(ips) });
  // A single-stack IPv4 cluster: headless selectorless Services alone may name both families (they allocate nothing).
  if (!(isHeadless(spec) && selectorless)) {
    if (policy === 'RequireDualStack') errs.push(fieldError.invalid(path('spec').child('ipFamilyPolicy'), policy, 'this cluster is not configured for dual-stack services'));
    families.forEach((family, i) => {
      if (family === 'IPv6') errs.push(fieldError.invalid(path('spec').child('ipFamilies').index(i), family, 'not configured on this cluster'));
    });
  }
  return errs;
}

function typeErrors(spec: Json): Problem[] {
  const errs: Problem[] = [];
  const specPath = path('spec');
  switch (spec['type']) {
    case 'NodePort':
    case 'LoadBalancer':
      if (isHeadless(spec)) errs.push(fieldError.invalid(specPath.child('clusterIPs').index(0), CLUSTER_IP_NONE, `may not be set to 'None' for ${String(spec['type'])} services`));
      break;
    case 'ExternalName': {
      if (Array.isArray(spec['clusterIPs']) && spec['clusterIPs'].length > 0) errs.push(fieldError.forbidden(specPath.child('clusterIPs'), 'may not be set for ExternalName services'));
      if (Array.isArray(spec['ipFamilies']) && spec['ipFamilies'].length > 0) errs.push(fieldError.forbidden(specPath.child('ipFamilies'), 'may not be set for ExternalName services'));
      if (spec['ipFamilyPolicy'] !== undefined) errs.push(fieldError.forbidden(specPath.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
      // The CNAME may end in a dot (fully qualified).
      const cname = typeof spec['externalName'] === 'string' ? spec['externalName'].replace(/\.$/, '') : '';
      if (cname === '') errs.push(fieldError.required(specPath.child('externalName')));
      else errs.push(...(validateName(cname, 'dns1123-subdomain', 'spec.externalName')));
      break;
    }
  }
  return errs;
}

function affinityErrors(spec: Json): Problem[] {
  const at = path('spec').child('sessionAffinity');
  const affinity = spec['sessionAffinity'];
  if (affinity === undefined || affinity === '') return [fieldError.required(at)];
  if (!AFFINITIES.includes(affinity as string)) return [fieldError.notSupported(at, affinity, AFFINITIES)];
  const configPath = path('spec').child('sessionAffinityConfig');
  if (affinity === 'None') return spec['sessionAffinityConfig'] ? [fieldError.forbidden(configPath, 'must not be set when session affinity is None')] : [];
  const config = isPlainObject(spec['sessionAffinityConfig']) ? spec['sessionAffinityConfig'] : {};
  const clientIP = isPlainObject(config['clientIP']) ? config['clientIP'] : undefined;
  if (!clientIP) return [fieldError.required(configPath.child('clientIP'), 'when session affinity type is ClientIP')];
  const timeout = clientIP['timeoutSeconds'];
  if (!Number.isInteger(timeout) || (timeout as number) <= 0 || (timeout as number) > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [fieldError.invalid(configPath.child('clientIP').child('timeoutSeconds'), timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

function trafficPolicyErrors(spec: Json): Problem[] {
  const errs: Problem[] = [];
  for (const key of ['internalTrafficPolicy', 'externalTrafficPolicy'] as const) {
    const value = spec[key];
    if (value !== undefined && !TRAFFIC_POLICIES.includes(value as string)) errs.push(fieldError.notSupported(path('spec').child(key), value, TRAFFIC_POLICIES));
  }
  if (spec['externalTrafficPolicy'] !== undefined && !externallyAccessible(spec)) {
    errs.push(fieldError.invalid(path('spec').child('externalTrafficPolicy'), spec['externalTrafficPolicy'], 'may only be set for externally-accessible services'));
  }
  return errs;
}

function portsErrors(spec: Json): Problem[] {
  const errs: Problem[] = [];
  const portsPath = path('spec').child('ports');
  const ports = servicePorts(spec);
  if (ports.length === 0 && !isHeadless(spec) && spec['type'] !== 'ExternalName') errs.push(fieldError.required(portsPath));
  const names = new Set<string>();
  ports.forEach((port, i) => errs.push(...servicePortErrors(port, ports.length > 1, names, portsPath.index(i))));
  const nodePorts = new Set<string>();
  const keys = new Set<string>();
  ports.forEach((port, i) => {
    const nodePort = port['nodePort'];
    if (nodePort !== undefined && nodePort !== 0) {
      if (spec['type'] === 'ClusterIP') errs.push(fieldError.forbidden(portsPath.index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
      const key = `${String(port['protocol'])}/${String(nodePort)}`;
      if (nodePorts.has(key)) errs.push(fieldError.duplicate(portsPath.index(i).child('nodePort'), nodePort));
      nodePorts.add(key);
    }
    const key = `${String(port['protocol'])}/${String(port['port'])}`;
    if (keys.has(key)) errs.push(fieldError.duplicate(portsPath.index(i), portKey(port)));
    keys.add(key);
  });
  return errs;
}

/** ValidateService on a defaulted Service. */
export function validateService(service: KubeObject): Problem[] {
  const spec = serviceSpec(service);
  const selector = isPlainObject(spec['selector']) ? spec['selector'] : {};
  const errs = [...typeErrors(spec), ...portsErrors(spec)];
  errs.push(...(validateLabels(selector, 'spec.selector')));
  errs.push(...affinityErrors(spec));
  if (needsClusterIP(spec)) errs.push(...clusterIPErrors(spec, Object.keys(selector).length === 0));
  const type = spec['type'];
  if (type === undefined || type === '') errs.push(fieldError.required(path('spec').child('type')));
  else if (!SERVICE_TYPES.includes(type as string)) errs.push(fieldError.notSupported(path('spec').child('type'), type, SERVICE_TYPES));
  errs.push(...trafficPolicyErrors(spec));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs on a single-stack cluster: an allocated address stays the Service's. */
export function validateServiceUpdate(service: KubeObject, old: KubeObject): Problem[] {
  const spec = serviceSpec(service);
  const before = serviceSpec(old);
  if (!needsClusterIP(spec) || !needsClusterIP(before) || (isHeadless(spec) && isHeadless(before))) return [];
  const ips = Array.isArray(spec['clusterIPs']) ? (spec['clusterIPs'] as unknown[]) : [];
  const oldIps = Array.isArray(before['clusterIPs']) ? (before['clusterIPs'] as unknown[]) : [];
  const field = path('spec').child('clusterIPs');
  if (ips.length < oldIps.length && ips.length === 0) return [{ ...fieldError.invalid(field.index(0), null, 'primary clusterIP can not be unset'), badValue: goStrings(ips) }];
  return oldIps.flatMap((ip, i) => (ips[i] !== undefined && ip !== ips[i] ? [{ ...fieldError.invalid(field.index(i), null, 'may not change once set'), badValue: goStrings(ips) }] : []));
}

export function serviceCauses(service: KubeObject, old: KubeObject | undefined): StatusCause[] {
  return toCauses([...validateService(service), ...(old ? validateServiceUpdate(service, old) : [])]);
}

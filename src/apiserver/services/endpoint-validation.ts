// Defaults and validation of core/v1 Endpoints and discovery.k8s.io/v1 EndpointSlices, after ValidateEndpoints
// and ValidateEndpointSlice in the part the proxy and DNS rely on: address types, addresses that match them,
// ports, at most 1000 endpoints per slice. kube refuses loopback endpoint addresses; the API server's own
// default/kubernetes endpoints are the exception, since the server listens on 127.0.0.1 by default (see
// docs/networking.md): they are written and kept by the server itself (system-services.ts).
import { isIP } from 'node:net';
import { fieldError } from '../../apimachinery/field-error.ts';
import { path, type FieldPath } from '../../apimachinery/field-path.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { validateName } from '../registry/object-meta-validation.ts';
import { dns1123Label, portNumberErrors, toCauses, VALID_IP, type Problem } from './field-checks.ts';

type Json = Record<string, unknown>;

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
export const KUBERNETES_SERVICE = { namespace: 'default', name: 'kubernetes' };

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function isServersOwn(object: KubeObject): boolean {
  return object.metadata.namespace === KUBERNETES_SERVICE.namespace && object.metadata.name === KUBERNETES_SERVICE.name;
}

/** ValidateEndpointIP: addresses a Service may not send traffic to. */
function endpointIPErrors(at: FieldPath, ip: string, allowLoopback: boolean): Problem[] {
  const errs: Problem[] = [];
  const v4 = isIP(ip) === 4 ? ip.split('.').map(Number) : undefined;
  const lower = ip.toLowerCase();
  if (ip === '0.0.0.0' || lower === '::') errs.push(fieldError.invalid(at, ip, `may not be unspecified (${ip})`));
  if (!allowLoopback && (v4?.[0] === 127 || lower === '::1')) errs.push(fieldError.invalid(at, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if ((v4?.[0] === 169 && v4[1] === 254) || /^fe[89ab]/.test(lower)) errs.push(fieldError.invalid(at, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if ((v4?.[0] === 224 && v4[1] === 0 && v4[2] === 0) || lower.startsWith('ff02:')) errs.push(fieldError.invalid(at, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function protocolErrors(at: FieldPath, protocol: unknown): Problem[] {
  if (protocol === undefined || protocol === '') return [fieldError.required(at)];
  return PROTOCOLS.includes(protocol as string) ? [] : [fieldError.notSupported(at, protocol, PROTOCOLS)];
}

export function defaultEndpoints(endpoints: KubeObject): void {
  for (const subset of objects(endpoints['subsets'])) for (const port of objects(subset['ports'])) port['protocol'] ??= 'TCP';
}

export function validateEndpoints(endpoints: KubeObject): StatusCause[] {
  const errs: Problem[] = [];
  const allowLoopback = isServersOwn(endpoints);
  objects(endpoints['subsets']).forEach((subset, i) => {
    const at = path('subsets').index(i);
    const addresses = objects(subset['addresses']);
    const notReady = objects(subset['notReadyAddresses']);
    if (addresses.length === 0 && notReady.length === 0) errs.push(fieldError.required(at, 'must specify `addresses` or `notReadyAddresses`'));
    for (const [key, list] of [
      ['addresses', addresses],
      ['notReadyAddresses', notReady],
    ] as const) {
      list.forEach((address, j) => {
        const ipPath = at.child(key).index(j).child('ip');
        const ip = address['ip'];
        if (typeof ip !== 'string' || isIP(ip) === 0) errs.push(fieldError.invalid(ipPath, ip, VALID_IP));
        else errs.push(...endpointIPErrors(ipPath, ip, allowLoopback));
        if (typeof address['hostname'] === 'string' && address['hostname'] !== '') errs.push(...dns1123Label(at.child(key).index(j).child('hostname'), address['hostname']));
      });
    }
    const ports = objects(subset['ports']);
    ports.forEach((port, j) => {
      const portPath = at.child('ports').index(j);
      const name = typeof port['name'] === 'string' ? port['name'] : '';
      if (ports.length > 1 && name === '') errs.push(fieldError.required(portPath.child('name')));
      else if (name !== '') errs.push(...dns1123Label(portPath.child('name'), name));
      errs.push(...portNumberErrors(portPath.child('port'), port['port']), ...protocolErrors(portPath.child('protocol'), port['protocol']));
    });
  });
  return toCauses(errs);
}

export function defaultEndpointSlice(slice: KubeObject): void {
  if (!Array.isArray(slice['endpoints'])) slice['endpoints'] = [];
  for (const port of objects(slice['ports'])) {
    port['name'] ??= '';
    port['protocol'] ??= 'TCP';
  }
}

function addressErrors(at: FieldPath, address: unknown, type: unknown, allowLoopback: boolean): Problem[] {
  const value = typeof address === 'string' ? address : '';
  switch (type) {
    case 'IPv4':
      return isIP(value) === 4 ? endpointIPErrors(at, value, allowLoopback) : [fieldError.invalid(at, address, 'must be a valid IPv4 address')];
    case 'IPv6':
      return isIP(value) === 6 ? endpointIPErrors(at, value, allowLoopback) : [fieldError.invalid(at, address, 'must be a valid IPv6 address')];
    case 'FQDN':
      if (value.split('.').length < 2) return [fieldError.invalid(at, address, 'should be a domain with at least two segments separated by dots')];
      return validateName(value, 'dns1123-subdomain', at.value);
    default:
      return [];
  }
}

export function validateEndpointSlice(slice: KubeObject, old: KubeObject | undefined): StatusCause[] {
  const errs: Problem[] = [];
  const type = slice['addressType'];
  if (type === undefined || type === '') errs.push(fieldError.required(path('addressType')));
  else if (!ADDRESS_TYPES.includes(type as string)) errs.push(fieldError.notSupported(path('addressType'), type, ADDRESS_TYPES));
  if (old && old['addressType'] !== type) errs.push(fieldError.invalid(path('addressType'), type, 'field is immutable'));
  const endpoints = objects(slice['endpoints']);
  if (endpoints.length > MAX_ENDPOINTS) errs.push(fieldError.tooMany(path('endpoints'), endpoints.length, MAX_ENDPOINTS));
  else {
    const allowLoopback = isServersOwn(slice);
    endpoints.forEach((endpoint, i) => {
      const at = path('endpoints').index(i).child('addresses');
      const addresses = Array.isArray(endpoint['addresses']) ? (endpoint['addresses'] as unknown[]) : [];
      if (addresses.length === 0) errs.push(fieldError.required(at, 'must contain at least 1 address'));
      else if (addresses.length > MAX_ADDRESSES) errs.push(fieldError.tooMany(at, addresses.length, MAX_ADDRESSES));
      addresses.forEach((address, j) => errs.push(...addressErrors(at.index(j), address, type, allowLoopback)));
      if (typeof endpoint['hostname'] === 'string') errs.push(...dns1123Label(path('endpoints').index(i).child('hostname'), endpoint['hostname']));
    });
  }
  const names = new Set<string>();
  objects(slice['ports']).forEach((port, i) => {
    const at = path('ports').index(i);
    const name = typeof port['name'] === 'string' ? port['name'] : '';
    if (name !== '') errs.push(...dns1123Label(at.child('name'), name));
    if (names.has(name)) errs.push(fieldError.duplicate(at.child('name'), name));
    names.add(name);
    errs.push(...protocolErrors(at.child('protocol'), port['protocol']));
    if (port['port'] !== undefined && port['port'] !== null) errs.push(...portNumberErrors(at.child('port'), port['port'], 0));
  });
  return toCauses(errs);
}

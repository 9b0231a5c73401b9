// ValidateIngressCreate, ValidateIngressUpdate, ValidateIngressStatusUpdate and ValidateIngressClass(Update)
// (kube-apiserver's pkg/apis/networking/validation, release 1.32) with its field errors: rules or a default
// backend, hosts (no IPs, wildcards only as `*.` prefixes), path types and paths, a backend that is a service
// (name and port name xor number) xor a resource, TLS secret names, the class name and the legacy class
// annotation; an IngressClass's controller (a domain-prefixed path, immutable) and its parameters' scope.
import { isIP } from 'node:net';
import { fieldError } from '../../apimachinery/field-error.ts';
import { path, type FieldPath } from '../../apimachinery/field-path.ts';
import { INGRESS_CLASS_ANNOTATION } from '../../apimachinery/ingress-classes.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { validateName } from '../registry/object-meta-validation.ts';
import { portNameErrors, portNumberErrors, VALID_IP, type Problem } from '../services/field-checks.ts';

type Json = Record<string, unknown>;

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const PARAMETER_SCOPES = ['Cluster', 'Namespace'];
const MAX_CONTROLLER_LENGTH = 250;
const WILDCARD_SUBDOMAIN = /^\*\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const WILDCARD_MESSAGE =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const HTTP_PATH = /^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/;

const rec = (v: unknown): Json => (isPlainObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function subdomain(at: FieldPath, value: string): Problem[] {
  return validateName(value, 'dns1123-subdomain', at.value);
}

/** IsWildcardDNS1123Subdomain. */
function wildcardSubdomain(at: FieldPath, value: string): Problem[] {
  const problems: Problem[] = [];
  if (value.length > 253) problems.push(fieldError.invalid(at, value, 'must be no more than 253 characters'));
  if (!WILDCARD_SUBDOMAIN.test(value)) problems.push(fieldError.invalid(at, value, WILDCARD_MESSAGE));
  return problems;
}

/** IsValidPathSegmentName: a kind or name that can be a URL path segment. */
function pathSegment(at: FieldPath, value: string): Problem[] {
  if (value === '.' || value === '..') return [fieldError.invalid(at, value, `may not be '${value}'`)];
  return ['/', '%'].filter((c) => value.includes(c)).map((c) => fieldError.invalid(at, value, `may not contain '${c}'`));
}

/** validateIngressTypedLocalObjectReference: apiGroup, kind and name of a resource backend or class parameters. */
function localObjectReference(ref: Json, at: FieldPath): Problem[] {
  const problems: Problem[] = [];
  if (typeof ref['apiGroup'] === 'string') problems.push(...subdomain(at.child('apiGroup'), ref['apiGroup']));
  for (const key of ['kind', 'name']) {
    const value = str(ref[key]);
    problems.push(...(value === '' ? [fieldError.required(at.child(key))] : pathSegment(at.child(key), value)));
  }
  return problems;
}

function backendErrors(backend: Json, at: FieldPath): Problem[] {
  const service = backend['service'];
  const resource = backend['resource'];
  const hasService = service !== undefined && service !== null;
  const hasResource = resource !== undefined && resource !== null;
  if (hasService && hasResource) return [fieldError.invalid(at, '', 'cannot set both resource and service backends')];
  if (hasResource) return localObjectReference(rec(resource), at.child('resource'));
  if (!hasService) return [fieldError.invalid(at, '', 'resource or service backend is required')];
  const problems: Problem[] = [];
  const name = str(rec(service)['name']);
  // ValidateServiceName: Service names are DNS-1035 labels.
  problems.push(...(name === '' ? [fieldError.required(at.child('service').child('name'))] : validateName(name, 'dns1035-label', at.child('service').child('name').value)));
  const port = rec(rec(service)['port']);
  const portName = str(port['name']);
  const portNumber = typeof port['number'] === 'number' ? port['number'] : 0;
  const portAt = at.child('service').child('port');
  if (portName !== '' && portNumber !== 0) problems.push(fieldError.invalid(at, '', 'cannot set both port name & port number'));
  else if (portName !== '') problems.push(...portNameErrors(portAt.child('name'), portName));
  else if (portNumber !== 0) problems.push(...portNumberErrors(portAt.child('number'), portNumber));
  else problems.push(fieldError.required(at, 'port name or number is required'));
  return problems;
}

function httpPathErrors(entry: Json, at: FieldPath): Problem[] {
  const pathType = entry['pathType'];
  if (pathType === undefined || pathType === null) return [fieldError.required(at.child('pathType'), 'pathType must be specified')];
  const problems: Problem[] = [];
  const value = str(entry['path']);
  const pathAt = at.child('path');
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) problems.push(fieldError.invalid(pathAt, value, 'must be an absolute path'));
    for (const sequence of INVALID_PATH_SEQUENCES) if (value.includes(sequence)) problems.push(fieldError.invalid(pathAt, value, `must not contain '${sequence}'`));
    for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) problems.push(fieldError.invalid(pathAt, value, `cannot end with '${suffix}'`));
  } else if (pathType === 'ImplementationSpecific') {
    if (value !== '' && !value.startsWith('/')) problems.push(fieldError.invalid(pathAt, value, 'must be an absolute path'));
  } else problems.push(fieldError.notSupported(at.child('pathType'), pathType, PATH_TYPES));
  problems.push(...backendErrors(rec(entry['backend']), at.child('backend')));
  return problems;
}

function ruleErrors(rule: Json, at: FieldPath): Problem[] {
  const problems: Problem[] = [];
  const host = str(rule['host']);
  if (host !== '') {
    if (isIP(host) !== 0) problems.push(fieldError.invalid(at.child('host'), host, 'must be a DNS name, not an IP address'));
    problems.push(...(host.includes('*') ? wildcardSubdomain(at.child('host'), host) : subdomain(at.child('host'), host)));
  }
  const http = rule['http'];
  if (http !== undefined && http !== null) {
    const paths = list(rec(http)['paths']);
    const pathsAt = at.child('http').child('paths');
    if (paths.length === 0) problems.push(fieldError.required(pathsAt));
    paths.forEach((entry, i) => problems.push(...httpPathErrors(rec(entry), pathsAt.index(i))));
  }
  return problems;
}

function tlsErrors(tls: Json, at: FieldPath): Problem[] {
  const problems: Problem[] = [];
  list(tls['hosts']).forEach((host, i) => {
    const value = str(host);
    problems.push(...(value.includes('*') ? wildcardSubdomain(at.child('hosts').index(i), value) : subdomain(at.child('hosts').index(i), value)));
  });
  const secretName = str(tls['secretName']);
  if (secretName !== '') problems.push(...subdomain(at.child('secretName'), secretName));
  return problems;
}

/** ValidateIngressSpec. */
function specErrors(spec: Json): Problem[] {
  const at = path('spec');
  const problems: Problem[] = [];
  const rules = spec['rules'];
  const defaultBackend = spec['defaultBackend'];
  const hasDefault = defaultBackend !== undefined && defaultBackend !== null;
  if (list(rules).length === 0 && !hasDefault) {
    problems.push(fieldError.invalidPrinted(at, Array.isArray(rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)', 'either `defaultBackend` or `rules` must be specified'));
  }
  if (hasDefault) problems.push(...backendErrors(rec(defaultBackend), at.child('defaultBackend')));
  list(rules).forEach((rule, i) => problems.push(...ruleErrors(rec(rule), at.child('rules').index(i))));
  list(spec['tls']).forEach((tls, i) => problems.push(...tlsErrors(rec(tls), at.child('tls').index(i))));
  if (typeof spec['ingressClassName'] === 'string') problems.push(...subdomain(at.child('ingressClassName'), spec['ingressClassName']));
  return problems;
}

/** ValidateIngressLoadBalancerStatus: the addresses a controller reports. */
function statusErrors(ingress: KubeObject): Problem[] {
  const at = path('status').child('loadBalancer').child('ingress');
  return list(rec(rec(ingress['status'])['loadBalancer'])['ingress']).flatMap((entry, i) => {
    const problems: Problem[] = [];
    const ip = str(rec(entry)['ip']);
    const hostname = str(rec(entry)['hostname']);
    if (ip !== '' && isIP(ip) === 0) problems.push(fieldError.invalid(at.index(i).child('ip'), ip, VALID_IP));
    if (hostname !== '') {
      problems.push(...subdomain(at.index(i).child('hostname'), hostname));
      if (isIP(hostname) !== 0) problems.push(fieldError.invalid(at.index(i).child('hostname'), hostname, 'must be a DNS name, not an IP address'));
    }
    return problems;
  });
}

/**
 * The whole of an Ingress write: the spec (on updates too, as ValidateIngressUpdate), the legacy class annotation
 * on create, and the status (unchanged by main-resource writes, which keep the stored one).
 */
export function validateIngress(ingress: KubeObject, old: KubeObject | undefined): Problem[] {
  const spec = rec(ingress['spec']);
  const problems = specErrors(spec);
  const annotation = ingress.metadata.annotations?.[INGRESS_CLASS_ANNOTATION];
  if (!old && annotation !== undefined && typeof spec['ingressClassName'] === 'string' && annotation !== spec['ingressClassName']) {
    problems.push(fieldError.invalid(path('annotations').child(INGRESS_CLASS_ANNOTATION), annotation, 'must match `ingressClassName` when both are specified'));
  }
  return [...problems, ...statusErrors(ingress)];
}

/** IsDomainPrefixedPath: `example.com/controller`. */
function domainPrefixedPath(at: FieldPath, value: string): Problem[] {
  const slash = value.indexOf('/');
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  if (slash <= 0 || rest === '') return [fieldError.invalid(at, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const problems = subdomain(at, host);
  if (!HTTP_PATH.test(rest)) problems.push(fieldError.invalid(at, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  return problems;
}

/** validateIngressClassParametersReference. */
function parametersErrors(parameters: Json, at: FieldPath): Problem[] {
  const problems = localObjectReference(parameters, at);
  const scope = parameters['scope'];
  if (scope === undefined || scope === null) return [...problems, fieldError.required(at.child('scope'))];
  if (!PARAMETER_SCOPES.includes(str(scope))) return [...problems, fieldError.notSupported(at.child('scope'), scope, PARAMETER_SCOPES)];
  const namespace = parameters['namespace'];
  const hasNamespace = namespace !== undefined && namespace !== null;
  if (scope === 'Namespace') {
    if (!hasNamespace) problems.push(fieldError.required(at.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else problems.push(...validateName(str(namespace), 'dns1123-label', at.child('namespace').value));
  } else if (hasNamespace) problems.push(fieldError.forbidden(at.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return problems;
}

/** ValidateIngressClass and, with `old`, ValidateIngressClassUpdate: the controller may not change. */
export function validateIngressClass(ingressClass: KubeObject, old: KubeObject | undefined): Problem[] {
  const spec = rec(ingressClass['spec']);
  const at = path('spec');
  const controller = str(spec['controller']);
  const problems: Problem[] = [];
  if (old && controller !== str(rec(old['spec'])['controller'])) problems.push(fieldError.invalid(at.child('controller'), controller, 'field is immutable'));
  if (controller === '') problems.push(fieldError.required(at.child('controller')));
  else {
    if (controller.length > MAX_CONTROLLER_LENGTH) problems.push(fieldError.tooLong(at.child('controller'), MAX_CONTROLLER_LENGTH));
    problems.push(...domainPrefixedPath(at.child('controller'), controller));
  }
  const parameters = spec['parameters'];
  if (parameters !== undefined && parameters !== null) problems.push(...parametersErrors(rec(parameters), at.child('parameters')));
  return problems;
}

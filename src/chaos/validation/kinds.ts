// Each disruption kind's own rules (upstream's <kind>.Validate()), in upstream's order and wording.
import { isIP } from 'node:net';
import { UNSUPPORTED_KINDS, type DisruptionKindName, type KindSpecField } from '../api/constants.ts';
import type { CPUPressureSpec, DNSDisruptionSpec, DisruptionSpec, MemoryPressureSpec, NetworkDisruptionHostSpec, NetworkDisruptionSpec, NetworkHTTPFilters } from '../api/types.ts';
import { countErrors } from './count.ts';
import { specError, type SpecError } from './errors.ts';
import { formatDuration } from '../../apimachinery/duration.ts';
import { durationNs, items, targetPercent } from './values.ts';

const HTTP_METHODS = ['GET', 'DELETE', 'POST', 'PUT', 'HEAD', 'PATCH', 'CONNECT', 'OPTIONS', 'TRACE'];
const MAX_HTTP_METHODS = 9;
const MAX_HTTP_PATHS = 20;
const MAX_HTTP_PATH_CHARACTERS = 90;
const METHODS_PREFIX = 'the methods specification at the network disruption level is not valid; ';
const PATHS_PREFIX = 'the paths specification at the network disruption level is not valid; ';

/** Values seen more than once, with their counts, in first-seen order. */
function duplicates(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > 1);
}

function hostErrors(h: NetworkDisruptionHostSpec, field: string): SpecError[] {
  return h.flow && !h.host && !h.port ? [specError(field, 'host or port fields must be set when the flow field is set')] : [];
}

function httpErrors(http: NetworkHTTPFilters): SpecError[] {
  const out: SpecError[] = [];
  const paths = items(http.paths);
  if (paths.length > MAX_HTTP_PATHS) {
    out.push(specError('spec.network.http.paths', `${PATHS_PREFIX}the number of paths must not be greater than ${MAX_HTTP_PATHS}; Number of paths: ${paths.length}`));
  } else {
    const seen = new Set<string>();
    paths.forEach((path, i) => {
      if (seen.has(path)) return;
      seen.add(path);
      const at = `spec.network.http.paths[${i}]`;
      if (paths.length > 1 && path === '/') out.push(specError(at, `${PATHS_PREFIX}no needs to define other paths if the / path is defined because it already catches all paths`));
      if (path.length > MAX_HTTP_PATH_CHARACTERS) out.push(specError(at, `${PATHS_PREFIX}should not exceed ${MAX_HTTP_PATH_CHARACTERS} characters`));
      else if (/\s/.test(path)) out.push(specError(at, `${PATHS_PREFIX}should not contains spaces`));
      else if (!path.startsWith('/')) out.push(specError(at, `${PATHS_PREFIX}should start with a /`));
    });
    for (const [path, n] of duplicates(paths)) out.push(specError('spec.network.http.paths', `${PATHS_PREFIX}should not contain duplicated paths. Count: ${n}; Path: ${path}`));
  }
  const methods = items(http.methods);
  if (methods.length > MAX_HTTP_METHODS) {
    out.push(specError('spec.network.http.methods', `${METHODS_PREFIX}the number of methods must not be greater than ${MAX_HTTP_METHODS}; Number of methods: ${methods.length}`));
    return out;
  }
  methods.forEach((m, i) => {
    if (!HTTP_METHODS.includes(m)) out.push(specError(`spec.network.http.methods[${i}]`, `${METHODS_PREFIX}should be a GET, DELETE, POST, PUT, HEAD, PATCH, CONNECT, OPTIONS or TRACE. Invalid value: ${m}`));
  });
  for (const [m, n] of duplicates(methods.filter((m) => HTTP_METHODS.includes(m)))) {
    out.push(specError('spec.network.http.methods', `${METHODS_PREFIX}should not contain duplicated methods. Count: ${n}; Method: ${m}`));
  }
  return out;
}

function networkErrors(n: NetworkDisruptionSpec): SpecError[] {
  const out: SpecError[] = [];
  items(n.hosts).forEach((h, i) => out.push(...hostErrors(h, `spec.network.hosts[${i}]`)));
  items(n.allowedHosts).forEach((h, i) => out.push(...hostErrors(h, `spec.network.allowedHosts[${i}]`)));
  if (!n.drop && !n.delay && !n.bandwidthLimit && !n.corrupt && !n.duplicate) {
    out.push(specError('spec.network', 'when applying a network disruption, at least one of network.drop, network.delay, network.corrupt, network.duplicate, or network.bandwidthLimit must be set'));
  }
  if (n.http) out.push(...httpErrors(n.http));
  if (typeof n.bandwidthLimit === 'number' && n.bandwidthLimit > 0 && n.bandwidthLimit < 32) out.push(specError('spec.network.bandwidthLimit', 'bandwidthLimits below 32 bytes are not supported'));
  if (n.cloud && !n.cloud.aws && !n.cloud.gcp && !n.cloud.datadog) {
    out.push(specError('spec.network.cloud', 'if network.cloud is specified, at least one of cloud.aws, cloud.gcp, or cloud.datadog must be set'));
  }
  return out;
}

function cpuPressureErrors(s: CPUPressureSpec): SpecError[] {
  return s.count === undefined || s.count === null ? [] : countErrors(s.count, 'spec.cpuPressure.count');
}

function memoryPressureErrors(s: MemoryPressureSpec): SpecError[] {
  const out: SpecError[] = [];
  const pct = targetPercent(typeof s.targetPercent === 'string' ? s.targetPercent : String(s.targetPercent ?? ''));
  if (!pct.ok) out.push(specError('spec.memoryPressure.targetPercent', `invalid targetPercent ${JSON.stringify(s.targetPercent ?? '')}: ${pct.error}`));
  else if (pct.value < 1 || pct.value > 100) out.push(specError('spec.memoryPressure.targetPercent', `targetPercent must be between 1 and 100, got ${pct.value}`));
  const ramp = durationNs(s.rampDuration);
  if (ramp.ok && ramp.value < 0n) out.push(specError('spec.memoryPressure.rampDuration', `rampDuration must be non-negative, got ${formatDuration(ramp.value)}`));
  return out;
}

const SPECIAL_DNS_VALUES = ['NXDOMAIN', 'DROP', 'SERVFAIL', 'RANDOM'];
const DNS_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV'];

function dnsValueError(i: number, type: string, value: string): string | undefined {
  const at = `spec.dns.records[${i}].record.value`;
  if (value.trim() === '') return `${at} cannot be empty`;
  const special = SPECIAL_DNS_VALUES.includes(value.trim().toUpperCase());
  const entries = value.split(',').map((e) => e.trim());
  switch (type.toUpperCase()) {
    case 'A':
    case 'AAAA': {
      if (special) return undefined;
      const family = type.toUpperCase() === 'A' ? 4 : 6;
      const bad = entries.find((ip) => isIP(ip) !== family);
      return bad === undefined ? undefined : `${at}: '${bad}' is not a valid IPv${family} address or special value`;
    }
    case 'MX':
      if (special) return `${at}: special values not allowed for MX records`;
      for (const parts of entries.map((e) => e.split(/\s+/).filter(Boolean))) {
        if (parts.length !== 2) return `${at}: MX record must be in format 'priority hostname' (e.g., '10 mail.example.com')`;
        if (!/^[+-]?\d+$/.test(parts[0] ?? '')) return `${at}: MX priority must be a number`;
      }
      return undefined;
    case 'SRV':
      if (special) return `${at}: special values not allowed for SRV records`;
      for (const parts of entries.map((e) => e.split(/\s+/).filter(Boolean))) {
        if (parts.length !== 4) return `${at}: SRV record must be in format 'priority weight port target' (e.g., '10 60 5060 sipserver.example.com')`;
        const bad = ['priority', 'weight', 'port'].find((_, k) => !/^[+-]?\d+$/.test(parts[k] ?? ''));
        if (bad) return `${at}: SRV ${bad} must be a number`;
      }
      return undefined;
    default:
      return special ? `${at}: special values not allowed for ${type.toUpperCase()} records` : undefined;
  }
}

function dnsErrors(s: DNSDisruptionSpec): SpecError[] {
  // The CRD keeps spec.dns open for the legacy list form, which upstream's current decoding refuses.
  if (Array.isArray(s)) return [specError('spec.dns', 'json: cannot unmarshal array into Go struct field DisruptionSpec.spec.dns of type v1beta1.DNSDisruptionSpec')];
  const out: SpecError[] = [];
  const records = items(s.records);
  if (records.length === 0) out.push(specError('spec.dns.records', 'spec.dns.records must contain at least one record'));
  const seen = new Map<string, number>();
  records.forEach((r, i) => {
    const at = `spec.dns.records[${i}]`;
    const hostname = typeof r.hostname === 'string' ? r.hostname : '';
    const type = typeof r.record?.type === 'string' ? r.record.type : '';
    if (hostname.trim() === '') out.push(specError(`${at}.hostname`, `spec.dns.records[${i}].hostname cannot be empty`));
    const key = `${hostname.trim().replace(/\.$/, '').toLowerCase()}|${type.trim().toUpperCase()}`;
    const first = seen.get(key);
    if (first !== undefined) out.push(specError(`${at}.hostname`, `spec.dns.records[${i}].hostname '${hostname}' with type '${type}' is duplicated (first seen at index ${first})`));
    else seen.set(key, i);
    if (!DNS_TYPES.includes(type.trim().toUpperCase())) {
      out.push(specError(`${at}.record.type`, `spec.dns.records[${i}].record.type must be one of: ${DNS_TYPES.join(', ')}`));
      return;
    }
    const message = dnsValueError(i, type, typeof r.record.value === 'string' ? r.record.value : '');
    if (message) out.push(specError(`${at}.record.value`, message));
  });
  if (s.port !== undefined && s.port !== 0 && (typeof s.port !== 'number' || s.port < 1 || s.port > 65535)) out.push(specError('spec.dns.port', 'spec.dns.port must be between 1 and 65535'));
  if (s.protocol && !['udp', 'tcp', 'both'].includes(String(s.protocol).toLowerCase())) out.push(specError('spec.dns.protocol', 'spec.dns.protocol must be one of: udp, tcp, both'));
  return out;
}

/** The rules of each kind the spec sets, in upstream's kind order. */
export function kindErrors(spec: DisruptionSpec, kinds: readonly [DisruptionKindName, KindSpecField][]): SpecError[] {
  const out: SpecError[] = [];
  for (const [kind, field] of kinds) {
    if (UNSUPPORTED_KINDS.includes(kind)) {
      out.push(specError(`spec.${field}`, `${kind} is not supported by this injector: it needs eBPF programs Bosun does not ship`));
      continue;
    }
    if (field === 'network' && spec.network) out.push(...networkErrors(spec.network));
    // Upstream turns cloud services into the providers' published IP ranges, which this controller does not fetch:
    // refused rather than run with no filter, which would disrupt all traffic.
    const cloud = spec.network?.cloud;
    if (field === 'network' && cloud && (cloud.aws || cloud.gcp || cloud.datadog)) {
      out.push(specError('spec.network.cloud', 'cloud managed services are not supported by this controller: it does not fetch the cloud providers\' IP ranges; list their hosts in spec.network.hosts instead'));
    }
    if (field === 'cpuPressure' && spec.cpuPressure) out.push(...cpuPressureErrors(spec.cpuPressure));
    if (field === 'memoryPressure' && spec.memoryPressure) out.push(...memoryPressureErrors(spec.memoryPressure));
    if (field === 'dns' && spec.dns) out.push(...dnsErrors(spec.dns));
  }
  return out;
}

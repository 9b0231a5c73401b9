// The network-disruption flags as upstream's cli/injector/network_disruption.go reads them, and the host and
// service formats of api/v1beta1 (NetworkDisruptionHostSpecFromString, NetworkDisruptionServiceSpecFromString).
import { InjectorOptionError, intValue, stringSliceValue, uintValue } from '../option-values.ts';

export type Flow = 'egress' | 'ingress';

/** `<host>;<port>;<protocol>;<flow>;<connState>;<dnsResolver>;<percentage>`, all but the host optional. */
export interface HostSpec {
  host: string;
  port: number;
  protocol: string;
  flow: string;
  connState: string;
  dnsResolver: string;
  percentage?: number;
}

/** `<name>;<namespace>;<port>-<name>;…;<percentage>`. */
export interface ServiceSpec {
  name: string;
  namespace: string;
  ports: { port: number; name: string }[];
  percentage?: number;
}

export interface NetworkDisruptionSpec {
  hosts: HostSpec[];
  allowedHosts: HostSpec[];
  services: ServiceSpec[];
  drop: number;
  duplicate: number;
  corrupt: number;
  /** Milliseconds. */
  delay: number;
  /** A percentage of the delay (upstream's unit despite the flag's description). */
  delayJitter: number;
  /** Bytes per second. */
  bandwidthLimit: number;
  httpMethods: string[];
  httpPaths: string[];
}

export function parseHostSpec(raw: string): HostSpec {
  const parts = splitN(raw, ';', 7);
  const port = parts[1] ? Number(parts[1]) : 0;
  if (!Number.isInteger(port)) throw new InjectorOptionError(`unexpected port parameter in ${raw}`);
  const spec: HostSpec = { host: parts[0] ?? '', port, protocol: parts[2] ?? '', flow: parts[3] ?? '', connState: parts[4] ?? '', dnsResolver: parts[5] ?? '' };
  if (parts[6]) {
    const percentage = Number(parts[6]);
    if (!Number.isInteger(percentage)) throw new InjectorOptionError(`unexpected percentage parameter in ${raw}`);
    spec.percentage = percentage;
  }
  return spec;
}

export function parseServiceSpec(raw: string): ServiceSpec {
  const parts = raw.split(';');
  if (parts.length < 2) throw new InjectorOptionError(`service format is expected to follow '<name>;<namespace>;<port-value>-<port-name>;<port-value>-<port-name>;<percentage>', unexpected format detected: ${raw}`);
  let portFields = parts.slice(2);
  let percentage: number | undefined;
  const last = portFields[portFields.length - 1];
  if (last !== undefined && !last.includes('-') && /^-?\d+$/.test(last)) {
    percentage = Number(last);
    portFields = portFields.slice(0, -1);
  }
  const ports = portFields.map((field) => {
    const dash = field.indexOf('-');
    if (dash < 0) throw new InjectorOptionError(`service port format is expected to follow '<port-value>-<port-name>', unexpected format detected: ${field}`);
    const port = Number(field.slice(0, dash));
    if (!Number.isInteger(port)) throw new InjectorOptionError(`port format is expected to be a valid integer, unexpected format detected in service port: ${field}`);
    return { port, name: field.slice(dash + 1) };
  });
  return { name: parts[0] ?? '', namespace: parts[1] ?? '', ports, ...(percentage !== undefined && { percentage }) };
}

/** Go's strings.SplitN. */
function splitN(s: string, sep: string, n: number): string[] {
  const parts = s.split(sep);
  return parts.length <= n ? parts : [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

export function networkDisruptionSpec(values: Readonly<Record<string, unknown>>): NetworkDisruptionSpec {
  const paths = values['path'] === undefined ? ['/'] : (Array.isArray(values['path']) ? values['path'] : [values['path']]).map(String);
  const methodsRaw = values['method'];
  const methods = methodsRaw === undefined ? [] : (Array.isArray(methodsRaw) ? methodsRaw : [methodsRaw]).map(String);
  return {
    hosts: stringSliceValue(values, 'hosts').map(parseHostSpec),
    allowedHosts: stringSliceValue(values, 'allowedHosts').map(parseHostSpec),
    services: stringSliceValue(values, 'services').map(parseServiceSpec),
    drop: intValue(values, 'drop', 100, '--drop'),
    duplicate: intValue(values, 'duplicate', 100, '--duplicate'),
    corrupt: intValue(values, 'corrupt', 100, '--corrupt'),
    delay: uintValue(values, 'delay', 0, '--delay'),
    delayJitter: uintValue(values, 'delayJitter', 0, '--delay-jitter'),
    bandwidthLimit: intValue(values, 'bandwidthLimit', 0, '--bandwidth-limit'),
    httpMethods: methods,
    httpPaths: paths,
  };
}

/** api/v1beta1 HasHTTPFilters: a method, or a path other than the default `/`. */
export const hasHttpFilters = (spec: NetworkDisruptionSpec): boolean => spec.httpMethods.length > 0 || spec.httpPaths.some((p) => p !== '/');

/** A spec that disrupts nothing: what upstream gives every targeted container but the first (they share the pod's netns). */
export function emptySpec(): NetworkDisruptionSpec {
  return { hosts: [], allowedHosts: [], services: [], drop: 0, duplicate: 0, corrupt: 0, delay: 0, delayJitter: 0, bandwidthLimit: 0, httpMethods: [], httpPaths: ['/'] };
}


// upstream's `chaos_validate` struct tags (go-playground validator: required, gte, lte, oneofci, dive) with the
// translations upstream registers, so that each message names the Go field as upstream prints it
// ("DisruptionSpec.Network.Drop is set to 150, but must be less or equal to 100").
import type { DisruptionSpec, NetworkDisruptionCloudServiceSpec, NetworkDisruptionHostSpec } from '../api/types.ts';
import { specError, type SpecError } from './errors.ts';
import { items } from './values.ts';

interface Check {
  /** JSON path, for the user. */
  field: string;
  /** Go namespace, for the message. */
  goField: string;
  value: unknown;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && v !== 0 && v !== false;

/** gte/lte on a number; `pointer`: a set 0 is checked too (omitempty only skips nil pointers). */
function range(out: SpecError[], c: Check, min: number | undefined, max: number | undefined, pointer = false): void {
  if (pointer ? c.value === undefined || c.value === null : !isSet(c.value)) return;
  if (typeof c.value !== 'number') {
    out.push(specError(c.field, `could not determine value ${String(c.value)} for field ${c.goField.split('.').pop() ?? ''}`));
    return;
  }
  if (min !== undefined && c.value < min) out.push(specError(c.field, `${c.goField} is set to ${c.value}, but must be greater or equal to ${min}`));
  if (max !== undefined && c.value > max) out.push(specError(c.field, `${c.goField} is set to ${c.value}, but must be less or equal to ${max}`));
}

/** oneofci: one of the options, any case. */
function oneOf(out: SpecError[], c: Check, options: readonly string[]): void {
  if (!isSet(c.value)) return;
  const shown = options.join(', ');
  if (typeof c.value !== 'string') out.push(specError(c.field, `could not permit value "${String(c.value)}" for field ${c.goField.split('.').pop() ?? ''}, try one of "${shown}"`));
  else if (!options.includes(c.value.toLowerCase())) out.push(specError(c.field, `${c.goField} is set to ${c.value}, but must be one of the following: "${shown}"`));
}

function required(out: SpecError[], c: Check): void {
  const empty = c.value === undefined || c.value === null || c.value === '' || (typeof c.value === 'object' && Object.values(c.value).every((v) => v === undefined || v === null));
  if (empty) out.push(specError(c.field, `${c.goField} is a required field, and must be set`));
}

function host(out: SpecError[], h: NetworkDisruptionHostSpec, field: string, goField: string): void {
  range(out, { field: `${field}.port`, goField: `${goField}.Port`, value: h.port }, 0, 65535);
  oneOf(out, { field: `${field}.protocol`, goField: `${goField}.Protocol`, value: h.protocol }, ['udp', 'tcp']);
  oneOf(out, { field: `${field}.flow`, goField: `${goField}.Flow`, value: h.flow }, ['ingress', 'egress']);
  oneOf(out, { field: `${field}.connState`, goField: `${goField}.ConnState`, value: h.connState }, ['new', 'est']);
  oneOf(out, { field: `${field}.dnsResolver`, goField: `${goField}.DNSResolver`, value: h.dnsResolver }, ['pod', 'node', 'pod-fallback-node', 'node-fallback-pod']);
  range(out, { field: `${field}.percentage`, goField: `${goField}.Percentage`, value: h.percentage }, 1, 100, true);
}

function cloudService(out: SpecError[], s: NetworkDisruptionCloudServiceSpec, field: string, goField: string): void {
  required(out, { field: `${field}.service`, goField: `${goField}.ServiceName`, value: s.service });
  oneOf(out, { field: `${field}.protocol`, goField: `${goField}.Protocol`, value: s.protocol }, ['tcp', 'udp']);
  oneOf(out, { field: `${field}.flow`, goField: `${goField}.Flow`, value: s.flow }, ['ingress', 'egress']);
  oneOf(out, { field: `${field}.connState`, goField: `${goField}.ConnState`, value: s.connState }, ['new', 'est']);
}

export function validateStructTags(spec: DisruptionSpec): SpecError[] {
  const out: SpecError[] = [];
  const S = 'DisruptionSpec';
  if (spec.count === undefined || spec.count === null) out.push(specError('spec.count', `${S}.Count is a required field, and must be set`));
  oneOf(out, { field: 'spec.level', goField: `${S}.Level`, value: spec.level }, ['pod', 'node']);
  const n = spec.network;
  if (n) {
    const N = `${S}.Network`;
    for (const [key, go, max] of [['drop', 'Drop', 100], ['duplicate', 'Duplicate', 100], ['corrupt', 'Corrupt', 100], ['delay', 'Delay', 60000], ['delayJitter', 'DelayJitter', 100]] as const) {
      range(out, { field: `spec.network.${key}`, goField: `${N}.${go}`, value: n[key] }, 0, max);
    }
    range(out, { field: 'spec.network.bandwidthLimit', goField: `${N}.BandwidthLimit`, value: n.bandwidthLimit }, 0, undefined);
    items(n.hosts).forEach((h, i) => host(out, h, `spec.network.hosts[${i}]`, `${N}.Hosts[${i}]`));
    items(n.allowedHosts).forEach((h, i) => host(out, h, `spec.network.allowedHosts[${i}]`, `${N}.AllowedHosts[${i}]`));
    items(n.services).forEach((s, i) => {
      items(s.ports).forEach((p, j) => range(out, { field: `spec.network.services[${i}].ports[${j}].port`, goField: `${N}.Services[${i}].Ports[${j}].Port`, value: p.port }, 0, 65535));
      range(out, { field: `spec.network.services[${i}].percentage`, goField: `${N}.Services[${i}].Percentage`, value: s.percentage }, 1, 100, true);
    });
    for (const [key, go] of [['aws', 'AWSServiceList'], ['gcp', 'GCPServiceList'], ['datadog', 'DatadogServiceList']] as const) {
      items(n.cloud?.[key]).forEach((s, i) => cloudService(out, s, `spec.network.cloud.${key}[${i}]`, `${N}.Cloud.${go}[${i}]`));
    }
  }
  if (spec.memoryPressure) required(out, { field: 'spec.memoryPressure.targetPercent', goField: `${S}.MemoryPressure.TargetPercent`, value: spec.memoryPressure.targetPercent });
  if (spec.diskPressure) {
    required(out, { field: 'spec.diskPressure.path', goField: `${S}.DiskPressure.Path`, value: spec.diskPressure.path });
    // `required` on a struct (WithRequiredStructEnabled): at least one throttle must be given.
    required(out, { field: 'spec.diskPressure.throttling', goField: `${S}.DiskPressure.Throttling`, value: spec.diskPressure.throttling ?? {} });
  }
  return out;
}

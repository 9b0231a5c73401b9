// What a namespace's objects consume, as kube-apiserver's quota evaluators count it: object counts (`pods`,
// `services`, `configmaps`, `secrets`, `persistentvolumeclaims`, `count/<resource>[.<group>]`), and the pods'
// (non-terminal) container requests and limits (`requests.cpu`, `cpu`, `limits.memory`, ...) and the claims'
// `requests.storage`.
import type { KubeObject } from '../../apimachinery/object.ts';
import { isPlainObject } from '../../apimachinery/object.ts';
import { milliValue, parseQuantity } from '../../apimachinery/quantity.ts';

type Json = Record<string, unknown>;

const LEGACY_COUNTS: Record<string, string> = {
  pods: '/pods',
  services: '/services',
  configmaps: '/configmaps',
  secrets: '/secrets',
  persistentvolumeclaims: '/persistentvolumeclaims',
  replicationcontrollers: '/replicationcontrollers',
  resourcequotas: '/resourcequotas',
};

/** The storage key (group/plural) a count resource counts, or undefined when the name is no count. */
export function countedKey(resource: string): string | undefined {
  const legacy = LEGACY_COUNTS[resource];
  if (legacy) return legacy;
  if (!resource.startsWith('count/')) return undefined;
  const name = resource.slice('count/'.length);
  const dot = name.indexOf('.');
  return dot < 0 ? `/${name}` : `${name.slice(dot + 1)}/${name.slice(0, dot)}`;
}

const record = (value: unknown): Json => (isPlainObject(value) ? value : {});

function isTerminalPod(pod: KubeObject): boolean {
  const phase = record(pod['status'])['phase'];
  return phase === 'Succeeded' || phase === 'Failed';
}

/** A pod's effective request or limit of one resource (the larger of the containers' sum and any init container's). */
function podAmount(pod: KubeObject, kind: 'requests' | 'limits', resource: string): number {
  const spec = record(pod['spec']);
  const amount = (c: unknown): number => {
    const value = record(record(record(c)['resources'])[kind])[resource];
    return typeof value === 'string' || typeof value === 'number' ? parseQuantity(String(value)) : 0;
  };
  const containers = Array.isArray(spec['containers']) ? spec['containers'] : [];
  const inits = Array.isArray(spec['initContainers']) ? spec['initContainers'] : [];
  return Math.max(containers.reduce((sum: number, c) => sum + amount(c), 0), ...inits.map(amount));
}

/** The containers lacking what a compute quota tracks: kube refuses such pods ("must specify"). */
export function missingCompute(pod: KubeObject, hard: readonly string[]): string[] {
  const spec = record(pod['spec']);
  const containers = [...(Array.isArray(spec['initContainers']) ? spec['initContainers'] : []), ...(Array.isArray(spec['containers']) ? spec['containers'] : [])];
  const missing: string[] = [];
  for (const resource of hard) {
    const [kind, name] = resource.includes('.') ? (resource.split('.', 2) as [string, string]) : ['requests', resource];
    if ((kind !== 'requests' && kind !== 'limits') || (name !== 'cpu' && name !== 'memory')) continue;
    const lacking = containers.filter((c) => record(record(record(c)['resources'])[kind])[name] === undefined).map((c) => String(record(c)['name']));
    if (lacking.length > 0) missing.push(`${resource} for: ${lacking.join(',')}`);
  }
  return missing;
}

/** What one object consumes of `resource` (0 when it does not count towards it). */
export function usageOf(key: string, object: KubeObject, resource: string): number {
  const counted = countedKey(resource);
  if (counted !== undefined) return counted === key && !(key === '/pods' && isTerminalPod(object)) ? 1 : 0;
  if (key === '/pods') {
    if (isTerminalPod(object)) return 0;
    const [kind, name] = resource.includes('.') ? (resource.split('.', 2) as [string, string]) : ['requests', resource];
    if ((kind === 'requests' || kind === 'limits') && (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage')) return podAmount(object, kind, name);
  }
  if (key === '/persistentvolumeclaims' && resource === 'requests.storage') {
    const storage = record(record(record(object['spec'])['resources'])['requests'])['storage'];
    return storage === undefined ? 0 : parseQuantity(String(storage));
  }
  return 0;
}

/** A total as kube prints it: CPU in cores or millicores, memory in binary units when exact, counts as integers. */
export function formatUsage(resource: string, value: number): string {
  if (resource.endsWith('cpu')) {
    const milli = milliValue(String(value));
    return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
  }
  const bytes = Math.ceil(value - 1e-9);
  for (const [suffix, factor] of [['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
    if (bytes !== 0 && bytes % factor === 0) return `${bytes / factor}${suffix}`;
  }
  return String(bytes);
}

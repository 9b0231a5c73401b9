// core/v1 PodSpec defaulting and validation, for pods and for the pod templates of workloads, after
// kube-apiserver's SetDefaults_PodSpec/SetDefaults_Container and ValidatePodSpec: what a kubelet relies on
// being set (restart policy, grace period, probe timings) and the mistakes it must never see (a mount of a
// volume the pod lacks, a negative limit, a request above its limit), refused with kube-apiserver's words.
import { isPlainObject, type StatusCause } from '../../apimachinery/object.ts';
import { parseQuantity, QUANTITY_SYNTAX_MESSAGE, QuantityError } from '../../apimachinery/quantity.ts';

type Json = Record<string, unknown>;

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
/** The default mode of projected files: 0644. */
const DEFAULT_FILE_MODE = 0o644;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

function containersOf(spec: Json): { path: string; container: Json }[] {
  return [
    ...list(spec['initContainers']).map((container, i) => ({ path: `initContainers[${i}]`, container })),
    ...list(spec['containers']).map((container, i) => ({ path: `containers[${i}]`, container })),
  ];
}

/** kubelet pulls an image without a tag, or tagged latest, every time. */
function imagePullPolicy(image: unknown): string {
  if (typeof image !== 'string' || image.includes('@')) return 'IfNotPresent';
  const lastSegment = image.slice(image.lastIndexOf('/') + 1);
  const tag = lastSegment.includes(':') ? lastSegment.slice(lastSegment.indexOf(':') + 1) : 'latest';
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(probe: unknown): void {
  if (!isPlainObject(probe)) return;
  probe['timeoutSeconds'] ??= 1;
  probe['periodSeconds'] ??= 10;
  probe['successThreshold'] ??= 1;
  probe['failureThreshold'] ??= 3;
  const httpGet = probe['httpGet'];
  if (isPlainObject(httpGet)) {
    httpGet['path'] ??= '/';
    httpGet['scheme'] ??= 'HTTP';
  }
}

function defaultContainer(container: Json): void {
  container['terminationMessagePath'] ??= '/dev/termination-log';
  container['terminationMessagePolicy'] ??= 'File';
  container['imagePullPolicy'] ??= imagePullPolicy(container['image']);
  const resources = isPlainObject(container['resources']) ? container['resources'] : (container['resources'] = {});
  // SetDefaults_Pod: a resource that is limited but not requested is requested at its limit.
  if (isPlainObject(resources['limits'])) {
    const requests = isPlainObject(resources['requests']) ? resources['requests'] : {};
    for (const [name, limit] of Object.entries(resources['limits'])) requests[name] ??= limit;
    if (Object.keys(requests).length > 0) resources['requests'] = requests;
  }
  for (const port of list(container['ports'])) port['protocol'] ??= 'TCP';
  for (const name of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(container[name]);
  for (const env of list(container['env'])) {
    const fieldRef = isPlainObject(env['valueFrom']) ? env['valueFrom']['fieldRef'] : undefined;
    if (isPlainObject(fieldRef)) fieldRef['apiVersion'] ??= 'v1';
  }
}

function defaultVolume(volume: Json): void {
  for (const source of ['configMap', 'secret', 'downwardAPI', 'projected']) {
    const value = volume[source];
    if (isPlainObject(value)) value['defaultMode'] ??= DEFAULT_FILE_MODE;
  }
  if (isPlainObject(volume['hostPath'])) volume['hostPath']['type'] ??= '';
}

/** SetDefaults_PodSpec and the containers' and volumes' defaults, in place. */
export function defaultPodSpec(spec: Json): void {
  spec['restartPolicy'] ??= 'Always';
  spec['terminationGracePeriodSeconds'] ??= 30;
  spec['dnsPolicy'] ??= 'ClusterFirst';
  spec['securityContext'] ??= {};
  spec['schedulerName'] ??= 'default-scheduler';
  spec['enableServiceLinks'] ??= true;
  for (const { container } of containersOf(spec)) defaultContainer(container);
  for (const volume of list(spec['volumes'])) defaultVolume(volume);
}

function quantityCauses(path: string, values: unknown): { causes: StatusCause[]; parsed: Map<string, number> } {
  const causes: StatusCause[] = [];
  const parsed = new Map<string, number>();
  if (!isPlainObject(values)) return { causes, parsed };
  for (const [name, value] of Object.entries(values)) {
    const field = `${path}[${name}]`;
    try {
      const quantity = parseQuantity(String(value));
      if (quantity < 0) causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${String(value)}": must be greater than or equal to 0` });
      else parsed.set(name, quantity);
    } catch (error) {
      if (!(error instanceof QuantityError)) throw error;
      causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: "${String(value)}": ${QUANTITY_SYNTAX_MESSAGE}` });
    }
  }
  return { causes, parsed };
}

function resourceCauses(path: string, resources: unknown): StatusCause[] {
  if (!isPlainObject(resources)) return [];
  const limits = quantityCauses(`${path}.limits`, resources['limits']);
  const requests = quantityCauses(`${path}.requests`, resources['requests']);
  const causes = [...limits.causes, ...requests.causes];
  for (const [name, request] of requests.parsed) {
    const limit = limits.parsed.get(name);
    if (limit !== undefined && request > limit) {
      const limitText = String((resources['limits'] as Json)[name]);
      causes.push({ reason: 'FieldValueInvalid', field: `${path}.requests`, message: `Invalid value: "${String((resources['requests'] as Json)[name])}": must be less than or equal to ${name} limit of ${limitText}` });
    }
  }
  return causes;
}

function nameCauses(field: string, name: unknown, seen: Set<string>): StatusCause[] {
  if (typeof name !== 'string' || name === '') return [{ reason: 'FieldValueRequired', field, message: 'Required value' }];
  if (name.length > 63 || !DNS_LABEL.test(name)) return [{ reason: 'FieldValueInvalid', field, message: `Invalid value: "${name}": ${DNS_LABEL_MESSAGE}` }];
  if (seen.has(name)) return [{ reason: 'FieldValueDuplicate', field, message: `Duplicate value: "${name}"` }];
  seen.add(name);
  return [];
}

/** ValidatePodSpec's checks a node agent depends on; path is "spec" or "spec.template.spec". */
export function validatePodSpec(spec: Json, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const volumeNames = new Set<string>();
  list(spec['volumes']).forEach((volume, i) => causes.push(...nameCauses(`${path}.volumes[${i}].name`, volume['name'], volumeNames)));
  if (list(spec['containers']).length === 0) causes.push({ reason: 'FieldValueRequired', field: `${path}.containers`, message: 'Required value' });
  const containerNames = new Set<string>();
  for (const { path: at, container } of containersOf(spec)) {
    const prefix = `${path}.${at}`;
    causes.push(...nameCauses(`${prefix}.name`, container['name'], containerNames));
    if (typeof container['image'] !== 'string' || container['image'].trim() === '') causes.push({ reason: 'FieldValueRequired', field: `${prefix}.image`, message: 'Required value' });
    list(container['volumeMounts']).forEach((mount, i) => {
      const name = mount['name'];
      if (typeof name !== 'string' || !volumeNames.has(name)) causes.push({ reason: 'FieldValueNotFound', field: `${prefix}.volumeMounts[${i}].name`, message: `Not found: ${JSON.stringify(name ?? '')}` });
      if (typeof mount['mountPath'] !== 'string' || mount['mountPath'] === '') causes.push({ reason: 'FieldValueRequired', field: `${prefix}.volumeMounts[${i}].mountPath`, message: 'Required value' });
    });
    causes.push(...resourceCauses(`${prefix}.resources`, container['resources']));
  }
  const policy = spec['restartPolicy'];
  if (policy !== undefined && (typeof policy !== 'string' || !RESTART_POLICIES.includes(policy))) {
    causes.push({ reason: 'FieldValueNotSupported', field: `${path}.restartPolicy`, message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Always", "OnFailure", "Never"` });
  }
  const deadline = spec['activeDeadlineSeconds'];
  if (deadline !== undefined && (typeof deadline !== 'number' || !Number.isInteger(deadline) || deadline < 1 || deadline > 2147483647)) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.activeDeadlineSeconds`, message: `Invalid value: ${JSON.stringify(deadline)}: must be between 1 and 2147483647, inclusive` });
  }
  const grace = spec['terminationGracePeriodSeconds'];
  if (grace !== undefined && (typeof grace !== 'number' || !Number.isInteger(grace))) {
    causes.push({ reason: 'FieldValueInvalid', field: `${path}.terminationGracePeriodSeconds`, message: `Invalid value: ${JSON.stringify(grace)}: must be an integer` });
  }
  return causes;
}

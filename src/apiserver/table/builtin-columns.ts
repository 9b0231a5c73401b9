// Table printers for the built-in kinds, after kube-apiserver's internalversion printers. The server always
// prints the wide cells; kubectl hides priority > 0 columns unless `-o wide`.
import type { KubeObject } from '../../apimachinery/object.ts';
import { age, CREATION_TIMESTAMP_DESCRIPTION, humanDuration, NAME_DESCRIPTION, type RowPrinter, type TableColumnDefinition } from './table.ts';

type Json = Record<string, unknown>;

function col(name: string, description: string, priority = 0, type = 'string', format = ''): TableColumnDefinition {
  return { name, type, format, description, priority };
}

const NAME = col('Name', NAME_DESCRIPTION, 0, 'string', 'name');
const AGE = col('Age', CREATION_TIMESTAMP_DESCRIPTION);

function rec(v: unknown): Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
}
function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? (v as unknown[]) : [];
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
function count(v: unknown): number {
  return Array.isArray(v) ? v.length : Object.keys(rec(v)).length;
}

function printer(columnDefinitions: TableColumnDefinition[], cells: (obj: KubeObject, now: Date) => unknown[]): RowPrinter {
  return { columnDefinitions, cells };
}

const namespacePrinter = printer([NAME, col('Status', 'The status of the namespace'), AGE], (o, now) => [
  o.metadata.name ?? '',
  str(rec(o['status']).phase),
  age(o.metadata.creationTimestamp, now),
]);

const configMapPrinter = printer([NAME, col('Data', 'Number of data in the configmap'), AGE], (o, now) => [
  o.metadata.name ?? '',
  count(o['data']) + count(o['binaryData']),
  age(o.metadata.creationTimestamp, now),
]);

const secretPrinter = printer(
  [NAME, col('Type', 'The type of the secret'), col('Data', 'The number secret data'), AGE],
  (o, now) => [o.metadata.name ?? '', str(o['type']), count(o['data']), age(o.metadata.creationTimestamp, now)],
);

const serviceAccountPrinter = printer([NAME, col('Secrets', 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use.'), AGE], (o, now) => [
  o.metadata.name ?? '',
  count(o['secrets']),
  age(o.metadata.creationTimestamp, now),
]);

const leasePrinter = printer([NAME, col('Holder', 'holderIdentity contains the identity of the holder of a current lease.'), AGE], (o, now) => [
  o.metadata.name ?? '',
  str(rec(o['spec']).holderIdentity),
  age(o.metadata.creationTimestamp, now),
]);

const crdPrinter = printer([NAME, col('Created At', CREATION_TIMESTAMP_DESCRIPTION, 0, 'date')], (o) => [
  o.metadata.name ?? '',
  o.metadata.creationTimestamp ? new Date(o.metadata.creationTimestamp).toISOString().replace(/\.\d{3}Z$/, 'Z') : '0001-01-01T00:00:00Z',
]);

/** rest.NewDefaultTableConvertor: what a kind without its own printer gets. */
export const defaultPrinter: RowPrinter = crdPrinter;

function isRestartableInit(c: Json | undefined): boolean {
  return c !== undefined && c['restartPolicy'] === 'Always';
}

function laterOf(a: string, b: unknown): string {
  const s = str(b);
  return s && (!a || Date.parse(s) > Date.parse(a)) ? s : a;
}

/** printPod's READY, STATUS and RESTARTS logic. */
export function podSummary(pod: KubeObject, now: Date): { ready: string; status: string; restarts: string } {
  const spec = rec(pod['spec']);
  const status = rec(pod['status']);
  const phase = str(status.phase);
  let reason = str(status.reason) || phase;
  for (const c of arr(status.conditions)) {
    const cond = rec(c);
    if (cond.type === 'PodScheduled' && cond.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initSpecs = new Map<string, Json>();
  let total = arr(spec.containers).length;
  for (const c of arr(spec.initContainers)) {
    const ic = rec(c);
    initSpecs.set(str(ic.name), ic);
    if (isRestartableInit(ic)) total++;
  }
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart = '';
  let lastSidecarRestart = '';
  let initializing = false;
  const initStatuses = arr(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = rec(initStatuses[i]);
    const state = rec(cs.state);
    const terminated = state.terminated === undefined ? undefined : rec(state.terminated);
    const waiting = state.waiting === undefined ? undefined : rec(state.waiting);
    restarts += num(cs.restartCount);
    const lastTerm = rec(rec(cs.lastState).terminated);
    lastRestart = laterOf(lastRestart, lastTerm.finishedAt);
    const restartable = isRestartableInit(initSpecs.get(str(cs.name)));
    if (restartable) {
      sidecarRestarts += num(cs.restartCount);
      lastSidecarRestart = laterOf(lastSidecarRestart, lastTerm.finishedAt);
    }
    if (terminated && num(terminated.exitCode) === 0) continue;
    if (restartable && cs.started === true) {
      if (cs.ready === true) ready++;
      continue;
    }
    if (terminated) {
      const r = str(terminated.reason);
      if (r) reason = `Init:${r}`;
      else if (num(terminated.signal) !== 0) reason = `Init:Signal:${num(terminated.signal)}`;
      else reason = `Init:ExitCode:${num(terminated.exitCode)}`;
    } else if (waiting && str(waiting.reason) && waiting.reason !== 'PodInitializing') {
      reason = `Init:${str(waiting.reason)}`;
    } else {
      reason = `Init:${i}/${arr(spec.initContainers).length}`;
    }
    initializing = true;
    break;
  }
  const initializedTrue = arr(status.conditions).some((c) => rec(c).type === 'Initialized' && rec(c).status === 'True');
  if (!initializing || initializedTrue) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses = arr(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = rec(statuses[i]);
      const state = rec(cs.state);
      restarts += num(cs.restartCount);
      lastRestart = laterOf(lastRestart, rec(rec(cs.lastState).terminated).finishedAt);
      const waiting = state.waiting === undefined ? undefined : rec(state.waiting);
      const terminated = state.terminated === undefined ? undefined : rec(state.terminated);
      if (waiting && str(waiting.reason)) reason = str(waiting.reason);
      else if (terminated && str(terminated.reason)) reason = str(terminated.reason);
      else if (terminated) reason = num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
      else if (cs.ready === true && state.running !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      const podReady = arr(status.conditions).some((c) => rec(c).type === 'Ready' && rec(c).status === 'True');
      reason = podReady ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed') reason = 'Terminating';
  let restartsStr = String(restarts);
  if (restarts !== 0 && lastRestart) restartsStr = `${restarts} (${age(lastRestart, now)} ago)`;
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsStr };
}

const podPrinter = printer(
  [
    NAME,
    col('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    col('Status', 'The aggregate status of the containers in this pod.'),
    col('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    AGE,
    col('IP', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', 1),
    col('Node', 'NodeName indicates in which node this pod is scheduled.', 1),
    col('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods on the node.', 1),
    col('Readiness Gates', 'If specified, all readiness gates will be evaluated for pod readiness.', 1),
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const s = podSummary(o, now);
    const ips = arr(status.podIPs);
    const ip = str(rec(ips[0]).ip) || str(status.podIP) || '<none>';
    let gates = '<none>';
    const specGates = arr(spec.readinessGates);
    if (specGates.length > 0) {
      let trueCount = 0;
      for (const g of specGates) {
        const cond = arr(status.conditions).map(rec).find((c) => c.type === rec(g).conditionType);
        if (cond?.status === 'True') trueCount++;
      }
      gates = `${trueCount}/${specGates.length}`;
    }
    return [
      o.metadata.name ?? '',
      s.ready,
      s.status,
      s.restarts,
      age(o.metadata.creationTimestamp, now),
      ip,
      str(spec.nodeName) || '<none>',
      str(status.nominatedNodeName) || '<none>',
      gates,
    ];
  },
);

/** metav1.FormatLabelSelector. */
export function formatLabelSelector(selector: unknown): string {
  const sel = rec(selector);
  const parts: { key: string; text: string }[] = [];
  for (const [k, v] of Object.entries(rec(sel.matchLabels))) parts.push({ key: k, text: `${k}=${str(v)}` });
  for (const e of arr(sel.matchExpressions)) {
    const expr = rec(e);
    const key = str(expr.key);
    const values = arr(expr.values).map(str).sort().join(',');
    const op = str(expr.operator);
    const text = op === 'In' ? `${key} in (${values})` : op === 'NotIn' ? `${key} notin (${values})` : op === 'Exists' ? key : op === 'DoesNotExist' ? `!${key}` : '<error>';
    parts.push({ key, text });
  }
  parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const out = parts.map((p) => p.text).join(',');
  return out || '<none>';
}

function hasCondition(conditions: unknown, type: string): boolean {
  return arr(conditions).some((c) => rec(c).type === type && rec(c).status === 'True');
}

const CONTAINERS = col('Containers', 'Names of each container in the template.', 1);
const IMAGES = col('Images', 'Images referenced by each container in the template.', 1);

/**
 * Job, Deployment and ReplicaSet: Name, the kind's own columns, Age, then the wide columns every workload
 * prints from its pod template (containers, images) and its selector.
 */
function workloadPrinter(
  columns: TableColumnDefinition[],
  selectorDescription: string,
  cells: (o: KubeObject, spec: Json, status: Json, now: Date) => unknown[],
): RowPrinter {
  return printer([NAME, ...columns, AGE, CONTAINERS, IMAGES, col('Selector', selectorDescription, 1)], (o, now) => {
    const spec = rec(o['spec']);
    const containers = arr(rec(rec(spec.template).spec).containers).map(rec);
    return [
      o.metadata.name ?? '',
      ...cells(o, spec, rec(o['status']), now),
      age(o.metadata.creationTimestamp, now),
      containers.map((c) => str(c.name)).join(','),
      containers.map((c) => str(c.image)).join(','),
      formatLabelSelector(spec.selector),
    ];
  });
}

const jobPrinter = workloadPrinter(
  [
    col('Status', 'Status of the job.'),
    col('Completions', 'The number of pods which reached phase Succeeded.'),
    col('Duration', 'Time required to complete the job.'),
  ],
  'A label query over pods that should match the pod count.',
  (o, spec, status, now) => {
    const succeeded = num(status.succeeded);
    let completions: string;
    if (typeof spec.completions === 'number') completions = `${succeeded}/${spec.completions}`;
    else {
      const parallelism = num(spec.parallelism);
      completions = parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
    }
    const start = str(status.startTime);
    const end = str(status.completionTime);
    let duration = '';
    if (start && !end) duration = humanDuration(now.getTime() - Date.parse(start));
    else if (start && end) duration = humanDuration(Date.parse(end) - Date.parse(start));
    let phase: string;
    if (hasCondition(status.conditions, 'Complete')) phase = 'Complete';
    else if (hasCondition(status.conditions, 'Failed')) phase = 'Failed';
    else if (o.metadata.deletionTimestamp) phase = 'Terminating';
    else if (hasCondition(status.conditions, 'Suspended')) phase = 'Suspended';
    else if (hasCondition(status.conditions, 'FailureTarget')) phase = 'FailureTarget';
    else if (hasCondition(status.conditions, 'SuccessCriteriaMet')) phase = 'SuccessCriteriaMet';
    else phase = 'Running';
    return [phase, completions, duration];
  },
);

/** printCronJob: the schedule, its time zone, suspend, the active Jobs and the last schedule; wide: the job template's. */
const cronJobPrinter = printer(
  [
    NAME,
    col('Schedule', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
    col('Timezone', 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones.'),
    col('Suspend', 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.', 0, 'boolean'),
    col('Active', 'A list of pointers to currently running jobs.', 0, 'integer'),
    col('Last Schedule', 'Information when was the last time the job was successfully scheduled.', 0, 'date'),
    AGE,
    CONTAINERS,
    IMAGES,
    col('Selector', 'A label query over pods that should match the pod count.', 1),
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const jobSpec = rec(rec(spec.jobTemplate).spec);
    const containers = arr(rec(rec(jobSpec.template).spec).containers).map(rec);
    const suspend = typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>';
    const last = str(status.lastScheduleTime);
    return [
      o.metadata.name ?? '',
      str(spec.schedule),
      str(spec.timeZone) || '<none>',
      suspend,
      arr(status.active).length,
      last ? age(last, now) : '<none>',
      age(o.metadata.creationTimestamp, now),
      containers.map((c) => str(c.name)).join(','),
      containers.map((c) => str(c.image)).join(','),
      formatLabelSelector(jobSpec.selector),
    ];
  },
);

const deploymentPrinter = workloadPrinter(
  [
    col('Ready', 'Number of the pod with ready state'),
    col('Up-to-date', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    col('Available', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
  ],
  'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
  (_o, spec, status) => [`${num(status.readyReplicas)}/${num(spec.replicas)}`, num(status.updatedReplicas), num(status.availableReplicas)],
);

const replicaSetPrinter = workloadPrinter(
  [col('Desired', 'Number of desired pods.'), col('Current', 'Number of actually running pods.'), col('Ready', 'Number of ready pods.')],
  'Label query over pods that should match the replica count. If selector is empty, it is defaulted to the labels present on the pod template.',
  (_o, spec, status) => [num(spec.replicas), num(status.replicas), num(status.readyReplicas)],
);

/** StatefulSet: Name, Ready, Age and the template's containers and images (no selector column, as upstream). */
const statefulSetPrinter = printer([NAME, col('Ready', 'Number of the pod with ready state'), AGE, CONTAINERS, IMAGES], (o, now) => {
  const spec = rec(o['spec']);
  const containers = arr(rec(rec(spec.template).spec).containers).map(rec);
  return [
    o.metadata.name ?? '',
    `${num(rec(o['status']).readyReplicas)}/${num(spec.replicas)}`,
    age(o.metadata.creationTimestamp, now),
    containers.map((c) => str(c.name)).join(','),
    containers.map((c) => str(c.image)).join(','),
  ];
});

/** DaemonSet: the counts kube-apiserver prints, then the node selector (wide: containers, images, selector). */
const daemonSetPrinter = printer(
  [
    NAME,
    col('Desired', 'The desired number of nodes that should be running the daemon pod.'),
    col('Current', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
    col('Ready', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.'),
    col('Up-to-date', 'The total number of nodes that are running updated daemon pod'),
    col('Available', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    col('Node Selector', 'NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/'),
    AGE,
    CONTAINERS,
    IMAGES,
    col('Selector', 'A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template\'s labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors', 1),
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const podSpec = rec(rec(spec.template).spec);
    const containers = arr(podSpec.containers).map(rec);
    const nodeSelector = Object.entries(rec(podSpec.nodeSelector)).map(([k, v]) => `${k}=${str(v)}`).join(',');
    return [
      o.metadata.name ?? '',
      num(status.desiredNumberScheduled),
      num(status.currentNumberScheduled),
      num(status.numberReady),
      num(status.updatedNumberScheduled),
      num(status.numberAvailable),
      nodeSelector || '<none>',
      age(o.metadata.creationTimestamp, now),
      containers.map((c) => str(c.name)).join(','),
      containers.map((c) => str(c.image)).join(','),
      formatLabelSelector(spec.selector),
    ];
  },
);

/** ControllerRevision: its controller as `statefulset.apps/web` (or <none>), and its revision number. */
const controllerRevisionPrinter = printer(
  [NAME, col('Controller', 'Controller of the object'), col('Revision', 'Revision of the ControllerRevision'), AGE],
  (o, now) => {
    const ref = o.metadata.ownerReferences?.find((r) => r.controller === true);
    const group = ref?.apiVersion.includes('/') ? ref.apiVersion.slice(0, ref.apiVersion.indexOf('/')) : '';
    const controller = ref ? `${ref.kind.toLowerCase()}${group ? `.${group}` : ''}/${ref.name}` : '<none>';
    return [o.metadata.name ?? '', controller, num(o['revision']), age(o.metadata.creationTimestamp, now)];
  },
);

/** PodDisruptionBudget: the budget as written (N/A for the other bound) and what the controller allows now. */
const podDisruptionBudgetPrinter = printer(
  [
    NAME,
    col('Min Available', 'The minimum number of pods that must be available'),
    col('Max Unavailable', 'The maximum number of pods that may be unavailable'),
    col('Allowed Disruptions', 'Calculated number of pods that may be disrupted at this time', 0, 'integer'),
    AGE,
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const bound = (v: unknown): string => (v === undefined || v === null ? 'N/A' : String(v));
    return [o.metadata.name ?? '', bound(spec.minAvailable), bound(spec.maxUnavailable), num(rec(o['status']).disruptionsAllowed), age(o.metadata.creationTimestamp, now)];
  },
);

/** ResourceQuota: used/hard per resource, the limits.* ones under LIMIT and the rest under REQUEST, as kubectl. */
const resourceQuotaPrinter = printer(
  [NAME, AGE, col('Request', 'Request represents a minimum amount of cpu/memory that a container may consume.'), col('Limit', 'Limits control the maximum amount of cpu/memory that a container can use independent of contention on the node.')],
  (o, now) => {
    const status = rec(o['status']);
    const hard = rec(status.hard);
    const used = rec(status.used);
    const list = (limits: boolean): string =>
      Object.keys(hard)
        .filter((r) => r.startsWith('limits.') === limits)
        .sort()
        .map((r) => `${r}: ${str(used[r]) || '0'}/${str(hard[r])}`)
        .join(', ');
    return [o.metadata.name ?? '', age(o.metadata.creationTimestamp, now), list(false), list(true)];
  },
);

function formatEventSource(o: KubeObject): string {
  const source = rec(o['source']);
  const component = str(source.component) || str(o['reportingComponent']);
  const instance = str(source.host) || str(o['reportingInstance']);
  if (!component) return '';
  return instance ? `${component}, ${instance}` : component;
}

const eventPrinter = printer(
  [
    col('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    col('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    col('Reason', 'This should be a short, machine understandable string that gives the reason for the transition into the object\'s current status.'),
    col('Object', 'The object that this event is about.'),
    col('Subobject', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].', 1),
    col('Source', 'The component reporting this event. Should be a short machine understandable string.', 1),
    col('Message', 'A human-readable description of the status of this operation.'),
    col('First Seen', 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)', 1),
    col('Count', 'The number of times this event has occurred.', 1),
    col('Name', NAME_DESCRIPTION, 1, 'string', 'name'),
  ],
  (o, now) => {
    const involved = rec(o['involvedObject']);
    let first = age(str(o['firstTimestamp']) || undefined, now);
    if (!str(o['firstTimestamp'])) first = age(str(o['eventTime']) || undefined, now);
    let last = str(o['lastTimestamp']) ? age(str(o['lastTimestamp']), now) : first;
    let n = num(o['count']);
    const series = o['series'] === undefined || o['series'] === null ? undefined : rec(o['series']);
    if (series) {
      last = age(str(series.lastObservedTime) || undefined, now);
      n = num(series.count);
    } else if (n === 0) n = 1;
    const kind = str(involved.kind).toLowerCase();
    const target = str(involved.name) ? `${kind}/${str(involved.name)}` : kind;
    return [
      last,
      str(o['type']),
      str(o['reason']),
      target,
      str(involved.fieldPath),
      formatEventSource(o),
      str(o['message']).trim(),
      first,
      n,
      o.metadata.name ?? '',
    ];
  },
);

function nodeAddress(node: KubeObject, type: string): string {
  const a = arr(rec(node['status']).addresses).map(rec).find((x) => x.type === type);
  return a ? str(a.address) : '<none>';
}

const nodePrinter = printer(
  [
    NAME,
    col('Status', 'The status of the node'),
    col('Roles', 'The roles of the node'),
    AGE,
    col('Version', 'Kubelet Version reported by the node.'),
    col('Internal-IP', 'List of addresses reachable to the node.', 1),
    col('External-IP', 'List of addresses reachable to the node.', 1),
    col('OS-Image', 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', 1),
    col('Kernel-Version', "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", 1),
    col('Container-Runtime', 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', 1),
  ],
  (o, now) => {
    const status = rec(o['status']);
    const info = rec(status.nodeInfo);
    const ready = arr(status.conditions).map(rec).find((c) => c.type === 'Ready');
    const states: string[] = [];
    if (ready) states.push(ready.status === 'True' ? 'Ready' : 'NotReady');
    if (states.length === 0) states.push('Unknown');
    if (rec(o['spec']).unschedulable === true) states.push('SchedulingDisabled');
    const roles = new Set<string>();
    for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
      if (k.startsWith('node-role.kubernetes.io/')) {
        const role = k.slice('node-role.kubernetes.io/'.length);
        if (role) roles.add(role);
      } else if (k === 'kubernetes.io/role' && v) roles.add(v);
    }
    return [
      o.metadata.name ?? '',
      states.join(','),
      [...roles].sort().join(',') || '<none>',
      age(o.metadata.creationTimestamp, now),
      str(info.kubeletVersion),
      nodeAddress(o, 'InternalIP'),
      nodeAddress(o, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
);

/** makePortString: `80/TCP`, `80:30080/TCP` with a node port. */
function servicePorts(ports: unknown): string {
  return arr(ports)
    .map((p) => {
      const port = rec(p);
      const nodePort = num(port['nodePort']);
      return nodePort > 0 ? `${num(port['port'])}:${nodePort}/${str(port['protocol'])}` : `${num(port['port'])}/${str(port['protocol'])}`;
    })
    .join(',');
}

/** getServiceExternalIP. */
function serviceExternalIP(spec: Json, status: Json): string {
  const externalIPs = arr(spec['externalIPs']).map(str);
  switch (spec['type']) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = arr(rec(status['loadBalancer'])['ingress']).map((i) => str(rec(i)['ip']) || str(rec(i)['hostname'])).filter(Boolean);
      const all = [...ingress, ...externalIPs];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(spec['externalName']);
    default:
      return '<unknown>';
  }
}

/** labels.FormatLabels: sorted `k=v` pairs, `<none>` when empty. */
function formatLabels(labels: unknown): string {
  const pairs = Object.entries(rec(labels)).sort(([a], [b]) => a.localeCompare(b));
  return pairs.length > 0 ? pairs.map(([k, v]) => `${k}=${str(v)}`).join(',') : '<none>';
}

const servicePrinter = printer(
  [
    NAME,
    col('Type', 'type determines how the Service is exposed.'),
    col('Cluster-IP', 'clusterIP is the IP address of the service and is usually assigned randomly.'),
    col('External-IP', 'externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.'),
    col('Port(s)', 'The list of ports that are exposed by this service.'),
    AGE,
    col('Selector', 'Route service traffic to pods with label keys and values matching this selector.', 1),
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const ports = servicePorts(spec['ports']);
    return [
      o.metadata.name ?? '',
      str(spec['type']),
      str(arr(spec['clusterIPs'])[0]) || '<none>',
      serviceExternalIP(spec, rec(o['status'])),
      ports || '<none>',
      age(o.metadata.creationTimestamp, now),
      formatLabels(spec['selector']),
    ];
  },
);

/** A list of at most three, then `+ N more...` (formatEndpoints, listWithMoreString). */
function firstThree(list: string[], empty: string): string {
  if (list.length > 3) return `${list.slice(0, 3).join(',')} + ${list.length - 3} more...`;
  return list.length > 0 ? list.join(',') : empty;
}

function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

const endpointsPrinter = printer([NAME, col('Endpoints', 'Endpoints of the service'), AGE], (o, now) => {
  const subsets = arr(o['subsets']).map(rec);
  const list: string[] = [];
  for (const subset of subsets) {
    const ips = arr(subset['addresses']).map((a) => str(rec(a)['ip']));
    const ports = arr(subset['ports']).map(rec);
    if (ports.length === 0) list.push(...ips);
    else for (const port of ports) list.push(...ips.map((ip) => hostPort(ip, num(port['port']))));
  }
  return [o.metadata.name ?? '', subsets.length === 0 ? '<none>' : firstThree(list, ''), age(o.metadata.creationTimestamp, now)];
});

const endpointSlicePrinter = printer(
  [
    NAME,
    col('AddressType', 'addressType specifies the type of address carried by this EndpointSlice.'),
    col('Ports', 'ports specifies the list of network ports exposed by each endpoint in this slice.'),
    col('Endpoints', 'endpoints is a list of unique endpoints in this slice.'),
    AGE,
  ],
  (o, now) => {
    const ports = arr(o['ports']).map((p) => {
      const port = rec(p);
      return typeof port['port'] === 'number' ? String(port['port']) : str(port['name']) || '*';
    });
    const addresses = arr(o['endpoints']).flatMap((e) => arr(rec(e)['addresses']).map(str));
    return [o.metadata.name ?? '', str(o['addressType']), firstThree(ports, '<unset>'), firstThree(addresses, '<unset>'), age(o.metadata.creationTimestamp, now)];
  },
);

const webhookConfigurationPrinter = printer([NAME, col('Webhooks', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE], (o, now) => [
  o.metadata.name ?? '',
  arr(o['webhooks']).length,
  age(o.metadata.creationTimestamp, now),
]);

/** formatHPAMetrics: `cpu: 42%/50%` per resource metric (current <unknown> until measured), ten at most. */
function hpaTargets(specs: Json[], statuses: Json[]): string {
  if (specs.length === 0) return '<none>';
  const shown = specs.slice(0, 10).map((spec, i) => {
    const source = rec(spec.resource ?? spec.containerResource);
    if (spec.type !== 'Resource' && spec.type !== 'ContainerResource') return `<unknown>/<unknown>`;
    const target = rec(source.target);
    const current = rec(rec(rec(statuses[i]).resource ?? rec(statuses[i]).containerResource).current);
    if (target.averageValue !== undefined) return `${str(source.name)}: ${current.averageValue === undefined ? '<unknown>' : String(current.averageValue)}/${String(target.averageValue)}`;
    const now = typeof current.averageUtilization === 'number' ? `${current.averageUtilization}%` : '<unknown>';
    const wanted = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
    return `${str(source.name)}: ${now}/${wanted}`;
  });
  return specs.length > 10 ? `${shown.join(', ')} + ${specs.length - 10} more...` : shown.join(', ');
}

const horizontalPodAutoscalerPrinter = printer(
  [
    NAME,
    col('Reference', 'Reference to the object the autoscaler scales'),
    col('Targets', 'Current and target values of the metrics the autoscaler follows'),
    col('MinPods', 'Lower limit for the number of pods that can be set by the autoscaler, default 1.'),
    col('MaxPods', 'Upper limit for the number of pods that can be set by the autoscaler; cannot be smaller than MinReplicas.', 0, 'integer'),
    col('Replicas', 'Current number of replicas of pods managed by this autoscaler.', 0, 'integer'),
    AGE,
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const ref = rec(spec.scaleTargetRef);
    // autoscaling/v1 says its one metric in targetCPUUtilizationPercentage / currentCPUUtilizationPercentage.
    const v1Cpu = typeof spec.targetCPUUtilizationPercentage === 'number' && spec.metrics === undefined;
    const metrics = v1Cpu ? [{ type: 'Resource', resource: { name: 'cpu', target: { averageUtilization: spec.targetCPUUtilizationPercentage } } }] : arr(spec.metrics).map(rec);
    const current = v1Cpu && typeof status.currentCPUUtilizationPercentage === 'number' ? [{ resource: { current: { averageUtilization: status.currentCPUUtilizationPercentage } } }] : arr(status.currentMetrics).map(rec);
    return [
      o.metadata.name ?? '',
      `${str(ref.kind)}/${str(ref.name)}`,
      hpaTargets(metrics, current),
      typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
      num(spec.maxReplicas),
      num(status.currentReplicas),
      age(o.metadata.creationTimestamp, now),
    ];
  },
);

const ACCESS_MODES: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
const accessModes = (modes: unknown): string => arr(modes).map((m) => ACCESS_MODES[str(m)] ?? str(m)).join(',');
const VOLUME_ATTRIBUTES_CLASS = col('VolumeAttributesClass', 'VolumeAttributesClass of the volume');
const VOLUME_MODE = col('VolumeMode', 'The volume mode of the volume', 1);
const attributesClass = (spec: Json): string => str(spec.volumeAttributesClassName) || '<unset>';

/** PersistentVolumeClaim: status, bound volume, capacity, access modes and class, as printPersistentVolumeClaim. */
const persistentVolumeClaimPrinter = printer(
  [NAME, col('Status', 'The phase of the claim'), col('Volume', 'The volume bound to the claim'), col('Capacity', 'The capacity of the bound volume'), col('Access Modes', 'The access modes of the bound volume'), col('StorageClass', 'StorageClass of the claim'), VOLUME_ATTRIBUTES_CLASS, AGE, VOLUME_MODE],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const bound = str(spec.volumeName) !== '';
    return [
      o.metadata.name ?? '',
      o.metadata.deletionTimestamp ? 'Terminating' : str(status.phase),
      str(spec.volumeName),
      bound ? str(rec(status.capacity).storage) : '',
      bound ? accessModes(status.accessModes) : '',
      str(spec.storageClassName),
      attributesClass(spec),
      age(o.metadata.creationTimestamp, now),
      str(spec.volumeMode),
    ];
  },
);

/** PersistentVolume: capacity, access modes, reclaim policy, phase, claim and class, as printPersistentVolume. */
const persistentVolumePrinter = printer(
  [NAME, col('Capacity', 'The capacity of the volume'), col('Access Modes', 'The access modes of the volume'), col('Reclaim Policy', 'What happens to the volume when its claim goes'), col('Status', 'The phase of the volume'), col('Claim', 'The claim bound to the volume'), col('StorageClass', 'StorageClass of the volume'), VOLUME_ATTRIBUTES_CLASS, col('Reason', 'Why the volume is in its phase'), AGE, VOLUME_MODE],
  (o, now) => {
    const spec = rec(o['spec']);
    const status = rec(o['status']);
    const claim = rec(spec.claimRef);
    return [
      o.metadata.name ?? '',
      str(rec(spec.capacity).storage),
      accessModes(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      o.metadata.deletionTimestamp ? 'Terminating' : str(status.phase),
      claim.name ? `${str(claim.namespace)}/${str(claim.name)}` : '',
      str(spec.storageClassName),
      attributesClass(spec),
      str(status.reason),
      age(o.metadata.creationTimestamp, now),
      str(spec.volumeMode),
    ];
  },
);

/** StorageClass: `local-path (default)`, provisioner, reclaim policy, binding mode, expansion. */
const storageClassPrinter = printer(
  [NAME, col('Provisioner', 'The provisioner of the class'), col('ReclaimPolicy', 'The reclaim policy of its volumes'), col('VolumeBindingMode', 'When its claims are bound'), col('AllowVolumeExpansion', 'Whether its volumes may grow'), AGE],
  (o, now) => [
    `${o.metadata.name ?? ''}${o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ? ' (default)' : ''}`,
    str(o['provisioner']),
    str(o['reclaimPolicy']) || 'Delete',
    str(o['volumeBindingMode']) || 'Immediate',
    o['allowVolumeExpansion'] === true ? 'true' : 'false',
    age(o.metadata.creationTimestamp, now),
  ],
);

/** formatHosts: the first three hosts the rules name, `*` when none does, `+ N more...` for rules past them. */
function ingressHosts(rules: unknown): string {
  const all = arr(rules);
  const hosts: string[] = [];
  let more = false;
  for (const rule of all) {
    if (hosts.length === 3) more = true;
    const host = str(rec(rule).host);
    if (!more && host !== '') hosts.push(host);
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${all.length - 3} more...` : hosts.join(',');
}

/** Ingress: its class, hosts, load-balancer addresses and the ports TLS opens, as printIngress. */
const ingressPrinter = printer(
  [
    NAME,
    col('Class', 'The name of the IngressClass resource that should be used for additional configuration'),
    col('Hosts', 'Hosts that incoming requests are matched against before the ingress rule'),
    col('Address', 'Address is a list containing ingress points for the load-balancer'),
    col('Ports', 'Ports of TLS configurations that open'),
    AGE,
  ],
  (o, now) => {
    const spec = rec(o['spec']);
    const addresses = arr(rec(rec(o['status']).loadBalancer).ingress).map((i) => str(rec(i).ip) || str(rec(i).hostname)).filter(Boolean);
    return [
      o.metadata.name ?? '',
      str(spec.ingressClassName) || '<none>',
      ingressHosts(spec.rules),
      [...new Set(addresses)].sort().join(','),
      arr(spec.tls).length > 0 ? '80, 443' : '80',
      age(o.metadata.creationTimestamp, now),
    ];
  },
);

/** IngressClass: controller and `Kind.apiGroup/name` of its parameters, as printIngressClass. */
const ingressClassPrinter = printer(
  [NAME, col('Controller', 'Controller that is responsible for handling this class'), col('Parameters', 'A reference to a resource with additional parameters'), AGE],
  (o, now) => {
    const spec = rec(o['spec']);
    const parameters = spec.parameters === undefined ? undefined : rec(spec.parameters);
    const group = parameters && typeof parameters.apiGroup === 'string' ? `.${parameters.apiGroup}` : '';
    return [o.metadata.name ?? '', str(spec.controller), parameters ? `${str(parameters.kind)}${group}/${str(parameters.name)}` : '<none>', age(o.metadata.creationTimestamp, now)];
  },
);

/** Printers keyed by `<group>/<Kind>` (the core group is empty: `/Pod`). */
export const builtinPrinters: Readonly<Record<string, RowPrinter>> = {
  '/Namespace': namespacePrinter,
  '/ConfigMap': configMapPrinter,
  '/Secret': secretPrinter,
  '/Pod': podPrinter,
  '/Event': eventPrinter,
  '/Node': nodePrinter,
  '/ServiceAccount': serviceAccountPrinter,
  '/Service': servicePrinter,
  '/PersistentVolumeClaim': persistentVolumeClaimPrinter,
  '/PersistentVolume': persistentVolumePrinter,
  'storage.k8s.io/StorageClass': storageClassPrinter,
  '/Endpoints': endpointsPrinter,
  'discovery.k8s.io/EndpointSlice': endpointSlicePrinter,
  'batch/Job': jobPrinter,
  'batch/CronJob': cronJobPrinter,
  'apps/Deployment': deploymentPrinter,
  'apps/ReplicaSet': replicaSetPrinter,
  'apps/StatefulSet': statefulSetPrinter,
  'apps/DaemonSet': daemonSetPrinter,
  'apps/ControllerRevision': controllerRevisionPrinter,
  'autoscaling/HorizontalPodAutoscaler': horizontalPodAutoscalerPrinter,
  'policy/PodDisruptionBudget': podDisruptionBudgetPrinter,
  'networking.k8s.io/Ingress': ingressPrinter,
  'networking.k8s.io/IngressClass': ingressClassPrinter,
  '/ResourceQuota': resourceQuotaPrinter,
  'coordination.k8s.io/Lease': leasePrinter,
  'apiextensions.k8s.io/CustomResourceDefinition': crdPrinter,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookConfigurationPrinter,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookConfigurationPrinter,
};

/** The printer for a built-in kind, or the default Name/Created At printer. */
export function builtinPrinterFor(group: string, kind: string): RowPrinter {
  return builtinPrinters[`${group}/${kind}`] ?? defaultPrinter;
}

// Where pods/log, exec, attach and portforward go: the container (defaulted as kube-apiserver defaults it), the node the pod
// is bound to, and that node's kubelet (status.addresses InternalIP, status.daemonEndpoints.kubeletEndpoint
// .Port). Bosun's node traffic stays on this machine, so only loopback kubelets are proxied to, over TLS with
// the API server's kubelet client certificate.
import { isIP } from 'node:net';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError, type StatusReason } from '../../apimachinery/status-error.ts';
import type { HandlerContext, KubeletClientTls } from './context.ts';

export interface KubeletTarget {
  /** host:port of the node's kubelet API. */
  host: string;
  port: number;
  /** `/<endpoint>/<namespace>/<pod>/<container>` (without the container for a pod-wide endpoint), each segment escaped. */
  path(endpoint: 'containerLogs' | 'exec' | 'attach' | 'portForward'): string;
  container: string;
  /** The pod has no node yet: kube-apiserver serves its log as empty. */
  unscheduled: boolean;
  /** TLS options of the connection: the client certificate and key, the CA that signed the kubelet's certificate. */
  tls?: KubeletClientTls;
}

const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

function names(list: unknown): string[] {
  return Array.isArray(list) ? list.map((c) => record(c)['name']).filter((n): n is string => typeof n === 'string') : [];
}

/** kube-apiserver's container defaulting, with kubectl's default-container annotation honoured here too. */
function chooseContainer(pod: KubeObject, name: string, requested: string | null): string {
  const spec = record(pod['spec']);
  const containers = names(spec['containers']);
  const initContainers = names(spec['initContainers']);
  if (requested) {
    if (![...containers, ...initContainers, ...names(spec['ephemeralContainers'])].includes(requested)) throw errors.badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const annotated = pod.metadata.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
  if (annotated && containers.includes(annotated)) return annotated;
  if (containers.length === 1) return containers[0]!;
  if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
  let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  if (initContainers.length > 0) message += ` or one of the init containers: [${initContainers.join(' ')}]`;
  throw errors.badRequest(message);
}

/**
 * kubelet's check before it reads a log (validateContainerLogStatus): a container that never ran is waiting to
 * start; one that waits after a run (CrashLoopBackOff) still has that run's log.
 */
function checkStarted(pod: KubeObject, name: string, container: string): void {
  const status = record(pod['status']);
  const statuses = ['containerStatuses', 'initContainerStatuses', 'ephemeralContainerStatuses'].flatMap((key) => (Array.isArray(status[key]) ? (status[key] as unknown[]) : []));
  const found = statuses.map(record).find((s) => s['name'] === container);
  const state = record(found?.['state']);
  const ranBefore = isPlainObject(record(found?.['lastState'])['terminated']);
  if (found && (!isPlainObject(state['waiting']) || ranBefore)) return;
  const reason = record(state['waiting'])['reason'];
  const why = reason === 'ErrImagePull' ? "image can't be pulled" : reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : typeof reason === 'string' && reason !== '' ? reason : 'ContainerCreating';
  throw errors.badRequest(`container "${container}" in pod "${name}" is waiting to start: ${why}`);
}

function isLoopback(address: string): boolean {
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || address === '0:0:0:0:0:0:0:1';
}

/** scope 'pod' (port-forward) names no container: none is chosen or checked. */
export function kubeletTarget(ctx: HandlerContext, namespace: string, name: string, requestedContainer: string | null, scope: 'container' | 'pod' = 'container'): KubeletTarget {
  const podType = ctx.registry.byStorageKey('/pods')!;
  const pod = ctx.objects.view(podType, ctx.objects.get(podType, namespace, name));
  const container = scope === 'pod' ? '' : chooseContainer(pod, name, requestedContainer);
  const nodeName = record(pod['spec'])['nodeName'];
  const segments = scope === 'pod' ? [namespace, name] : [namespace, name, container];
  const path = (endpoint: string) => `/${endpoint}/${segments.map(encodeURIComponent).join('/')}`;
  if (typeof nodeName !== 'string' || nodeName === '') return { host: '', port: 0, path, container, unscheduled: true };
  if (scope === 'container') checkStarted(pod, name, container);
  return { ...kubeletAddress(ctx, ctx.objects.get(ctx.registry.byStorageKey('/nodes')!, '', nodeName).object), path, container, unscheduled: false };
}

/** Where a node's kubelet API is, and the TLS options to reach it with; a 503 or 403 when it cannot be reached. */
export function kubeletAddress(ctx: HandlerContext, node: KubeObject): { host: string; port: number; tls: KubeletClientTls } {
  const nodeName = node.metadata.name ?? '';
  const status = record(node['status']);
  const addresses = Array.isArray(status['addresses']) ? status['addresses'].map(record) : [];
  const host = addresses.find((a) => a['type'] === 'InternalIP')?.['address'];
  const port = record(record(status['daemonEndpoints'])['kubeletEndpoint'])['Port'];
  if (typeof host !== 'string' || typeof port !== 'number' || port <= 0) {
    throw new StatusError(503, 'ServiceUnavailable', `node "${nodeName}" does not report its kubelet: status.addresses InternalIP and status.daemonEndpoints.kubeletEndpoint.Port are required`);
  }
  if (!isLoopback(host)) throw errors.forbidden(`Bosun proxies to kubelets on loopback addresses only; node "${nodeName}" has InternalIP ${host}`);
  if (ctx.kubeletClient === undefined) throw new StatusError(503, 'ServiceUnavailable', 'this API server has no kubelet client certificate, so it cannot reach kubelets');
  return { host, port, tls: ctx.kubeletClient };
}

/** The StatusError kube-apiserver makes of a kubelet's non-2xx answer: the code's reason, the body as message. */
export function kubeletFailure(code: number, body: string): StatusError {
  const reasons: Record<number, StatusReason> = {
    400: 'BadRequest',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'NotFound',
    405: 'MethodNotAllowed',
    500: 'InternalError',
    503: 'ServiceUnavailable',
  };
  return new StatusError(code, reasons[code] ?? 'InternalError', body.trim() || `the kubelet answered ${code}`);
}

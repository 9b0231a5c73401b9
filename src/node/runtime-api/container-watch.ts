// GET /v1/pods/{namespace}/{name}/containers[?watch=true]: the pod's containers as this node runs them. A watch
// is newline-delimited JSON, a line at once and one on each container start or stop, fed by the registry's
// change events; it ends when the pod leaves this node or the client goes.
import type { ServerResponse } from 'node:http';
import type { RuntimePodContainers } from '../../client/node-runtime/protocol.ts';
import type { ContainerRegistry, RegisteredPod } from '../agent/pods/container-registry.ts';
import { notFound } from './errors.ts';

export function podContainers(pod: RegisteredPod): RuntimePodContainers {
  return {
    podUid: pod.uid,
    containers: pod.containers.map((c) => ({ name: c.name, ...(c.id !== undefined ? { id: c.id } : {}), running: c.handle?.isRunning === true })),
  };
}

export function findPod(registry: ContainerRegistry, namespace: string, name: string): RegisteredPod {
  const pod = registry.pod(namespace, name);
  if (pod === undefined) throw notFound(`pod ${namespace}/${name} does not run on this node`);
  return pod;
}

/** Streams the pod's containers into res until the pod goes or res closes; returns at once. */
export function watchPodContainers(registry: ContainerRegistry, pod: RegisteredPod, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
  let last = '';
  const send = () => {
    const current = registry.podByUid(pod.uid);
    if (current === undefined) {
      stop();
      res.end();
      return;
    }
    const line = `${JSON.stringify(podContainers(current))}\n`;
    if (line === last) return;
    last = line;
    res.write(line);
  };
  const unsubscribe = registry.onChange(pod.uid, send);
  const stop = () => unsubscribe();
  res.once('close', stop);
  send();
}

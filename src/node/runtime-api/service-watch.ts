// GET /v1/services/{namespace}/{name}[?watch=true]: the Service and its ready endpoints (service-view.ts), read
// with the agent's client through two informers of their own — the Service by name, its EndpointSlices by their
// service-name label — so that a watch follows every change (a scaled Deployment, a pod turning unready, the
// Service edited or deleted) as its events arrive. A watch is newline-delimited JSON: a line once both
// informers have listed, then one whenever the view changes; it ends when the client goes.
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Service } from '../../apimachinery/api/core-v1.ts';
import { SERVICE_NAME_LABEL, type EndpointSlice } from '../../apimachinery/api/discovery-v1.ts';
import { endpointSlicesResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import type { RuntimeService } from '../../client/node-runtime/protocol.ts';
import { Informer } from '../../runtime/index.ts';
import { serviceView } from './service-view.ts';

export interface ServiceWatchOptions {
  client: KubeClient;
  namespace: string;
  name: string;
  logger: Logger;
}

/** Follows one Service; onView gets the first view once both informers have listed, then each changed one. */
async function followService(options: ServiceWatchOptions, onView: (view: RuntimeService) => void, closed: AbortSignal): Promise<() => Promise<void>> {
  const { client, namespace, name, logger } = options;
  const onError = (what: string) => (err: unknown) => logger.warn({ err, namespace, name }, `node runtime API: watching ${what} of a Service failed`);
  const services = new Informer<Service>({ client, resource: servicesResource, namespace, fieldSelector: `metadata.name=${name}`, onError: onError('the Service') });
  const slices = new Informer<EndpointSlice>({ client, resource: endpointSlicesResource, namespace, labelSelector: `${SERVICE_NAME_LABEL}=${name}`, onError: onError('the EndpointSlices') });
  let synced = false;
  const changed = () => {
    if (synced) onView(serviceView(namespace, name, services.get(name, namespace), slices.list(namespace)));
  };
  for (const informer of [services, slices] as Informer[]) informer.addEventHandler({ onAdd: changed, onUpdate: changed, onDelete: changed });
  const stop = () => Promise.all([services.stop(), slices.stop()]).then(() => undefined);
  services.start();
  slices.start();
  try {
    await Promise.all([services.waitForSync(closed), slices.waitForSync(closed)]);
  } catch (error) {
    await stop();
    throw error;
  }
  synced = true;
  changed();
  return stop;
}

/** Answers one view, or with watch streams them into res until the client goes; returns once the first is out. */
export async function serveService(options: ServiceWatchOptions, watch: boolean, res: ServerResponse): Promise<void> {
  const closed = new AbortController();
  res.once('close', () => closed.abort());
  let last = '';
  const send = (view: RuntimeService) => {
    const line = `${JSON.stringify(view)}\n`;
    if (line === last || res.writableEnded) return;
    if (last === '') res.writeHead(200, { 'content-type': watch ? 'application/x-ndjson' : 'application/json', 'cache-control': 'no-store' });
    last = line;
    if (watch) res.write(line);
    else res.end(line);
  };
  let stop: () => Promise<void>;
  try {
    stop = await followService(options, send, closed.signal);
  } catch (error) {
    if (closed.signal.aborted) return; // the client went before the first view: nobody to answer
    throw error;
  }
  if (!watch || closed.signal.aborted) return stop();
  closed.signal.addEventListener('abort', () => void stop(), { once: true });
}

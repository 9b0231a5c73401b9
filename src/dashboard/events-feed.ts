// Events of one object for the page's Events panel: an informer on core/v1 Events selected by the object's kind and
// name (kubectl describe's selection), its list sent again at every change as a Server-Sent Event.
import type { ServerResponse } from 'node:http';
import { eventsResource } from '../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../apimachinery/object.ts';
import type { KubeClient } from '../client/client.ts';
import { Informer } from '../runtime/informer/informer.ts';

export interface EventsOf {
  namespace: string;
  kind: string;
  name: string;
}

interface EventLine {
  type: string;
  reason: string;
  message: string;
  count: number;
  last: string;
  source: string;
}

function line(event: KubeObject): EventLine {
  const e = event as KubeObject & Record<string, unknown>;
  const source = (e['source'] ?? {}) as { component?: string };
  const last = (e['lastTimestamp'] ?? e['eventTime'] ?? e['firstTimestamp'] ?? event.metadata.creationTimestamp ?? '') as string;
  return {
    type: String(e['type'] ?? ''),
    reason: String(e['reason'] ?? ''),
    message: String(e['message'] ?? ''),
    count: Number(e['count'] ?? 1),
    last,
    source: String(e['reportingComponent'] || source.component || ''),
  };
}

export function followEvents(client: KubeClient, of: EventsOf, res: ServerResponse, headers: Record<string, string>, onError: (error: unknown) => void): void {
  // Events of cluster-scoped objects (a Node) are recorded in 'default', as the API server's own are.
  const informer = new Informer<KubeObject>({
    client,
    resource: eventsResource,
    namespace: of.namespace || 'default',
    fieldSelector: `involvedObject.kind=${of.kind},involvedObject.name=${of.name}`,
    builtinIndexes: false,
    onError,
  });
  let scheduled = false;
  const send = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const lines = informer.list().map(line).sort((a, b) => a.last.localeCompare(b.last));
      res.write(`event: events\ndata: ${JSON.stringify(lines)}\n\n`);
    });
  };
  informer.addEventHandler({ onAdd: send, onUpdate: send, onDelete: send });
  res.writeHead(200, { ...headers, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
  res.write(': events\n\n');
  res.on('close', () => void informer.stop().catch(onError));
  informer.start();
  informer.waitForSync().then(send, onError);
}

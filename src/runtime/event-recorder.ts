// Writes core/v1 Events about objects, and folds repeats into one Event (client-go's EventCorrelator in
// small): the same object, type, reason and message within the window bumps count and lastTimestamp
// instead of creating another Event. Events are best-effort: failures are logged, never thrown.
import { pino, type Logger } from 'pino';
import { eventsResource } from '../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../apimachinery/object.ts';
import { nowTime } from '../apimachinery/time.ts';
import type { KubeClient } from '../client/client.ts';
import { NotFoundError } from '../client/errors.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  client: KubeClient;
  /** source.component and reportingComponent: 'bosun-landscaper'. */
  component: string;
  /** reportingInstance and source.host: the pod or host name. */
  instance?: string;
  /** Repeats within this window are aggregated; default 10 minutes (client-go's). */
  windowMs?: number;
  /** Aggregation entries kept; the oldest go first. Default 4096. */
  maxEntries?: number;
  logger?: Logger;
  now?: () => Date;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  lastSeenMs: number;
}

// Kubernetes caps Event messages at 1 KiB.
const maxMessage = 1024;

export class EventRecorder {
  private readonly o: EventRecorderOptions;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly seen = new Map<string, Seen>();
  /** One write at a time per aggregation key, so two repeats never both create. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(options: EventRecorderOptions) {
    this.o = options;
    this.log = options.logger ?? pino({ enabled: false });
    this.now = options.now ?? (() => new Date());
  }

  /** Records an Event; resolves when written (or given up on). Never rejects. */
  event(obj: KubeObject, type: EventType, reason: string, message: string, action?: string): Promise<void> {
    const m = obj.metadata;
    const text = message.length > maxMessage ? `${message.slice(0, maxMessage - 3)}...` : message;
    const key = [m.uid ?? '', obj.kind ?? '', m.namespace ?? '', m.name ?? '', type, reason, text].join('\u0000');
    const previous = this.inFlight.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.write(key, obj, type, reason, text, action));
    this.inFlight.set(key, next);
    void next.finally(() => {
      if (this.inFlight.get(key) === next) this.inFlight.delete(key);
    });
    return next;
  }

  normal(obj: KubeObject, reason: string, message: string): Promise<void> {
    return this.event(obj, 'Normal', reason, message);
  }

  warning(obj: KubeObject, reason: string, message: string): Promise<void> {
    return this.event(obj, 'Warning', reason, message);
  }

  private async write(key: string, obj: KubeObject, type: EventType, reason: string, message: string, action: string | undefined): Promise<void> {
    const now = this.now();
    const windowMs = this.o.windowMs ?? 600_000;
    const prior = this.seen.get(key);
    try {
      if (prior && now.getTime() - prior.lastSeenMs < windowMs) {
        try {
          await this.o.client.patch(eventsResource, prior.name, { count: prior.count + 1, lastTimestamp: nowTime(now) }, { type: 'merge', namespace: prior.namespace });
          prior.count++;
          prior.lastSeenMs = now.getTime();
          this.touch(key, prior);
          return;
        } catch (err) {
          // Someone (TTL, a person) deleted the Event: start a new one.
          if (!(err instanceof NotFoundError)) throw err;
        }
      }
      const created = await this.o.client.create(eventsResource, this.build(obj, type, reason, message, action, now));
      this.touch(key, { name: created.metadata.name ?? '', namespace: created.metadata.namespace ?? '', count: 1, lastSeenMs: now.getTime() });
    } catch (err) {
      this.log.warn({ err, reason, object: `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}` }, 'could not record event');
    }
  }

  private build(obj: KubeObject, type: EventType, reason: string, message: string, action: string | undefined, now: Date): KubeObject {
    const m = obj.metadata;
    // Events of cluster-scoped objects live in 'default', as the API server's own do.
    const namespace = m.namespace || 'default';
    const stamp = nowTime(now);
    const involvedObject: Record<string, string> = {};
    if (obj.apiVersion) involvedObject['apiVersion'] = obj.apiVersion;
    if (obj.kind) involvedObject['kind'] = obj.kind;
    if (m.name) involvedObject['name'] = m.name;
    if (m.namespace) involvedObject['namespace'] = m.namespace;
    if (m.uid) involvedObject['uid'] = m.uid;
    if (m.resourceVersion) involvedObject['resourceVersion'] = m.resourceVersion;
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      // client-go's naming: object name + '.' + a hex timestamp, unique enough without a round trip.
      metadata: { name: `${m.name ?? 'object'}.${(now.getTime() * 1000 + Math.floor(Math.random() * 1000)).toString(16)}`, namespace },
      involvedObject,
      reason,
      message,
      type,
      source: { component: this.o.component, ...(this.o.instance ? { host: this.o.instance } : {}) },
      reportingComponent: this.o.component,
      reportingInstance: this.o.instance ?? '',
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
    };
    if (action) event['action'] = action;
    return event;
  }

  private touch(key: string, entry: Seen): void {
    this.seen.delete(key);
    this.seen.set(key, entry);
    const max = this.o.maxEntries ?? 4096;
    while (this.seen.size > max) {
      const oldest = this.seen.keys().next();
      if (oldest.done) break;
      this.seen.delete(oldest.value);
    }
  }
}

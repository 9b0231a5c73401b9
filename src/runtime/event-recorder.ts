// Writes core/v1 Events about objects the way client-go's recorder does: event() only queues, and one
// sender writes the queue in the background, so a reconcile never waits on (or competes in parallel with)
// its Events. Before sending, client-go's EventCorrelator: a per-object token bucket drops spam (burst 25,
// one more token every 5 minutes), and a repeat (same object, type, reason and message) within the window
// bumps count and lastTimestamp of the Event already written instead of creating another. Events are
// best-effort: failures are logged, never thrown.
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
  /** Aggregation and spam-filter entries kept; the least recently used go first. Default 4096 (client-go's). */
  maxEntries?: number;
  /** Events waiting to be sent; beyond it new ones are dropped, as client-go's broadcaster does. Default 1000. */
  maxQueued?: number;
  /** Per-object token bucket: burst and ms per refilled token. Default 25 and 5 minutes (client-go's). */
  spamBurst?: number;
  spamRefillMs?: number;
  logger?: Logger;
  now?: () => Date;
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  lastSeenMs: number;
}

interface Bucket {
  tokens: number;
  lastMs: number;
}

interface Queued {
  key: string;
  obj: KubeObject;
  type: EventType;
  reason: string;
  message: string;
  action: string | undefined;
  at: Date;
  done: () => void;
}

let nameSequence = 0;

// Kubernetes caps Event messages at 1 KiB.
const maxMessage = 1024;

export class EventRecorder {
  private readonly o: EventRecorderOptions;
  private readonly log: Logger;
  private readonly now: () => Date;
  private readonly seen = new Map<string, Seen>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly queue: Queued[] = [];
  private sending = false;
  private idle: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => {};

  constructor(options: EventRecorderOptions) {
    this.o = options;
    this.log = options.logger ?? pino({ enabled: false });
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Queues an Event and returns at once; the promise resolves when it is written, aggregated, dropped by
   * the spam filter or given up on. Never rejects; callers need not await it.
   */
  event(obj: KubeObject, type: EventType, reason: string, message: string, action?: string): Promise<void> {
    const m = obj.metadata;
    const text = message.length > maxMessage ? `${message.slice(0, maxMessage - 3)}...` : message;
    const at = this.now();
    if (!this.allow(obj, at)) return Promise.resolve();
    if (this.queue.length >= (this.o.maxQueued ?? 1000)) {
      this.log.warn({ reason, object: `${m.namespace ?? ''}/${m.name ?? ''}` }, 'event queue full: dropping the event');
      return Promise.resolve();
    }
    const key = [m.uid ?? '', obj.kind ?? '', m.namespace ?? '', m.name ?? '', type, reason, text].join('\u0000');
    return new Promise((done) => {
      this.queue.push({ key, obj, type, reason, message: text, action, at, done });
      if (!this.sending) this.startSending();
    });
  }

  normal(obj: KubeObject, reason: string, message: string): Promise<void> {
    return this.event(obj, 'Normal', reason, message);
  }

  warning(obj: KubeObject, reason: string, message: string): Promise<void> {
    return this.event(obj, 'Warning', reason, message);
  }

  /** Resolves when every queued Event has been sent (or given up on). */
  flush(): Promise<void> {
    return this.idle;
  }

  /** client-go's spam filter: a token bucket per source and involved object. */
  private allow(obj: KubeObject, at: Date): boolean {
    const m = obj.metadata;
    const key = [m.uid ?? '', obj.kind ?? '', m.namespace ?? '', m.name ?? ''].join('\u0000');
    const burst = this.o.spamBurst ?? 25;
    const refillMs = this.o.spamRefillMs ?? 300_000;
    const nowMs = at.getTime();
    const bucket = this.buckets.get(key) ?? { tokens: burst, lastMs: nowMs };
    bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, nowMs - bucket.lastMs) / refillMs);
    bucket.lastMs = nowMs;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    remember(this.buckets, key, bucket, this.o.maxEntries ?? 4096);
    return allowed;
  }

  private startSending(): void {
    this.sending = true;
    this.idle = new Promise((resolve) => (this.markIdle = resolve));
    // Not in the caller's turn: the reconcile that recorded the Event finishes first.
    setImmediate(() => void this.drain());
  }

  /** One Event at a time, in order, so two repeats never both create and the server sees little Event load. */
  private async drain(): Promise<void> {
    for (let next = this.queue.shift(); next; next = this.queue.shift()) {
      await this.write(next);
      next.done();
    }
    this.sending = false;
    this.markIdle();
  }

  private async write(e: Queued): Promise<void> {
    const windowMs = this.o.windowMs ?? 600_000;
    const prior = this.seen.get(e.key);
    try {
      if (prior && e.at.getTime() - prior.lastSeenMs < windowMs) {
        try {
          await this.o.client.patch(eventsResource, prior.name, { count: prior.count + 1, lastTimestamp: nowTime(e.at) }, { type: 'merge', namespace: prior.namespace });
          prior.count++;
          prior.lastSeenMs = e.at.getTime();
          remember(this.seen, e.key, prior, this.o.maxEntries ?? 4096);
          return;
        } catch (err) {
          // Someone (TTL, a person) deleted the Event: start a new one.
          if (!(err instanceof NotFoundError)) throw err;
        }
      }
      const created = await this.o.client.create(eventsResource, this.build(e));
      remember(this.seen, e.key, { name: created.metadata.name ?? '', namespace: created.metadata.namespace ?? '', count: 1, lastSeenMs: e.at.getTime() }, this.o.maxEntries ?? 4096);
    } catch (err) {
      this.log.warn({ err, reason: e.reason, object: `${e.obj.metadata.namespace ?? ''}/${e.obj.metadata.name ?? ''}` }, 'could not record event');
    }
  }

  private build(e: Queued): KubeObject {
    const m = e.obj.metadata;
    // Events of cluster-scoped objects live in 'default', as the API server's own do.
    const namespace = m.namespace || 'default';
    const stamp = nowTime(e.at);
    const involvedObject: Record<string, string> = {};
    if (e.obj.apiVersion) involvedObject['apiVersion'] = e.obj.apiVersion;
    if (e.obj.kind) involvedObject['kind'] = e.obj.kind;
    if (m.name) involvedObject['name'] = m.name;
    if (m.namespace) involvedObject['namespace'] = m.namespace;
    if (m.uid) involvedObject['uid'] = m.uid;
    if (m.resourceVersion) involvedObject['resourceVersion'] = m.resourceVersion;
    const event: KubeObject = {
      apiVersion: 'v1',
      kind: 'Event',
      // client-go's naming: object name + '.' + a hex timestamp in µs; the process-wide sequence stands in for
      // the nanoseconds JavaScript's clock lacks, so Events of one millisecond do not collide.
      metadata: { name: `${m.name ?? 'object'}.${(e.at.getTime() * 1000 + (nameSequence++ % 1000)).toString(16)}`, namespace },
      involvedObject,
      reason: e.reason,
      message: e.message,
      type: e.type,
      source: { component: this.o.component, ...(this.o.instance ? { host: this.o.instance } : {}) },
      reportingComponent: this.o.component,
      reportingInstance: this.o.instance ?? '',
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
    };
    if (e.action) event['action'] = e.action;
    return event;
  }
}

/** Puts `key` last in `map` (most recently used) and drops the oldest entries beyond `max`. */
function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) break;
    map.delete(oldest.value);
  }
}

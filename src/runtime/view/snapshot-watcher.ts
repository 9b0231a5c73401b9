// A live snapshot for a terminal view (`bosun tree --watch`): one informer per resource in the namespace; every
// event re-emits (coalesced to one emit per event-loop turn), so a burst of status writes draws once and
// nothing polls.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { Informer } from '../informer/informer.ts';
import { resolveSource, type Snapshot, type SnapshotResources } from './snapshot.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface SnapshotUpdate<K extends string> {
  objects: Snapshot<K>;
  /** Set while a watch is failing: the picture may be stale. */
  stale?: string;
}

export class SnapshotWatcher<K extends string> {
  private readonly informers: [K, Informer<KubeObject>][];
  private scheduled = false;
  private synced = false;
  private stale: string | undefined;

  constructor(
    client: KubeClient,
    namespace: string,
    resources: SnapshotResources<K>,
    private readonly onUpdate: (update: SnapshotUpdate<K>) => void,
  ) {
    const onError = (err: unknown): void => {
      this.stale = messageOf(err);
      this.schedule();
    };
    this.informers = (Object.keys(resources) as K[]).map((key) => {
      const where = resolveSource(resources[key], namespace);
      return [key, new Informer<KubeObject>({ client, ...(where.namespace !== undefined ? { namespace: where.namespace } : {}), resource: where.resource, builtinIndexes: false, onError })];
    });
    for (const [, informer] of this.informers) {
      informer.addEventHandler({ onAdd: () => this.changed(), onUpdate: () => this.changed(), onDelete: () => this.changed() });
    }
  }

  /** Starts the informers and emits once all of them have listed. */
  async start(signal?: AbortSignal): Promise<void> {
    for (const [, informer] of this.informers) informer.start();
    await Promise.all(this.informers.map(([, informer]) => informer.waitForSync(signal)));
    this.synced = true;
    this.emit();
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map(([, informer]) => informer.stop()));
  }

  private changed(): void {
    // An event after an error proves the watch is back.
    this.stale = undefined;
    this.schedule();
  }

  private schedule(): void {
    if (!this.synced || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.emit();
    });
  }

  private emit(): void {
    const objects = Object.fromEntries(this.informers.map(([key, informer]) => [key, informer.list()])) as Snapshot<K>;
    this.onUpdate(this.stale === undefined ? { objects } : { objects, stale: this.stale });
  }
}

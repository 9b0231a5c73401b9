// Live loading for `bosun tree --watch`: one informer per kind in the namespace; every event re-renders
// (coalesced to one render per event-loop turn), so a burst of status writes draws once and nothing polls.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { Informer } from '../../runtime/informer/informer.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import type { TreeObjects } from './build.ts';
import { deployItemsResource, executionsResource, installationsResource } from '../api/resources.ts';

export interface TreeUpdate {
  objects: TreeObjects;
  /** Set while a watch is failing: the picture may be stale. */
  stale?: string;
}

export class TreeWatcher {
  private readonly installations: Informer<Installation>;
  private readonly executions: Informer<Execution>;
  private readonly deployItems: Informer<DeployItem>;
  private readonly onUpdate: (update: TreeUpdate) => void;
  private scheduled = false;
  private synced = false;
  private stale: string | undefined;

  constructor(client: KubeClient, namespace: string, onUpdate: (update: TreeUpdate) => void) {
    this.onUpdate = onUpdate;
    const common = {
      client,
      namespace,
      builtinIndexes: false,
      onError: (err: unknown) => {
        this.stale = err instanceof Error ? err.message : String(err);
        this.schedule();
      },
    };
    this.installations = new Informer<Installation>({ ...common, resource: installationsResource });
    this.executions = new Informer<Execution>({ ...common, resource: executionsResource });
    this.deployItems = new Informer<DeployItem>({ ...common, resource: deployItemsResource });
    for (const informer of this.informers()) {
      informer.addEventHandler({
        onAdd: () => this.changed(),
        onUpdate: () => this.changed(),
        onDelete: () => this.changed(),
      });
    }
  }

  private informers(): Informer<KubeObject>[] {
    return [this.installations, this.executions, this.deployItems] as unknown as Informer<KubeObject>[];
  }

  /** Starts the informers and renders once all three have listed. */
  async start(signal?: AbortSignal): Promise<void> {
    for (const informer of this.informers()) informer.start();
    await Promise.all(this.informers().map((i) => i.waitForSync(signal)));
    this.synced = true;
    this.emit();
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers().map((i) => i.stop()));
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
    const objects: TreeObjects = { installations: this.installations.list(), executions: this.executions.list(), deployItems: this.deployItems.list() };
    this.onUpdate(this.stale === undefined ? { objects } : { objects, stale: this.stale });
  }
}

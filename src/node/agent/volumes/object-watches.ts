// kubelet's watch-based ConfigMap and Secret manager: one watch per object a running pod's volumes name
// (namespace + fieldSelector metadata.name), shared by the pods that name it and stopped when the last of them
// lets go, so the agent never lists the cluster's Secrets. An object marked immutable is not watched further.
import { configMapsResource, secretsResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { Informer } from '../../../runtime/index.ts';
import type { Logger } from 'pino';

export type WatchedKind = 'configmap' | 'secret';

interface Watch {
  informer: Informer;
  listeners: Set<() => void>;
  stopped: boolean;
}

export class ObjectWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(
    private readonly client: KubeClient,
    private readonly logger: Logger,
  ) {}

  /** Calls onChange on every change of the object (its appearance and deletion included); returns the release. */
  subscribe(kind: WatchedKind, namespace: string, name: string, onChange: () => void): () => void {
    const key = `${kind}/${namespace}/${name}`;
    let watch = this.watches.get(key);
    if (watch === undefined) {
      const informer = new Informer({
        client: this.client,
        resource: kind === 'configmap' ? configMapsResource : secretsResource,
        namespace,
        fieldSelector: `metadata.name=${name}`,
        onError: (err, info) => this.logger.warn({ err, phase: info.phase, object: key }, 'watching a volume source failed'),
      });
      const created: Watch = { informer, listeners: new Set(), stopped: false };
      const changed = (object: KubeObject) => {
        // kubelet stops watching an immutable object: its content can no longer change.
        if ((object as { immutable?: boolean }).immutable === true && !created.stopped) {
          created.stopped = true;
          void informer.stop();
        }
        for (const listener of created.listeners) listener();
      };
      informer.addEventHandler({ onAdd: changed, onUpdate: (_old, object) => changed(object), onDelete: changed });
      informer.start();
      watch = created;
      this.watches.set(key, watch);
    }
    const listeners = watch.listeners;
    listeners.add(onChange);
    return () => {
      listeners.delete(onChange);
      if (listeners.size > 0 || this.watches.get(key) !== watch) return;
      this.watches.delete(key);
      void watch.informer.stop();
    };
  }

  /** The object as last seen (undefined: it does not exist), once its watch has listed it. */
  async get<T extends KubeObject>(kind: WatchedKind, namespace: string, name: string): Promise<T | undefined> {
    const watch = this.watches.get(`${kind}/${namespace}/${name}`);
    if (watch === undefined) throw new Error(`${kind} ${namespace}/${name} is not watched`);
    await watch.informer.waitForSync();
    return watch.informer.get(name, namespace) as T | undefined;
  }

  /** How many objects are watched (for tests and metrics). */
  get size(): number {
    return this.watches.size;
  }

  async stop(): Promise<void> {
    const watches = [...this.watches.values()];
    this.watches.clear();
    await Promise.all(watches.map((watch) => watch.informer.stop()));
  }
}

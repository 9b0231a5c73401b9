// What the server's own controllers share: they read the store directly, write through the ObjectService
// (so every lifecycle rule holds for them too), and process keys on a KeyQueue fed by store events.
import type { ObjectService } from '../registry/object-service.ts';
import type { ResourceRegistry } from '../registry/registry.ts';
import type { SqliteStore, StoreEvent } from '../storage/sqlite-store.ts';
import { KeyQueue } from './key-queue.ts';

export interface ServerParts {
  store: SqliteStore;
  registry: ResourceRegistry;
  objects: ObjectService;
  onError: (error: unknown) => void;
}

export abstract class ServerController {
  protected readonly store: SqliteStore;
  protected readonly registry: ResourceRegistry;
  protected readonly objects: ObjectService;
  protected readonly queue: KeyQueue;
  private unsubscribe: (() => void) | undefined;

  constructor(parts: ServerParts) {
    this.store = parts.store;
    this.registry = parts.registry;
    this.objects = parts.objects;
    this.queue = new KeyQueue(
      (key) => this.process(key),
      (_key, error) => parts.onError(error),
    );
  }

  protected abstract process(key: string): void;
  protected abstract observe(event: StoreEvent): void;

  /** Subscribes to store events; subclasses call it after their start-up scan. */
  protected listen(): void {
    this.unsubscribe = this.store.subscribe((event) => this.observe(event));
  }

  stop(): void {
    this.unsubscribe?.();
    this.queue.stop();
  }
}

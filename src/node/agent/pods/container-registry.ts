// Which containers this node runs, by containerID and by pod: what the node runtime API answers from (a
// container's main PID and cgroups for an injector, as containerd answers upstream's). The pod workers
// report each run's start and exit here; listeners of a pod hear every change, so a watch needs no polling.
import { EventEmitter } from 'node:events';
import type { RunningContainer } from '../container-runtime.ts';

export const CONTAINER_ID_SCHEME = 'bosun://';

export interface RegisteredContainer {
  name: string;
  /** The current or last run's ID, without the scheme. */
  id?: string;
  /** Set while the run's process lives. */
  handle?: RunningContainer;
}

export interface RegisteredPod {
  uid: string;
  namespace: string;
  name: string;
  containers: RegisteredContainer[];
}

export interface ContainerLookup {
  pod: RegisteredPod;
  container: RegisteredContainer;
}

/** "bosun://<hex>" or "<hex>" → "<hex>". */
export function bareContainerID(id: string): string {
  return id.startsWith(CONTAINER_ID_SCHEME) ? id.slice(CONTAINER_ID_SCHEME.length) : id;
}

export class ContainerRegistry {
  private readonly pods = new Map<string, RegisteredPod>();
  private readonly changes = new EventEmitter();

  constructor() {
    // One listener per open watch; many injectors may watch at once.
    this.changes.setMaxListeners(0);
  }

  /** A pod this node now drives, with its containers (init containers included) not yet started. */
  addPod(pod: { uid: string; namespace: string; name: string; containers: string[] }): void {
    this.pods.set(pod.uid, { uid: pod.uid, namespace: pod.namespace, name: pod.name, containers: pod.containers.map((name) => ({ name })) });
    this.emit(pod.uid);
  }

  started(podUid: string, container: string, containerID: string, handle: RunningContainer): void {
    const entry = this.entry(podUid, container);
    if (entry === undefined) return;
    entry.id = bareContainerID(containerID);
    entry.handle = handle;
    this.emit(podUid);
  }

  stopped(podUid: string, container: string): void {
    const entry = this.entry(podUid, container);
    if (entry?.handle === undefined) return;
    delete entry.handle;
    this.emit(podUid);
  }

  /** The pod is no longer this node's (deleted, or the agent stopped driving it). */
  removePod(podUid: string): void {
    if (!this.pods.delete(podUid)) return;
    this.emit(podUid);
  }

  container(id: string): ContainerLookup | undefined {
    const bare = bareContainerID(id);
    for (const pod of this.pods.values()) {
      const container = pod.containers.find((c) => c.id === bare);
      if (container) return { pod, container };
    }
    return undefined;
  }

  /** The newest pod of that name (a pod deleted and created again may still be cleaning up). */
  pod(namespace: string, name: string): RegisteredPod | undefined {
    return [...this.pods.values()].findLast((p) => p.namespace === namespace && p.name === name);
  }

  podByUid(uid: string): RegisteredPod | undefined {
    return this.pods.get(uid);
  }

  /** Calls listener on every change to that pod (its removal included); returns the unsubscribe. */
  onChange(podUid: string, listener: () => void): () => void {
    this.changes.on(podUid, listener);
    return () => this.changes.off(podUid, listener);
  }

  private entry(podUid: string, container: string): RegisteredContainer | undefined {
    return this.pods.get(podUid)?.containers.find((c) => c.name === container);
  }

  private emit(podUid: string): void {
    this.changes.emit(podUid);
  }
}

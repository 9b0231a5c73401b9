// Endpoints keyed as upstream's EndpointSet keys them: by addresses, hostname and the pod they point at, so a
// change of conditions, node or zone updates an endpoint in place instead of moving it to another slice.
import type { Endpoint, ObjectReference } from '../../apimachinery/api/index.ts';

export function endpointKey(endpoint: Endpoint): string {
  return JSON.stringify([[...endpoint.addresses].sort(), endpoint.hostname ?? '', endpoint.targetRef?.namespace ?? '', endpoint.targetRef?.name ?? '']);
}

function sameRef(a: ObjectReference | undefined, b: ObjectReference | undefined): boolean {
  if (!a || !b) return a === b;
  // A pod's resourceVersion changes with every status write; it must not rewrite the slice.
  return a.kind === b.kind && a.namespace === b.namespace && a.name === b.name && a.uid === b.uid && a.apiVersion === b.apiVersion && a.fieldPath === b.fieldPath;
}

/** Equal in everything endpointKey leaves out (EndpointsEqualBeyondHash). */
export function endpointsEqualBeyondKey(a: Endpoint, b: Endpoint): boolean {
  return (
    a.nodeName === b.nodeName &&
    a.zone === b.zone &&
    a.conditions?.ready === b.conditions?.ready &&
    a.conditions?.serving === b.conditions?.serving &&
    a.conditions?.terminating === b.conditions?.terminating &&
    sameRef(a.targetRef, b.targetRef)
  );
}

/** Desired endpoints by key, in the order they were added; take() hands them out one at a time. */
export class EndpointSet {
  private readonly items = new Map<string, Endpoint>();

  insert(endpoint: Endpoint): void {
    this.items.set(endpointKey(endpoint), endpoint);
  }

  get(endpoint: Endpoint): Endpoint | undefined {
    return this.items.get(endpointKey(endpoint));
  }

  delete(endpoint: Endpoint): void {
    this.items.delete(endpointKey(endpoint));
  }

  take(): Endpoint | undefined {
    for (const [key, endpoint] of this.items) {
      this.items.delete(key);
      return endpoint;
    }
    return undefined;
  }

  get size(): number {
    return this.items.size;
  }
}

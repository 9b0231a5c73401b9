// The client creates in collections only; a POST to a pod's binding subresource is a create in the "collection"
// `pods/<name>/binding`, which is where the client's URL for this ref points.
import type { ResourceRef } from '../../client/client.ts';

export function subresourceRef(parent: ResourceRef, name: string, subresource: string, kind: string): ResourceRef {
  return { ...parent, resource: `${parent.resource}/${encodeURIComponent(name)}/${subresource}`, kind };
}

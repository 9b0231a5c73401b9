// What a write endpoint may change: /status only the status, /finalize only a Namespace's spec, and the main
// resource neither the status (when /status exists) nor a Namespace's spec.finalizers.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from './resource-type.ts';

export function restrictToEndpoint(type: ResourceType, old: KubeObject, candidate: KubeObject, subresource: 'status' | 'finalize' | undefined): KubeObject {
  if (subresource === 'status') {
    const next = structuredClone(old);
    if (candidate['status'] === undefined) delete next['status'];
    else next['status'] = candidate['status'];
    next.metadata.managedFields = candidate.metadata.managedFields ?? [];
    return next;
  }
  if (subresource === 'finalize') {
    const next = structuredClone(old);
    next['spec'] = candidate['spec'];
    return next;
  }
  if (type.statusSubresource) {
    if (old['status'] === undefined) delete candidate['status'];
    else candidate['status'] = structuredClone(old['status']);
  }
  if (!type.custom && type.specFinalizers) candidate['spec'] = structuredClone(old['spec']);
  return candidate;
}

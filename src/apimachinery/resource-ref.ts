// A resource as a client addresses it without asking discovery: group, version and plural for the URL, plus the
// scope and kind the answer carries.
import type { GroupVersionResource } from './group-version.ts';

export interface ResourceRef extends GroupVersionResource {
  namespaced: boolean;
  kind: string;
}

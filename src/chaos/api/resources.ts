// The chaos kinds as resources, resolved up front so no request needs discovery.
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import { CHAOS_GROUP, CHAOS_VERSION, KIND_DISRUPTION } from './constants.ts';

export const disruptionsResource: ResourceRef = { group: CHAOS_GROUP, version: CHAOS_VERSION, resource: 'disruptions', namespaced: true, kind: KIND_DISRUPTION };

// The resources the execution and deploy item controllers read and write, resolved up front so no
// request needs discovery.
import type { ResourceRef } from '../../client/client.ts';
import { KIND_DATA_OBJECT, KIND_DEPLOY_ITEM, KIND_EXECUTION, KIND_TARGET, LANDSCAPER_GROUP, LANDSCAPER_VERSION } from '../api/constants.ts';

const landscaper = (resource: string, kind: string): ResourceRef => ({ group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource, namespaced: true, kind });

export const executionsResource = landscaper('executions', KIND_EXECUTION);
export const deployItemsResource = landscaper('deployitems', KIND_DEPLOY_ITEM);
export const dataObjectsResource = landscaper('dataobjects', KIND_DATA_OBJECT);
export const targetsResource = landscaper('targets', KIND_TARGET);
export const secretsResource: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret' };

// The resources the installation controller reads and writes, resolved without discovery.
import type { ResourceRef } from '../../client/client.ts';
import { LANDSCAPER_GROUP, LANDSCAPER_VERSION } from '../api/constants.ts';

const ls = (resource: string, kind: string): ResourceRef => ({ group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource, namespaced: true, kind });

export const installationsResource = ls('installations', 'Installation');
export const executionsResource = ls('executions', 'Execution');
export const dataObjectsResource = ls('dataobjects', 'DataObject');
export const targetsResource = ls('targets', 'Target');
export const contextsResource = ls('contexts', 'Context');
export const secretsResource: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret' };
export const configMapsResource: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };

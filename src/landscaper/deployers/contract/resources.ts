// The resources the deployer library reads and writes in the Landscaper cluster.
import type { ResourceRef } from '../../../client/client.ts';
import { LANDSCAPER_GROUP, LANDSCAPER_VERSION } from '../../api/constants.ts';

export const deployItemsResource: ResourceRef = { group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource: 'deployitems', namespaced: true, kind: 'DeployItem' };
export const targetsResource: ResourceRef = { group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource: 'targets', namespaced: true, kind: 'Target' };
export const contextsResource: ResourceRef = { group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource: 'contexts', namespaced: true, kind: 'Context' };
export const secretsResource: ResourceRef = { group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret' };

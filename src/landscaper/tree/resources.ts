// The three kinds the tree reads, resolved up front so no request needs discovery.
import type { ResourceRef } from '../../client/client.ts';
import { KIND_DEPLOY_ITEM, KIND_EXECUTION, KIND_INSTALLATION, LANDSCAPER_GROUP, LANDSCAPER_VERSION } from '../api/constants.ts';

const ls = (resource: string, kind: string): ResourceRef => ({ group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource, namespaced: true, kind });

export const installationsResource = ls('installations', KIND_INSTALLATION);
export const executionsResource = ls('executions', KIND_EXECUTION);
export const deployItemsResource = ls('deployitems', KIND_DEPLOY_ITEM);

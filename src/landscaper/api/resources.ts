// The Landscaper kinds as resources, resolved up front so no request needs discovery.
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import { KIND_CONTEXT, KIND_DATA_OBJECT, KIND_DEPLOY_ITEM, KIND_EXECUTION, KIND_INSTALLATION, KIND_TARGET, LANDSCAPER_GROUP, LANDSCAPER_VERSION } from './constants.ts';

const landscaper = (resource: string, kind: string): ResourceRef => ({ group: LANDSCAPER_GROUP, version: LANDSCAPER_VERSION, resource, namespaced: true, kind });

export const installationsResource = landscaper('installations', KIND_INSTALLATION);
export const executionsResource = landscaper('executions', KIND_EXECUTION);
export const deployItemsResource = landscaper('deployitems', KIND_DEPLOY_ITEM);
export const dataObjectsResource = landscaper('dataobjects', KIND_DATA_OBJECT);
export const targetsResource = landscaper('targets', KIND_TARGET);
export const contextsResource = landscaper('contexts', KIND_CONTEXT);

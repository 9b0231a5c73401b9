// The terrakojo kinds as resources, resolved up front so no request needs discovery.
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import { KIND_BRANCH, KIND_REPOSITORY, KIND_WORKFLOW, KIND_WORKFLOW_TEMPLATE, TERRAKOJO_GROUP, TERRAKOJO_VERSION } from './constants.ts';

const terrakojo = (resource: string, kind: string): ResourceRef => ({ group: TERRAKOJO_GROUP, version: TERRAKOJO_VERSION, resource, namespaced: true, kind });

export const repositoriesResource = terrakojo('repositories', KIND_REPOSITORY);
export const branchesResource = terrakojo('branches', KIND_BRANCH);
export const workflowsResource = terrakojo('workflows', KIND_WORKFLOW);
export const workflowTemplatesResource = terrakojo('workflowtemplates', KIND_WORKFLOW_TEMPLATE);

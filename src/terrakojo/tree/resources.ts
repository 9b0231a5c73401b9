// What a Repository's tree is built from: the family's kinds plus the Jobs and pods its Workflows run.
import { jobsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { SnapshotResources } from '../../runtime/index.ts';
import { branchesResource, repositoriesResource, workflowsResource } from '../api/resources.ts';

export const repositoryTreeResources: SnapshotResources<'repositories' | 'branches' | 'workflows' | 'jobs' | 'pods'> = {
  repositories: repositoriesResource,
  branches: branchesResource,
  workflows: workflowsResource,
  jobs: jobsResource,
  pods: podsResource,
};

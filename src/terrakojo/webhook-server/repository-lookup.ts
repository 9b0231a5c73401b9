// Which Repositories a delivery is about. One list of the Repositories in scope, matched in memory on either
// of two keys:
// - the labels terrakojo.io/owner and terrakojo.io/repo-name, which the Repository controller copies from the
//   spec (upstream's webhook looks up by these alone);
// - spec.owner and spec.name themselves, for a Repository the controller has not labelled yet. GitHub names
//   are case-insensitive ("Acme/Infra" is "acme/infra"), so the spec is compared without case.
// Upstream asks the API server for a label selector instead; that would need the payload's names to be valid
// label values (a repository named ".github" is not one) and saves nothing: the server filters the same list.
import type { KubeClient } from '../../client/client.ts';
import { OWNER_LABEL, REPO_NAME_LABEL } from '../api/constants.ts';
import { repositoriesResource } from '../api/resources.ts';
import type { Repository } from '../api/types.ts';
import type { GitHubRepositoryName } from './github-payload.ts';

export function isRepositoryFor(repository: Repository, target: GitHubRepositoryName): boolean {
  const labels = repository.metadata.labels ?? {};
  if (labels[OWNER_LABEL] === target.owner && labels[REPO_NAME_LABEL] === target.name) return true;
  const spec = repository.spec as Partial<Repository['spec']> | undefined;
  return sameName(spec?.owner, target.owner) && sameName(spec?.name, target.name);
}

/** GitHub's owner and repository names are ASCII, so lower-casing is all the case folding they need. */
function sameName(a: string | undefined, b: string): boolean {
  return typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
}

/** The Repositories for target in namespace (all namespaces when undefined), sorted by namespace and name. */
export async function findRepositories(client: KubeClient, target: GitHubRepositoryName, options: { namespace?: string | undefined; signal?: AbortSignal }): Promise<Repository[]> {
  const list = await client.list<Repository>(repositoriesResource, {
    ...(options.namespace !== undefined ? { namespace: options.namespace } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return list.items
    .filter((repository) => isRepositoryFor(repository, target))
    .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
}

// The Repository a Branch belongs to (upstream's findRepositoryForBranch): the Repository its owner reference
// names, else one in its namespace labelled with its owner and repository name whose spec agrees. The cache is
// asked first; a miss is confirmed against the API, since a Branch without a Repository is deleted.
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { ReadonlyStore } from '../../runtime/index.ts';
import { LABEL_INDEX, labelIndexValue } from '../../runtime/index.ts';
import { KIND_REPOSITORY, OWNER_LABEL, REPO_NAME_LABEL } from '../api/constants.ts';
import { repositoriesResource } from '../api/resources.ts';
import type { Branch, Repository } from '../api/types.ts';

interface RepositoryReader {
  get(namespace: string, name: string): Promise<Repository | undefined>;
  /** Repositories of the namespace carrying both labels. */
  labelled(namespace: string, owner: string, name: string): Promise<Repository[]>;
}

export async function findRepository(store: Pick<ReadonlyStore<Repository>, 'get' | 'byIndex'>, client: KubeClient, branch: Branch): Promise<Repository | undefined> {
  return (await lookup(cacheReader(store), branch)) ?? lookup(apiReader(client), branch);
}

async function lookup(reader: RepositoryReader, branch: Branch): Promise<Repository | undefined> {
  const namespace = branch.metadata.namespace ?? '';
  for (const ref of branch.metadata.ownerReferences ?? []) {
    if (ref.kind !== KIND_REPOSITORY || !ref.name) continue;
    const repo = await reader.get(namespace, ref.name);
    if (repo) return repo;
  }
  const { owner, repository } = branch.spec;
  return (await reader.labelled(namespace, owner, repository)).find((repo) => repo.spec.owner === owner && repo.spec.name === repository);
}

function cacheReader(store: Pick<ReadonlyStore<Repository>, 'get' | 'byIndex'>): RepositoryReader {
  return {
    get: (namespace, name) => Promise.resolve(store.get(objectKey(namespace, name))),
    labelled: (namespace, owner, name) =>
      Promise.resolve(store.byIndex(LABEL_INDEX, labelIndexValue(OWNER_LABEL, owner)).filter((r) => r.metadata.namespace === namespace && r.metadata.labels?.[REPO_NAME_LABEL] === name)),
  };
}

function apiReader(client: KubeClient): RepositoryReader {
  return {
    async get(namespace, name) {
      try {
        return await client.get<Repository>(repositoriesResource, name, { namespace });
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    },
    async labelled(namespace, owner, name) {
      return (await client.list<Repository>(repositoriesResource, { namespace, labelSelector: `${OWNER_LABEL}=${owner},${REPO_NAME_LABEL}=${name}` })).items;
    },
  };
}

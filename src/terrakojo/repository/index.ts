// The Repository controller on Bosun's runtime: registerRepositoryController(mgr, options).
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { action } from '../../runtime/index.ts';
import { KIND_REPOSITORY } from '../api/constants.ts';
import { branchesResource, repositoriesResource } from '../api/resources.ts';
import type { Branch, Repository } from '../api/types.ts';
import { retryAfterMs, type GitHubClientProvider } from './github-access.ts';
import { controllerOf } from './ownership.ts';
import { notStatusOnly } from './predicates.ts';
import { indexRepositoriesBySecret, repositoriesUsing, secretContentChanged } from './secret-index.ts';
import { reconcileRepository, type RepositoryDeps } from './reconcile.ts';

export type { GitHubClientProvider } from './github-access.ts';

export interface RepositoryControllerOptions {
  /** The GitHub client for a Repository (the family wires in the client cache). */
  github: GitHubClientProvider;
  /** How often a synced Repository is compared with GitHub again without a webhook poke; default 30 minutes (upstream's). */
  resyncIntervalMs?: number;
  /** Repositories synced in parallel; default 2. */
  concurrency?: number;
  name?: string;
}

export const REPOSITORY_CONTROLLER_NAME = 'terrakojo-repository';
export const DEFAULT_RESYNC_INTERVAL_MS = 30 * 60 * 1000;

/**
 * Registers the controller. Besides its Repositories it watches the Secrets they name (a fixed Secret ends a
 * credentials error at once) and the deletion of their Branches (a Repository being deleted waits on those).
 */
export function registerRepositoryController(mgr: Manager, options: RepositoryControllerOptions): Controller<Repository, RepositoryDeps> {
  const repositories = mgr.informer<Repository>(repositoriesResource);
  const branches = mgr.informer<Branch>(branchesResource);
  const secrets = mgr.informer(secretsResource);
  indexRepositoriesBySecret(repositories);
  const writes = mgr.readYourWrites<Repository>(repositoriesResource);
  const deps: RepositoryDeps = {
    client: mgr.client,
    branches,
    github: options.github,
    recorder: mgr.recorder('terrakojo-repository-controller'),
    writer: mgr.statusWriter(repositoriesResource, { readYourWrites: writes }),
    writes,
    resyncIntervalMs: options.resyncIntervalMs ?? DEFAULT_RESYNC_INTERVAL_MS,
  };
  const deletingOwner = (branch: Branch): string[] => {
    const ref = controllerOf(branch, KIND_REPOSITORY);
    if (!ref) return [];
    const key = objectKey(branch.metadata.namespace, ref.name);
    return repositories.store.get(key)?.metadata.deletionTimestamp ? [key] : [];
  };
  return mgr
    .controller<Repository, RepositoryDeps>({
      name: options.name ?? REPOSITORY_CONTROLLER_NAME,
      for: repositoriesResource,
      data: deps,
      concurrency: options.concurrency ?? 2,
      // Its own status writes do not wake it; the next pass is the resync, a poke or a change.
      predicates: [notStatusOnly<Repository>()],
      reconcile: reconcileRepository,
      // A rate limit GitHub named a reset for is waited out, not hammered with backoff.
      errorPolicy: (_repo, err) => {
        const waitMs = retryAfterMs(err);
        return waitMs === undefined ? action.requeue() : action.requeueAfter(waitMs);
      },
    })
    .watches(secrets, (secret: KubeObject) => repositoriesUsing(repositories, secret).map((repo) => objectKey(repo.metadata.namespace, repo.metadata.name ?? '')), { predicates: [secretContentChanged] })
    .watches(branches, deletingOwner, { predicates: [(e) => e.type === 'deleted'] });
}

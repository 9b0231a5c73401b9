// The Branch controller on Bosun's runtime: registerBranchController(mgr, options).
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { Controller, Manager, Predicate } from '../../runtime/index.ts';
import { branchesResource, repositoriesResource, workflowsResource } from '../api/resources.ts';
import type { Branch, Repository, Workflow } from '../api/types.ts';
import type { GitHubClientProvider } from '../repository/github-access.ts';
import { KIND_REPOSITORY } from '../api/constants.ts';
import { controlledBy } from '../repository/ownership.ts';
import { notStatusOnly } from '../repository/predicates.ts';
import { indexRepositoriesBySecret, repositoriesUsing, secretContentChanged } from '../repository/secret-index.ts';
import { reconcileBranch, type BranchDeps } from './reconcile.ts';

export interface BranchControllerOptions {
  /** The GitHub client for a Repository (the family wires in the client cache). */
  github: GitHubClientProvider;
  /** Branches reconciled in parallel; default 4. */
  concurrency?: number;
  name?: string;
}

export const BRANCH_CONTROLLER_NAME = 'terrakojo-branch';

/** A Workflow concerns its Branch when it appears, goes, is being deleted, or changes phase (terminal ends a commit). */
const workflowProgress: Predicate<Workflow> = (e) =>
  e.type !== 'modified' || e.old === undefined || e.old.status?.phase !== e.object.status?.phase || e.old.metadata.deletionTimestamp !== e.object.metadata.deletionTimestamp;

/**
 * Registers the controller: Branches are the primary kind; their Workflows (Owns) wake them as they end or go, and
 * a change of the Secret their Repository reads wakes them too (a fixed Secret ends a credentials error at once).
 */
export function registerBranchController(mgr: Manager, options: BranchControllerOptions): Controller<Branch, BranchDeps> {
  const branches = mgr.informer<Branch>(branchesResource);
  const repositories = mgr.informer<Repository>(repositoriesResource);
  indexRepositoriesBySecret(repositories);
  const writes = mgr.readYourWrites<Branch>(branchesResource);
  const deps: BranchDeps = {
    client: mgr.client,
    github: options.github,
    repositories,
    workflows: mgr.informer<Workflow>(workflowsResource),
    recorder: mgr.recorder('terrakojo-branch-controller'),
    writer: mgr.statusWriter(branchesResource, { readYourWrites: writes }),
    writes,
  };
  return mgr
    .controller<Branch, BranchDeps>({
      name: options.name ?? BRANCH_CONTROLLER_NAME,
      for: branchesResource,
      data: deps,
      concurrency: options.concurrency ?? 4,
      predicates: [notStatusOnly<Branch>()],
      reconcile: reconcileBranch,
    })
    .owns(mgr.informer<Workflow>(workflowsResource), { predicates: [workflowProgress] })
    .watches(
      mgr.informer(secretsResource),
      (secret: KubeObject) => repositoriesUsing(repositories, secret).flatMap((repo) => controlledBy(branches.store, repo, KIND_REPOSITORY)).map((b) => objectKey(b.metadata.namespace, b.metadata.name ?? '')),
      { predicates: [secretContentChanged] },
    );
}

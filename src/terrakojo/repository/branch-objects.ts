// The Branch objects a Repository controls: made for a ref at a commit, deleted when no longer wanted. Creation is
// create-if-absent (the name is derived from ref and SHA), so a pass that repeats after a crash or on a stale cache
// makes nothing twice.
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import { KIND_BRANCH, KIND_REPOSITORY, REPO_NAME_LABEL, REPO_UID_LABEL, TERRAKOJO_API_VERSION } from '../api/constants.ts';
import { branchesResource } from '../api/resources.ts';
import type { Branch, Repository } from '../api/types.ts';
import { branchName } from './branch-name.ts';
import { controllerReference } from './ownership.ts';

export interface BranchTarget {
  ref: string;
  sha: string;
  prNumber?: number;
}

export function branchObject(repo: Repository, target: BranchTarget): Branch {
  return {
    apiVersion: TERRAKOJO_API_VERSION,
    kind: KIND_BRANCH,
    metadata: {
      name: branchName(repo.spec.name, target.ref, target.sha),
      ...(repo.metadata.namespace !== undefined ? { namespace: repo.metadata.namespace } : {}),
      labels: { [REPO_UID_LABEL]: repo.metadata.uid ?? '', [REPO_NAME_LABEL]: repo.spec.name },
      ownerReferences: [controllerReference(repo, KIND_REPOSITORY)],
    },
    spec: {
      owner: repo.spec.owner,
      repository: repo.spec.name,
      name: target.ref,
      sha: target.sha,
      // The CRD allows 1..99999999: no PR is no field.
      ...(target.prNumber ? { prNumber: target.prNumber } : {}),
    },
  };
}

/** Creates the Branch unless one of that name exists; true when this call made it. */
export async function createBranch(client: KubeClient, repo: Repository, target: BranchTarget): Promise<boolean> {
  try {
    await client.create(branchesResource, branchObject(repo, target));
    return true;
  } catch (err) {
    if (err instanceof AlreadyExistsError) return false;
    throw err;
  }
}

/** Deletes the Branch unless it is already going (its finalizer removes its Workflows first); true when this call did. */
export async function deleteBranch(client: KubeClient, branch: Branch): Promise<boolean> {
  if (branch.metadata.deletionTimestamp) return false;
  try {
    await client.delete(branchesResource, branch.metadata.name ?? '', { namespace: branch.metadata.namespace ?? '' });
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

/** Sets spec.prNumber (a closed PR clears it). */
export async function setPullRequest(client: KubeClient, branch: Branch, prNumber: number | undefined): Promise<void> {
  await client.patch(branchesResource, branch.metadata.name ?? '', { spec: { prNumber: prNumber ?? null } }, { type: 'merge', namespace: branch.metadata.namespace ?? '' });
}

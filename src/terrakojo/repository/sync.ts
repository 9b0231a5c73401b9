// One sync pass of a Repository against GitHub (upstream's syncFromGitHub): default-branch commits since the
// cursor become Branches, then every other ref gets exactly one Branch at its current head, and Branches of refs
// GitHub no longer has are pruned.
import type { KubeClient } from '../../client/client.ts';
import type { ReadonlyStore } from '../../runtime/index.ts';
import { forEachLimited } from '../../runtime/index.ts';
import { KIND_REPOSITORY } from '../api/constants.ts';
import type { Branch, Repository } from '../api/types.ts';
import type { GitHubClient } from '../github/github-client.ts';
import { createBranch, deleteBranch, setPullRequest } from './branch-objects.ts';
import { newDefaultBranchCommits } from './default-branch.ts';
import { controlledBy } from './ownership.ts';
import { desiredRefs } from './refs.ts';

/** Branch writes in flight at once: a 250-commit page is 250 creates. */
const WRITE_PARALLELISM = 8;

export interface SyncDeps {
  client: KubeClient;
  branches: Pick<ReadonlyStore<Branch>, 'byIndex'>;
}

export interface DefaultBranchOutcome {
  head: string;
  /** The new cursor: the last commit made into a Branch. */
  cursor: string;
  /** False when a page of commits was taken and more remain after the cursor. */
  caughtUp: boolean;
  /** Branches this pass made. */
  created: number;
}

export interface RefsOutcome {
  /** Non-default refs that now have a Branch. */
  refs: number;
  created: number;
  deleted: number;
}

export async function syncDefaultBranch(d: SyncDeps, repo: Repository, github: GitHubClient): Promise<DefaultBranchOutcome> {
  const { owner, name, defaultBranch } = repo.spec;
  const head = await github.getBranchHead(owner, name, defaultBranch);
  const shas = await newDefaultBranchCommits(github, repo.spec, repo.status?.lastDefaultBranchHeadSha, head);
  const present = new Set(controlledBy(d.branches, repo, KIND_REPOSITORY).filter((b) => b.spec.name === defaultBranch).map((b) => b.spec.sha));
  const missing = [...new Set(shas)].filter((sha) => !present.has(sha));
  let created = 0;
  await forEachLimited(missing, WRITE_PARALLELISM, async (sha) => {
    if (await createBranch(d.client, repo, { ref: defaultBranch, sha })) created++;
  });
  const cursor = shas.at(-1) ?? head;
  return { head, cursor, caughtUp: cursor === head, created };
}

export async function syncRefs(d: SyncDeps, repo: Repository, github: GitHubClient): Promise<RefsOutcome> {
  const { owner, name, defaultBranch } = repo.spec;
  const desired = desiredRefs(await github.listBranches(owner, name), await github.listOpenPullRequests(owner, name), defaultBranch);
  const byRef = new Map<string, Branch[]>();
  for (const branch of controlledBy(d.branches, repo, KIND_REPOSITORY)) {
    if (branch.spec.name === defaultBranch) continue;
    byRef.set(branch.spec.name, [...(byRef.get(branch.spec.name) ?? []), branch]);
  }
  const outcome: RefsOutcome = { refs: desired.length, created: 0, deleted: 0 };
  const remove = async (branch: Branch): Promise<void> => {
    if (await deleteBranch(d.client, branch)) outcome.deleted++;
  };
  await forEachLimited(desired, WRITE_PARALLELISM, async (want) => {
    const existing = byRef.get(want.ref) ?? [];
    byRef.delete(want.ref);
    const current = existing.find((b) => b.spec.sha === want.sha && !b.metadata.deletionTimestamp);
    // A new head is a new Branch (the SHA is in its name): the old one goes, cancelling what still runs for it.
    for (const old of existing) if (old !== current) await remove(old);
    if (!current) {
      if (await createBranch(d.client, repo, want)) outcome.created++;
    } else if ((current.spec.prNumber ?? 0) !== (want.prNumber ?? 0)) {
      await setPullRequest(d.client, current, want.prNumber);
    }
  });
  await forEachLimited([...byRef.values()].flat(), WRITE_PARALLELISM, remove);
  return outcome;
}

// Which default-branch commits a sync pass turns into Branches (upstream's CollectDefaultBranchCommits). The cursor
// (status.lastDefaultBranchHeadSha) is the last commit made into a Branch:
// - no cursor: the head alone (a new Repository does not replay history);
// - cursor at the head: nothing;
// - otherwise the commits of compare cursor...head, oldest first, at most one page of 250; the caller moves the
//   cursor to the last of them, so a longer history is caught up one page per pass.
// When the cursor is no longer in the history (a force-push rewrote it; GitHub answers 404 or, for an unknown SHA,
// 422) the head alone is taken. Any other failure is an error, never a silent skip of commits.
import type { GitHubClient } from '../github/github-client.ts';

export interface RepositoryCoordinates {
  owner: string;
  name: string;
}

export class EmptyCompareError extends Error {
  override readonly name = 'EmptyCompareError' as const;
}

export async function newDefaultBranchCommits(github: GitHubClient, repo: RepositoryCoordinates, cursor: string | undefined, head: string): Promise<string[]> {
  if (!cursor) return [head];
  if (cursor === head) return [];
  let compared;
  try {
    compared = await github.compareCommits(repo.owner, repo.name, cursor, head);
  } catch (err) {
    // A transient failure must not skip commits: fall back only when the cursor itself is gone.
    if (await cursorGone(github, repo, cursor)) return [head];
    throw err;
  }
  if (compared.shas.length > 0) return compared.shas;
  if (compared.status === 'behind') return [head];
  if (await cursorGone(github, repo, cursor)) return [head];
  throw new EmptyCompareError(`GitHub compare ${cursor.slice(0, 12)}...${head.slice(0, 12)} in ${repo.owner}/${repo.name} listed no commits (status "${compared.status}"), yet ${cursor.slice(0, 12)} still exists`);
}

async function cursorGone(github: GitHubClient, repo: RepositoryCoordinates, cursor: string): Promise<boolean> {
  return !(await github.commitExists(repo.owner, repo.name, cursor));
}

// The non-default refs a Repository should have a Branch for (upstream's FetchBranchHeadsFromGitHub): every branch
// but the default one, and every open pull request's head ref. When several open PRs share a head ref the highest
// number wins, and a PR's head SHA wins over the branch's (it is what the PR runs). A ref without a SHA is skipped.
// Sorted by ref, so passes are reproducible.
import type { PullRequestHead } from '../github/github-client.ts';
import { uniqueSorted } from '../branch/targets.ts';

export interface DesiredRef {
  ref: string;
  sha: string;
  /** The open PR for the ref, when there is one. */
  prNumber?: number;
}

export function desiredRefs(branches: readonly { name: string; sha: string }[], pulls: readonly PullRequestHead[], defaultBranch: string): DesiredRef[] {
  const branchHeads = new Map<string, string>();
  for (const branch of branches) if (branch.name !== defaultBranch) branchHeads.set(branch.name, branch.sha);
  const pullByRef = new Map<string, PullRequestHead>();
  for (const pull of pulls) {
    // A PR whose head is the default branch (from a fork's main) is the default branch's business, as upstream's sync skips it.
    if (pull.ref === defaultBranch) continue;
    const known = pullByRef.get(pull.ref);
    if (!known || pull.number > known.number) pullByRef.set(pull.ref, pull);
  }
  const desired: DesiredRef[] = [];
  for (const ref of uniqueSorted([...branchHeads.keys(), ...pullByRef.keys()])) {
    const pull = pullByRef.get(ref);
    const sha = pull?.sha || branchHeads.get(ref) || '';
    if (sha === '') continue;
    desired.push({ ref, sha, ...(pull ? { prNumber: pull.number } : {}) });
  }
  return desired;
}

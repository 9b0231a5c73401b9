// Walking history: ref resolution and compare. Like the brief asks (and enough for linear histories and merges),
// compare follows first parents: the merge base is the first commit on head's first-parent chain that is also
// on base's.
import type { Commit, CommitFile, Repository } from './model.ts';

export type CompareStatus = 'ahead' | 'behind' | 'diverged' | 'identical';

export interface Comparison {
  status: CompareStatus;
  aheadBy: number;
  behindBy: number;
  /** The commits after the merge base up to head, oldest first. */
  commits: Commit[];
  mergeBase: Commit;
}

/** A branch name, a full SHA or an abbreviated one (7 hex or more, unique). */
export function resolveRef(repository: Repository, ref: string): Commit | undefined {
  const branchHead = repository.branches.get(ref);
  if (branchHead !== undefined) return repository.commits.get(branchHead);
  const sha = ref.toLowerCase();
  if (!/^[0-9a-f]{7,40}$/.test(sha)) return undefined;
  const exact = repository.commits.get(sha);
  if (exact !== undefined || sha.length === 40) return exact;
  const matches = [...repository.commits.values()].filter((commit) => commit.sha.startsWith(sha));
  return matches.length === 1 ? matches[0] : undefined;
}

/** undefined when the two share no history. */
export function compareCommits(repository: Repository, baseSha: string, headSha: string): Comparison | undefined {
  const headChain = firstParentChain(repository, headSha);
  const baseChain = firstParentChain(repository, baseSha);
  const onBase = new Map(baseChain.map((commit, index) => [commit.sha, index]));
  const aheadBy = headChain.findIndex((commit) => onBase.has(commit.sha));
  if (aheadBy < 0) return undefined;
  const mergeBase = headChain[aheadBy] as Commit;
  const behindBy = onBase.get(mergeBase.sha) as number;
  const status: CompareStatus = aheadBy === 0 && behindBy === 0 ? 'identical' : behindBy === 0 ? 'ahead' : aheadBy === 0 ? 'behind' : 'diverged';
  return { status, aheadBy, behindBy, commits: headChain.slice(0, aheadBy).reverse(), mergeBase };
}

/** The commit and its first parents, newest first. */
function firstParentChain(repository: Repository, sha: string): Commit[] {
  const chain: Commit[] = [];
  for (let commit = repository.commits.get(sha); commit !== undefined; commit = repository.commits.get(commit.parents[0] ?? '')) {
    chain.push(commit);
  }
  return chain;
}

/** The files a run of commits changes, each once with its net status against the start. */
export function changedFiles(commits: readonly Commit[]): CommitFile[] {
  const files = new Map<string, CommitFile>();
  for (const commit of commits) {
    for (const file of commit.files) {
      const earlier = files.get(file.filename);
      // A file added then modified is still "added" against the start.
      files.set(file.filename, earlier?.status === 'added' && file.status === 'modified' ? earlier : file);
    }
  }
  return [...files.values()];
}

// The server's state: repositories with their commits, branches and pull requests. Every change that GitHub
// would announce with a webhook is reported to `onEvent`, so the webhook sender sees exactly what the API sees.
import { createHash } from 'node:crypto';
import { GitHubTestServerError } from './errors.ts';
import { changedFiles, compareCommits } from './history.ts';

export type FileStatus = 'added' | 'modified' | 'removed';
const FILE_STATUSES: readonly FileStatus[] = ['added', 'modified', 'removed'];

export interface CommitFile {
  filename: string;
  status: FileStatus;
}

export interface Commit {
  sha: string;
  parents: string[];
  message: string;
  files: CommitFile[];
  /** Every file present after this commit: tells "added" from "modified". */
  tree: ReadonlySet<string>;
  at: string;
}

export interface PullRequest {
  number: number;
  title: string;
  head: string;
  headSha: string;
  base: string;
  state: 'open' | 'closed';
  merged: boolean;
  mergeCommitSha: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  mergedAt: string | null;
}

export interface Repository {
  id: number;
  owner: string;
  name: string;
  defaultBranch: string;
  createdAt: string;
  commits: Map<string, Commit>;
  /** Branch name → head SHA. */
  branches: Map<string, string>;
  pulls: Map<number, PullRequest>;
}

export const ZERO_SHA = '0'.repeat(40);

export type ModelEvent =
  | { kind: 'push'; repository: Repository; branch: string; before: string; after: string; created: boolean; deleted: boolean; forced: boolean; commits: Commit[] }
  | { kind: 'pull_request'; repository: Repository; action: 'opened' | 'synchronize' | 'closed'; pull: PullRequest; before?: string };

/** A file given to commit(): a name (added or modified, as the tree says) or a name with an explicit status. */
export type FileChange = string | CommitFile;

export interface CommitOptions {
  branch: string;
  files: FileChange[];
  message?: string;
  /** For a branch that does not exist yet: the branch it starts from (default: the default branch). */
  from?: string;
}

export class GitHubModel {
  private readonly repositories = new Map<string, Repository>();
  private commitCounter = 0;
  private nextRepositoryId = 1;

  constructor(private readonly onEvent: (event: ModelEvent) => void = () => {}) {}

  createRepository(owner: string, name: string, options: { defaultBranch?: string } = {}): Repository {
    const key = repositoryKey(owner, name);
    if (this.repositories.has(key)) throw new GitHubTestServerError(`repository ${key} already exists`);
    const now = new Date().toISOString();
    const repository: Repository = {
      id: this.nextRepositoryId++,
      owner,
      name,
      defaultBranch: options.defaultBranch ?? 'main',
      createdAt: now,
      commits: new Map(),
      branches: new Map(),
      pulls: new Map(),
    };
    this.repositories.set(key, repository);
    const initial = this.newCommit(repository, [], 'Initial commit', ['README.md']);
    repository.branches.set(repository.defaultBranch, initial.sha);
    return repository;
  }

  find(owner: string, name: string): Repository | undefined {
    return this.repositories.get(repositoryKey(owner, name));
  }

  get(owner: string, name: string): Repository {
    const repository = this.find(owner, name);
    if (repository === undefined) throw new GitHubTestServerError(`no repository ${repositoryKey(owner, name)}`);
    return repository;
  }

  commit(owner: string, name: string, options: CommitOptions): string {
    const repository = this.get(owner, name);
    const existing = repository.branches.get(options.branch);
    const parent = existing ?? this.branchHead(repository, options.from ?? repository.defaultBranch);
    const commit = this.newCommit(repository, [parent], options.message ?? `Change ${options.files.length} file(s)`, options.files);
    this.moveBranch(repository, options.branch, commit.sha, false);
    return commit.sha;
  }

  /** A merge commit on `branch` with `other` as its second parent, changing `files`. */
  private mergeCommit(repository: Repository, branch: string, other: string, files: FileChange[], message: string): string {
    const commit = this.newCommit(repository, [this.branchHead(repository, branch), other], message, files);
    this.moveBranch(repository, branch, commit.sha, false);
    return commit.sha;
  }

  createBranch(owner: string, name: string, branch: string, sha?: string): void {
    const repository = this.get(owner, name);
    if (repository.branches.has(branch)) throw new GitHubTestServerError(`branch ${branch} already exists`);
    this.moveBranch(repository, branch, this.existingCommit(repository, sha ?? this.branchHead(repository, repository.defaultBranch)).sha, false);
  }

  /** A force-push: the branch points at `sha`, whatever its history. */
  setBranchHead(owner: string, name: string, branch: string, sha: string): void {
    const repository = this.get(owner, name);
    this.moveBranch(repository, branch, this.existingCommit(repository, sha).sha, true);
  }

  deleteBranch(owner: string, name: string, branch: string): void {
    const repository = this.get(owner, name);
    const before = this.branchHead(repository, branch);
    if (branch === repository.defaultBranch) throw new GitHubTestServerError(`${branch} is the default branch of ${owner}/${name}; GitHub refuses to delete it`);
    repository.branches.delete(branch);
    this.onEvent({ kind: 'push', repository, branch, before, after: ZERO_SHA, created: false, deleted: true, forced: false, commits: [] });
    // GitHub closes the open pull requests whose head branch is gone.
    for (const pull of repository.pulls.values()) {
      if (pull.state === 'open' && pull.head === branch) this.close(repository, pull, false);
    }
  }

  openPullRequest(owner: string, name: string, options: { head: string; base: string; title?: string }): number {
    const repository = this.get(owner, name);
    const headSha = this.branchHead(repository, options.head);
    this.branchHead(repository, options.base);
    const duplicate = [...repository.pulls.values()].find((pull) => pull.state === 'open' && pull.head === options.head && pull.base === options.base);
    // GitHub's 422 "A pull request already exists for acme:feature/x."
    if (duplicate !== undefined) throw new GitHubTestServerError(`pull request #${duplicate.number} is already open from ${options.head} to ${options.base}`);
    const now = new Date().toISOString();
    const pull: PullRequest = {
      number: repository.pulls.size + 1,
      title: options.title ?? `Merge ${options.head} into ${options.base}`,
      head: options.head,
      headSha,
      base: options.base,
      state: 'open',
      merged: false,
      mergeCommitSha: null,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      mergedAt: null,
    };
    repository.pulls.set(pull.number, pull);
    this.onEvent({ kind: 'pull_request', repository, action: 'opened', pull });
    return pull.number;
  }

  /** Closes a pull request; `merged` also merges its head into its base with a merge commit, as GitHub's merge button does. */
  closePullRequest(owner: string, name: string, number: number, options: { merged?: boolean } = {}): void {
    const repository = this.get(owner, name);
    const pull = repository.pulls.get(number);
    if (pull === undefined) throw new GitHubTestServerError(`no pull request #${number} in ${repositoryKey(owner, name)}`);
    if (pull.state === 'closed') throw new GitHubTestServerError(`pull request #${number} is already closed`);
    this.close(repository, pull, options.merged ?? false);
  }

  /** The files a pull request changes: every file touched between the merge base and its head. */
  pullRequestFiles(repository: Repository, pull: PullRequest): CommitFile[] {
    const baseSha = repository.branches.get(pull.base) ?? pull.headSha;
    return changedFiles(compareCommits(repository, baseSha, pull.headSha)?.commits ?? []);
  }

  private close(repository: Repository, pull: PullRequest, merged: boolean): void {
    const now = new Date().toISOString();
    if (merged) {
      const files = this.pullRequestFiles(repository, pull);
      pull.mergeCommitSha = this.mergeCommit(repository, pull.base, pull.headSha, files, `Merge pull request #${pull.number} from ${pull.head}`);
      pull.merged = true;
      pull.mergedAt = now;
    }
    pull.state = 'closed';
    pull.closedAt = now;
    pull.updatedAt = now;
    this.onEvent({ kind: 'pull_request', repository, action: 'closed', pull });
  }

  private moveBranch(repository: Repository, branch: string, sha: string, forced: boolean): void {
    const before = repository.branches.get(branch);
    // Pushing the head a branch already has changes nothing, and GitHub announces nothing.
    if (before === sha) return;
    repository.branches.set(branch, sha);
    const comparison = before === undefined ? undefined : compareCommits(repository, before, sha);
    const commits = comparison?.commits ?? [this.existingCommit(repository, sha)];
    this.onEvent({
      kind: 'push',
      repository,
      branch,
      before: before ?? ZERO_SHA,
      after: sha,
      created: before === undefined,
      deleted: false,
      forced: forced && comparison?.status !== 'ahead',
      commits,
    });
    for (const pull of repository.pulls.values()) {
      if (pull.state !== 'open' || pull.head !== branch || pull.headSha === sha) continue;
      const previous = pull.headSha;
      pull.headSha = sha;
      pull.updatedAt = new Date().toISOString();
      this.onEvent({ kind: 'pull_request', repository, action: 'synchronize', pull, before: previous });
    }
  }

  private newCommit(repository: Repository, parents: string[], message: string, changes: FileChange[]): Commit {
    const parentTree = parents[0] === undefined ? new Set<string>() : this.existingCommit(repository, parents[0]).tree;
    const tree = new Set(parentTree);
    const files = changes.map((change): CommitFile => {
      const file = typeof change === 'string' ? ({ filename: change, status: parentTree.has(change) ? 'modified' : 'added' } as const) : change;
      if (typeof file?.filename !== 'string' || file.filename === '' || !FILE_STATUSES.includes(file.status)) {
        throw new GitHubTestServerError(`a changed file is a name or { filename, status: ${FILE_STATUSES.join(' | ')} }, got ${JSON.stringify(change)}`);
      }
      if (file.status === 'removed' && !parentTree.has(file.filename)) throw new GitHubTestServerError(`cannot remove ${file.filename}: it is not in the tree`);
      if (file.status === 'removed') tree.delete(file.filename);
      else tree.add(file.filename);
      return { filename: file.filename, status: file.status };
    });
    const counter = ++this.commitCounter;
    const sha = createHash('sha1')
      .update(JSON.stringify([repository.owner, repository.name, parents, message, files, counter]))
      .digest('hex');
    const commit: Commit = { sha, parents, message, files, tree, at: new Date().toISOString() };
    repository.commits.set(sha, commit);
    return commit;
  }

  private branchHead(repository: Repository, branch: string): string {
    const sha = repository.branches.get(branch);
    if (sha === undefined) throw new GitHubTestServerError(`no branch ${branch} in ${repository.owner}/${repository.name}`);
    return sha;
  }

  private existingCommit(repository: Repository, sha: string): Commit {
    const commit = repository.commits.get(sha);
    if (commit === undefined) throw new GitHubTestServerError(`no commit ${sha} in ${repository.owner}/${repository.name}`);
    return commit;
  }
}

function repositoryKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

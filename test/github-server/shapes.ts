// The JSON shapes GitHub's REST docs give, built from the model. Only fields a client plausibly reads are filled,
// but every one present has GitHub's name and type.
import { createHash } from 'node:crypto';
import type { Commit, CommitFile, PullRequest, Repository } from './model.ts';

const WEB = 'https://github.test';

export function ownerJson(login: string) {
  return { login, id: idOf(login), node_id: `U_${login}`, type: 'Organization', site_admin: false, html_url: `${WEB}/${login}` };
}

export function repositoryJson(repository: Repository, apiBase: string) {
  const fullName = `${repository.owner}/${repository.name}`;
  return {
    id: repository.id,
    node_id: `R_${repository.id}`,
    name: repository.name,
    full_name: fullName,
    private: false,
    visibility: 'public',
    owner: ownerJson(repository.owner),
    html_url: `${WEB}/${fullName}`,
    clone_url: `${WEB}/${fullName}.git`,
    url: `${apiBase}/repos/${fullName}`,
    default_branch: repository.defaultBranch,
    archived: false,
    disabled: false,
    fork: false,
    created_at: repository.createdAt,
    updated_at: repository.createdAt,
    pushed_at: repository.createdAt,
  };
}

export function commitJson(repository: Repository, commit: Commit, apiBase: string) {
  const repoUrl = `${apiBase}/repos/${repository.owner}/${repository.name}`;
  const person = { name: 'Test Author', email: 'author@github.test', date: commit.at };
  return {
    sha: commit.sha,
    node_id: `C_${commit.sha}`,
    url: `${repoUrl}/commits/${commit.sha}`,
    html_url: `${WEB}/${repository.owner}/${repository.name}/commit/${commit.sha}`,
    commit: { message: commit.message, author: person, committer: person, tree: { sha: treeSha(commit), url: `${repoUrl}/git/trees/${treeSha(commit)}` }, comment_count: 0 },
    author: null,
    committer: null,
    parents: commit.parents.map((sha) => ({ sha, url: `${repoUrl}/commits/${sha}` })),
  };
}

export function fileJson(repository: Repository, ref: string, file: CommitFile) {
  const changes = file.status === 'modified' ? 2 : 1;
  return {
    sha: objectSha('blob', ref, file.filename, file.status),
    filename: file.filename,
    status: file.status,
    additions: file.status === 'removed' ? 0 : 1,
    deletions: file.status === 'added' ? 0 : 1,
    changes,
    blob_url: `${WEB}/${repository.owner}/${repository.name}/blob/${ref}/${file.filename}`,
    raw_url: `${WEB}/${repository.owner}/${repository.name}/raw/${ref}/${file.filename}`,
  };
}

export function branchJson(repository: Repository, name: string, commit: Commit, apiBase: string) {
  return { name, commit: commitJson(repository, commit, apiBase), protected: false, _links: { self: `${apiBase}/repos/${repository.owner}/${repository.name}/branches/${name}` } };
}

export function pullJson(repository: Repository, pull: PullRequest, apiBase: string) {
  const repo = repositoryJson(repository, apiBase);
  const side = (ref: string, sha: string) => ({ label: `${repository.owner}:${ref}`, ref, sha, user: ownerJson(repository.owner), repo });
  return {
    id: repository.id * 100_000 + pull.number,
    node_id: `PR_${repository.id}_${pull.number}`,
    number: pull.number,
    url: `${apiBase}/repos/${repository.owner}/${repository.name}/pulls/${pull.number}`,
    html_url: `${WEB}/${repository.owner}/${repository.name}/pull/${pull.number}`,
    state: pull.state,
    locked: false,
    draft: false,
    title: pull.title,
    body: null,
    user: ownerJson(repository.owner),
    created_at: pull.createdAt,
    updated_at: pull.updatedAt,
    closed_at: pull.closedAt,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    head: side(pull.head, pull.headSha),
    base: side(pull.base, repository.branches.get(pull.base) ?? pull.headSha),
  };
}

/** A stable small number for a login (GitHub's user ids are numbers). */
function idOf(login: string): number {
  let hash = 0;
  for (const char of login) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_000;
  return hash + 1;
}

function treeSha(commit: Commit): string {
  return objectSha('tree', commit.sha);
}

/** A stable 40-hex id for a git object the server does not store (trees, blobs). */
function objectSha(...parts: string[]): string {
  return createHash('sha1').update(parts.join('\0')).digest('hex');
}

// GET a commit with its files (paged at 300 like GitHub), and compare base...head (commits paged, at most 250).
import { changedFiles, compareCommits, resolveRef } from '../history.ts';
import { HttpError, notFound, ok } from '../http.ts';
import type { Commit, Repository } from '../model.ts';
import { paginate } from '../pagination.ts';
import type { Router } from '../router.ts';
import { commitJson, fileJson } from '../shapes.ts';
import { repositoryOf, type RouteContext } from './context.ts';

/** GitHub lists at most 3000 files of a commit or pull request. */
export const MAX_FILES = 3000;
const COMMIT_FILE_LIMITS = { defaultPerPage: 300, maxPerPage: 300 };
const COMPARE_LIMITS = { defaultPerPage: 250, maxPerPage: 250 };

export function commitRoutes(router: Router, context: RouteContext): void {
  router.on('GET', 'repos/:owner/:repo/commits/*ref', (request, params) => {
    const repository = repositoryOf(context, params);
    const commit = commitForRef(repository, params.ref ?? '');
    const page = paginate(commit.files.slice(0, MAX_FILES), request.url, COMMIT_FILE_LIMITS);
    const files = page.items.map((file) => fileJson(repository, commit.sha, file));
    const additions = files.reduce((sum, file) => sum + file.additions, 0);
    const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
    return ok(
      { ...commitJson(repository, commit, request.apiBase), stats: { total: additions + deletions, additions, deletions }, files },
      page.link === undefined ? {} : { link: page.link },
    );
  });

  router.on('GET', 'repos/:owner/:repo/compare/*basehead', (request, params) => {
    const repository = repositoryOf(context, params);
    const [baseRef, headRef, ...rest] = (params.basehead ?? '').split('...');
    if (baseRef === undefined || headRef === undefined || rest.length > 0) throw notFound();
    const base = resolveRef(repository, baseRef);
    const head = resolveRef(repository, headRef);
    if (base === undefined || head === undefined) throw notFound();
    const comparison = compareCommits(repository, base.sha, head.sha);
    if (comparison === undefined) throw new HttpError(404, `No common ancestor between ${baseRef} and ${headRef}.`);
    const page = paginate(comparison.commits, request.url, COMPARE_LIMITS);
    const fullName = `${repository.owner}/${repository.name}`;
    return ok(
      {
        url: `${request.apiBase}/repos/${fullName}/compare/${baseRef}...${headRef}`,
        html_url: `https://github.test/${fullName}/compare/${baseRef}...${headRef}`,
        base_commit: commitJson(repository, base, request.apiBase),
        merge_base_commit: commitJson(repository, comparison.mergeBase, request.apiBase),
        status: comparison.status,
        ahead_by: comparison.aheadBy,
        behind_by: comparison.behindBy,
        total_commits: comparison.aheadBy,
        commits: page.items.map((commit) => commitJson(repository, commit, request.apiBase)),
        // GitHub lists the files on the first page only, at most 300.
        ...(page.page === 1 ? { files: changedFiles(comparison.commits).slice(0, 300).map((file) => fileJson(repository, head.sha, file)) } : {}),
      },
      page.link === undefined ? {} : { link: page.link },
    );
  });
}

/**
 * The commit a ref names. GitHub answers an unknown but well-formed ref (a SHA above all) with 422
 * "No commit found for SHA", and a ref git would refuse as a name with 404.
 */
export function commitForRef(repository: Repository, ref: string): Commit {
  const commit = resolveRef(repository, ref);
  if (commit !== undefined) return commit;
  if (!wellFormedRef(ref)) throw notFound();
  throw new HttpError(422, `No commit found for SHA: ${ref}`);
}

/** git check-ref-format's rules, in short. */
function wellFormedRef(ref: string): boolean {
  return (
    ref !== '' &&
    ref !== '@' &&
    ![...ref].some((char) => char <= ' ' || char === '\x7f') &&
    !/[~^:?*[\\]/.test(ref) &&
    !ref.includes('..') &&
    !ref.includes('//') &&
    !ref.includes('@{') &&
    !ref.startsWith('/') &&
    !ref.endsWith('/') &&
    !ref.endsWith('.') &&
    !ref.endsWith('.lock')
  );
}


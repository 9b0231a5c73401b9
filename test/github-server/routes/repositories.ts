// GET a repository, its branches, one branch.
import { HttpError, ok } from '../http.ts';
import { LIST_LIMITS, paginate } from '../pagination.ts';
import type { Router } from '../router.ts';
import { branchJson, repositoryJson } from '../shapes.ts';
import { repositoryOf, type RouteContext } from './context.ts';

export function repositoryRoutes(router: Router, context: RouteContext): void {
  router.on('GET', 'repos/:owner/:repo', (request, params) => ok(repositoryJson(repositoryOf(context, params), request.apiBase)));

  router.on('GET', 'repos/:owner/:repo/branches', (request, params) => {
    const repository = repositoryOf(context, params);
    const repoUrl = `${request.apiBase}/repos/${repository.owner}/${repository.name}`;
    const branches = [...repository.branches.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, sha]) => ({ name, commit: { sha, url: `${repoUrl}/commits/${sha}` }, protected: false }));
    const page = paginate(branches, request.url, LIST_LIMITS);
    return ok(page.items, page.link === undefined ? {} : { link: page.link });
  });

  router.on('GET', 'repos/:owner/:repo/branches/*branch', (request, params) => {
    const repository = repositoryOf(context, params);
    const name = params.branch ?? '';
    const sha = repository.branches.get(name);
    const commit = sha === undefined ? undefined : repository.commits.get(sha);
    if (commit === undefined) throw new HttpError(404, 'Branch not found');
    return ok(branchJson(repository, name, commit, request.apiBase));
  });
}

// Pull requests: the list (state, head and base filters, newest first), one, and its files.
import { HttpError, notFound, ok } from '../http.ts';
import type { PullRequest, Repository } from '../model.ts';
import { LIST_LIMITS, paginate } from '../pagination.ts';
import type { Params, Router } from '../router.ts';
import { fileJson, pullJson } from '../shapes.ts';
import { MAX_FILES } from './commits.ts';
import { repositoryOf, type RouteContext } from './context.ts';

export function pullRoutes(router: Router, context: RouteContext): void {
  router.on('GET', 'repos/:owner/:repo/pulls', (request, params) => {
    const repository = repositoryOf(context, params);
    const query = request.url.searchParams;
    const state = query.get('state') ?? 'open';
    if (!['open', 'closed', 'all'].includes(state)) throw new HttpError(422, 'Validation Failed', { errors: [{ resource: 'Issue', field: 'state', code: 'invalid' }] });
    const head = query.get('head');
    const base = query.get('base');
    const pulls = [...repository.pulls.values()]
      .filter((pull) => state === 'all' || pull.state === state)
      .filter((pull) => head === null || head === `${repository.owner}:${pull.head}`)
      .filter((pull) => base === null || base === pull.base)
      .sort((a, b) => (query.get('direction') === 'asc' ? a.number - b.number : b.number - a.number));
    const page = paginate(pulls, request.url, LIST_LIMITS);
    return ok(
      page.items.map((pull) => pullJson(repository, pull, request.apiBase)),
      page.link === undefined ? {} : { link: page.link },
    );
  });

  router.on('GET', 'repos/:owner/:repo/pulls/:number', (request, params) => {
    const repository = repositoryOf(context, params);
    const pull = pullOf(repository, params);
    return ok({ ...pullJson(repository, pull, request.apiBase), merged: pull.merged, mergeable: pull.state === 'open' ? true : null, comments: 0, commits: 0 });
  });

  router.on('GET', 'repos/:owner/:repo/pulls/:number/files', (request, params) => {
    const repository = repositoryOf(context, params);
    const pull = pullOf(repository, params);
    const page = paginate(context.model.pullRequestFiles(repository, pull).slice(0, MAX_FILES), request.url, LIST_LIMITS);
    return ok(
      page.items.map((file) => fileJson(repository, pull.headSha, file)),
      page.link === undefined ? {} : { link: page.link },
    );
  });
}

function pullOf(repository: Repository, params: Params): PullRequest {
  const pull = repository.pulls.get(Number(params.number));
  if (pull === undefined) throw notFound();
  return pull;
}

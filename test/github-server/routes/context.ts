// What the route modules share: the state they serve and the lookups every repository route starts with.
import type { Auth } from '../auth.ts';
import type { CheckRunStore } from '../check-runs.ts';
import { notFound } from '../http.ts';
import type { GitHubModel, Repository } from '../model.ts';
import type { Params } from '../router.ts';

export interface RouteContext {
  model: GitHubModel;
  checkRuns: CheckRunStore;
  auth: Auth;
}

export function repositoryOf(context: RouteContext, params: Params): Repository {
  const repository = context.model.find(params.owner ?? '', params.repo ?? '');
  if (repository === undefined) throw notFound();
  return repository;
}

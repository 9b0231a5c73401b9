// The GitHub App endpoints @octokit/auth-app calls, authenticated with the App's JWT: installation access tokens,
// the installation, the App, a repository's installation.
import { HttpError, notFound, ok, type ApiRequest } from '../http.ts';
import type { Router } from '../router.ts';
import { ownerJson } from '../shapes.ts';
import { repositoryOf, type RouteContext } from './context.ts';

const PERMISSIONS = { checks: 'write', contents: 'read', metadata: 'read', pull_requests: 'read' };

export function appRoutes(router: Router, context: RouteContext): void {
  const installationOfCaller = (request: ApiRequest, installationId: number): number => {
    const appId = appIdOf(request);
    if (context.auth.installationOf(appId) !== installationId) throw notFound();
    return appId;
  };
  const installationJson = (installationId: number, appId: number, account: string) => ({
    id: installationId,
    app_id: appId,
    account: ownerJson(account),
    target_type: 'Organization',
    repository_selection: 'all',
    permissions: PERMISSIONS,
    events: ['push', 'pull_request'],
    access_tokens_url: `app/installations/${installationId}/access_tokens`,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    suspended_at: null,
  });

  router.on(
    'POST',
    'app/installations/:id/access_tokens',
    (request, params) => {
      installationOfCaller(request, Number(params.id));
      const issued = context.auth.issueInstallationToken(Number(params.id));
      return { status: 201, body: { ...issued, permissions: PERMISSIONS, repository_selection: 'all' } };
    },
    'app',
  );

  router.on(
    'GET',
    'app/installations/:id',
    (request, params) => {
      const appId = installationOfCaller(request, Number(params.id));
      return ok(installationJson(Number(params.id), appId, 'installation-owner'));
    },
    'app',
  );

  router.on('GET', 'app', (request) => {
    const appId = appIdOf(request);
    return ok({ id: appId, slug: `test-app-${appId}`, name: `Test App ${appId}`, owner: ownerJson('installation-owner'), permissions: PERMISSIONS, events: ['push', 'pull_request'] });
  }, 'app');

  router.on(
    'GET',
    'repos/:owner/:repo/installation',
    (request, params) => {
      const repository = repositoryOf(context, params);
      const appId = appIdOf(request);
      const installationId = context.auth.installationOf(appId);
      if (installationId === undefined) throw notFound();
      return ok(installationJson(installationId, appId, repository.owner));
    },
    'app',
  );
}

function appIdOf(request: ApiRequest): number {
  if (request.identity?.kind !== 'app') throw new HttpError(401, 'A JSON web token could not be decoded');
  return request.identity.appId;
}

// Octokit as Bosun's client builds it (core + REST methods + pagination), pointed at a test server over real HTTP.
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { restEndpointMethods } from '@octokit/plugin-rest-endpoint-methods';
import { startGitHubTestServer, type GitHubTestServer } from './index.ts';

export const TestOctokit = Octokit.plugin(restEndpointMethods, paginateRest);
export type TestOctokit = InstanceType<typeof TestOctokit>;

/** A client with a PAT the server accepts, on the GHES layout (base URL without the trailing slash Octokit dislikes). */
export function octokitFor(gh: GitHubTestServer, token = 'ghp_test'): TestOctokit {
  gh.addToken(token);
  return new TestOctokit({ auth: token, baseUrl: gh.apiUrl.replace(/\/$/, '') });
}

/** A server holding acme/infra (default branch main) and a client for it: what most of these tests start from. */
export async function serverWithRepository(): Promise<{ gh: GitHubTestServer; octokit: TestOctokit }> {
  const gh = await startGitHubTestServer();
  gh.createRepository('acme', 'infra', { defaultBranch: 'main' });
  return { gh, octokit: octokitFor(gh) };
}

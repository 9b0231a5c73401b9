// GITHUB_API_URL and GITHUB_UPLOAD_URL as upstream reads them, stored without the trailing slash Octokit breaks on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { githubEndpoints } from '../../../src/terrakojo/github/endpoints.ts';
import { GitHubEndpointError } from '../../../src/terrakojo/github/errors.ts';

test('api.github.com by default; the upload URL defaults to the API URL', () => {
  assert.deepEqual(githubEndpoints({}), { apiUrl: 'https://api.github.com', uploadUrl: 'https://api.github.com' });
  assert.deepEqual(githubEndpoints({ GITHUB_API_URL: ' ' }), { apiUrl: 'https://api.github.com', uploadUrl: 'https://api.github.com' });
});

test('a GHES URL with or without its trailing slash', () => {
  for (const url of ['https://ghe.example/api/v3/', 'https://ghe.example/api/v3', 'https://ghe.example/api/v3//']) {
    assert.deepEqual(githubEndpoints({ GITHUB_API_URL: url, GITHUB_UPLOAD_URL: 'https://ghe.example/api/uploads/' }), {
      apiUrl: 'https://ghe.example/api/v3',
      uploadUrl: 'https://ghe.example/api/uploads',
    });
  }
});

test('a URL that is not a plain http(s) base is refused, without echoing it', () => {
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(() => githubEndpoints(env), (err: unknown) => err instanceof GitHubEndpointError && err.name === 'GitHubEndpointError' && message.test(err.message) && !err.message.includes('hunter2'));
  refused({ GITHUB_API_URL: 'ghe.example/hunter2' }, /^GITHUB_API_URL is not a URL$/);
  refused({ GITHUB_API_URL: 'ftp://ghe.example/hunter2' }, /^GITHUB_API_URL must be an http or https URL, not ftp:$/);
  refused({ GITHUB_API_URL: 'https://user:hunter2@ghe.example/api/v3' }, /^GITHUB_API_URL must be a plain base URL/);
  refused({ GITHUB_UPLOAD_URL: 'https://ghe.example/up?token=hunter2' }, /^GITHUB_UPLOAD_URL must be a plain base URL/);
});

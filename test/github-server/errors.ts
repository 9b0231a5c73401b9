// Misuse of the test server's own API (an unknown repository, branch or pull request): a test bug, said plainly.
export class GitHubTestServerError extends Error {
  override readonly name = 'GitHubTestServerError' as const;
}

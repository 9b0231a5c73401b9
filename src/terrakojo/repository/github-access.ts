// How the terrakojo controllers reach GitHub: through a client for a Repository, built from the Repository's
// Secret by whoever runs them (the family wires in GitHubClients.forRepository, one client per Secret version).
import type { Repository } from '../api/types.ts';
import { GitHubCredentialsError, GitHubRequestError } from '../github/errors.ts';
import type { GitHubClient } from '../github/github-client.ts';

/**
 * The GitHub client for a Repository. Rejects with a GitHubCredentialsError when its Secret is missing or gives
 * no credentials: a configuration error that only a change of the Secret or the Repository can fix.
 */
export type GitHubClientProvider = (repository: Repository) => Promise<GitHubClient>;

export interface CredentialsProblem {
  /** UpperCamelCase, fit for a condition reason: "NoCredentials", "InvalidPrivateKey", "SecretNotFound"… */
  reason: string;
  /** What is wrong with the Secret, without its name. */
  detail: string;
}

/** The configuration error err reports, when it is one. */
export function credentialsProblem(err: unknown): CredentialsProblem | undefined {
  return err instanceof GitHubCredentialsError ? { reason: err.reason, detail: err.detail } : undefined;
}

/** How long GitHub asked us to wait (a rate limit the client gave up waiting on), in ms. */
export function retryAfterMs(err: unknown): number | undefined {
  const seconds = err instanceof GitHubRequestError ? err.retryAfterSeconds : undefined;
  return seconds !== undefined && seconds > 0 ? seconds * 1000 : undefined;
}

// How the terrakojo controllers reach GitHub: through a client for a Repository, built from the Repository's
// Secret by whoever runs them (the family wires in the client cache, which reuses a client per Secret version).
import type { Repository } from '../api/types.ts';
import type { GitHubClient } from '../github/github-client.ts';

/**
 * The GitHub client for a Repository. Rejects with a GitHubCredentialsError (name, `reason` in UpperCamelCase)
 * when its Secret is missing or gives no credentials: a configuration error that only a change can fix.
 */
export type GitHubClientProvider = (repository: Repository) => Promise<GitHubClient>;

export interface CredentialsProblem {
  /** UpperCamelCase, fit for a condition reason: "NoCredentials", "InvalidPrivateKey", "SecretNotFound"… */
  reason: string;
  message: string;
}

/** The configuration error err reports, when it is one (matched by name: the client cache owns the class). */
export function credentialsProblem(err: unknown): CredentialsProblem | undefined {
  if (!(err instanceof Error) || err.name !== 'GitHubCredentialsError') return undefined;
  const reason = (err as Error & { reason?: unknown }).reason;
  return { reason: typeof reason === 'string' && reason !== '' ? reason : 'InvalidCredentials', message: err.message };
}

/** How long GitHub asked us to wait (a rate limit the client gave up waiting on), in ms. */
export function retryAfterMs(err: unknown): number | undefined {
  const seconds = err instanceof Error ? (err as Error & { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : undefined;
}

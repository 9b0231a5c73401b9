// The two ways GitHub access fails: a call GitHub (or the network) refused, and a Secret that cannot be turned into
// credentials. Messages name the call, the repository or the Secret and key, and never carry a token or a key.

export interface GitHubRequestErrorDetails {
  /** The GitHubClient method that failed, e.g. "getBranchHead". */
  operation: string;
  /** "owner/repo". */
  repository: string;
  /** The HTTP status GitHub answered; undefined when no answer came (network error, timeout). */
  status: number | undefined;
  /** GitHub's message, or what went wrong on the way. */
  detail: string;
  timedOut?: boolean;
  /** For a rate limit the client gave up waiting on: seconds until GitHub will answer again. */
  retryAfterSeconds?: number;
}

/** A GitHub call failed after the client's retries and rate-limit waits. */
export class GitHubRequestError extends Error {
  override readonly name = 'GitHubRequestError' as const;
  readonly operation: string;
  readonly repository: string;
  readonly status: number | undefined;
  readonly timedOut: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(details: GitHubRequestErrorDetails) {
    const answer = details.status === undefined ? '' : `${details.status} `;
    super(`GitHub ${details.operation} for ${details.repository} failed: ${answer}${details.detail}`);
    this.operation = details.operation;
    this.repository = details.repository;
    this.status = details.status;
    this.timedOut = details.timedOut ?? false;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** Why a Secret gives no credentials; UpperCamelCase, so a controller can use it as a condition reason. */
export type GitHubCredentialsReason =
  | 'SecretNotFound'
  | 'NoCredentials'
  | 'InvalidAppId'
  | 'MissingInstallationId'
  | 'InvalidInstallationId'
  | 'MissingPrivateKey'
  | 'InvalidPrivateKey';

/**
 * A configuration error: the Secret is missing or its fields are wrong. Retrying cannot fix it until the Secret
 * changes, so a controller reports it (condition, Event) rather than hammering GitHub.
 */
export class GitHubCredentialsError extends Error {
  override readonly name = 'GitHubCredentialsError' as const;
  /** "namespace/name" of the Secret. */
  readonly secret: string;
  readonly reason: GitHubCredentialsReason;
  /** The Secret key at fault, when one is. */
  readonly key: string | undefined;

  /** What is wrong, without the Secret's name (for messages that name it already). */
  readonly detail: string;

  constructor(secret: string, reason: GitHubCredentialsReason, message: string, key?: string) {
    super(`secret ${secret}: ${message}`);
    this.detail = message;
    this.secret = secret;
    this.reason = reason;
    this.key = key;
  }
}

/** GITHUB_API_URL or GITHUB_UPLOAD_URL is not an http(s) URL. */
export class GitHubEndpointError extends Error {
  override readonly name = 'GitHubEndpointError' as const;
}

// GitHub credentials from a Secret, as upstream's secret_parser.go reads them: a non-empty `token` is a personal
// access token; otherwise `github-app-id` means a GitHub App, which needs `github-installation-id` and the PEM
// contents in `github-private-key`. The key is checked here, so a bad one is a clear configuration error at once
// rather than an opaque failure at the first GitHub call.
import { createPrivateKey } from 'node:crypto';
import { GitHubCredentialsError } from './errors.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** A core/v1 Secret as the API returns it (data values base64). */
export interface GitHubSecret {
  metadata: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export type GitHubCredentials =
  | { type: 'token'; token: string }
  | { type: 'app'; appId: number; installationId: number; privateKey: string };

const TOKEN_KEY = 'token';
const APP_ID_KEY = 'github-app-id';
const INSTALLATION_ID_KEY = 'github-installation-id';
const PRIVATE_KEY_KEY = 'github-private-key';

export function secretKey(secret: GitHubSecret): string {
  return `${secret.metadata.namespace ?? ''}/${secret.metadata.name ?? ''}`;
}

/** The credentials in secret; throws GitHubCredentialsError naming the Secret and the key at fault. */
export function parseGitHubCredentials(secret: GitHubSecret): GitHubCredentials {
  const where = secretKey(secret);
  const value = (key: string): string | undefined => {
    const raw = secret.data?.[key];
    return raw === undefined ? undefined : Buffer.from(raw, 'base64').toString('utf8');
  };

  // Secrets made from files often end in a newline, which no token or id contains.
  const token = value(TOKEN_KEY)?.trim();
  if (token) return { type: 'token', token };

  const appId = value(APP_ID_KEY);
  if (appId === undefined) {
    throw new GitHubCredentialsError(
      where,
      'NoCredentials',
      `secret does not contain valid GitHub credentials (expected "${TOKEN_KEY}", or "${APP_ID_KEY}", "${INSTALLATION_ID_KEY}" and "${PRIVATE_KEY_KEY}")`,
    );
  }
  const parsedAppId = positiveInteger(appId);
  if (parsedAppId === undefined) throw new GitHubCredentialsError(where, 'InvalidAppId', `${APP_ID_KEY} must be a positive integer`, APP_ID_KEY);

  const installationId = value(INSTALLATION_ID_KEY);
  if (installationId === undefined) {
    throw new GitHubCredentialsError(where, 'MissingInstallationId', `${INSTALLATION_ID_KEY} is required for GitHub App authentication`, INSTALLATION_ID_KEY);
  }
  const parsedInstallationId = positiveInteger(installationId);
  if (parsedInstallationId === undefined) {
    throw new GitHubCredentialsError(where, 'InvalidInstallationId', `${INSTALLATION_ID_KEY} must be a positive integer`, INSTALLATION_ID_KEY);
  }

  const privateKey = value(PRIVATE_KEY_KEY);
  if (privateKey === undefined || privateKey.trim() === '') {
    throw new GitHubCredentialsError(where, 'MissingPrivateKey', `${PRIVATE_KEY_KEY} is required for GitHub App authentication`, PRIVATE_KEY_KEY);
  }
  checkPrivateKey(privateKey, where);
  return { type: 'app', appId: parsedAppId, installationId: parsedInstallationId, privateKey };
}

function positiveInteger(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[0-9]+$/.test(trimmed)) return undefined;
  const n = Number(trimmed);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** GitHub signs App JWTs with RS256, so the key must be an RSA private key in PEM. */
function checkPrivateKey(pem: string, where: string): void {
  let keyType: string | undefined;
  try {
    keyType = createPrivateKey({ key: pem, format: 'pem' }).asymmetricKeyType;
  } catch (err) {
    // crypto's message names the decoder step, never the key material.
    const reason = messageOf(err);
    throw new GitHubCredentialsError(where, 'InvalidPrivateKey', `${PRIVATE_KEY_KEY} is not a PEM private key (${reason})`, PRIVATE_KEY_KEY);
  }
  if (keyType !== 'rsa') {
    throw new GitHubCredentialsError(where, 'InvalidPrivateKey', `${PRIVATE_KEY_KEY} is a ${keyType ?? 'unknown'} key; a GitHub App key is RSA`, PRIVATE_KEY_KEY);
  }
}

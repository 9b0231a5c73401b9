// Who a request is: a personal access token, a GitHub App (an RS256 JWT signed with the App's key, verified with
// node:crypto) or an App installation token. Installation tokens last an hour, as on GitHub; tokensIssued lets
// tests show a client reuses them.
import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import { HttpError } from './http.ts';

export type Identity =
  | { kind: 'token'; token: string }
  | { kind: 'installation'; installationId: number; token: string }
  | { kind: 'app'; appId: number };

export interface AppCredentials {
  appId: number;
  installationId: number;
  privateKeyPem: string;
}

export interface InstallationToken {
  token: string;
  expires_at: string;
}

/** GitHub's installation token lifetime. */
const INSTALLATION_TOKEN_LIFETIME_MS = 60 * 60 * 1000;
/** GitHub refuses a JWT whose exp is more than 10 minutes ahead. */
const MAX_JWT_LIFETIME_S = 10 * 60;

export class Auth {
  tokensIssued = 0;
  private readonly tokens = new Set<string>();
  private readonly apps = new Map<number, { publicKey: KeyObject; installationId: number }>();
  private readonly installationTokens = new Map<string, { installationId: number; expiresAt: number }>();
  private nextAppId = 1000;

  /** A shorter token lifetime lets a test see a client renew its token before it expires. */
  constructor(private readonly tokenLifetimeMs = INSTALLATION_TOKEN_LIFETIME_MS) {}

  addToken(token: string): void {
    this.tokens.add(token);
  }

  /** A new App with one installation; the key pair is made here, PKCS#1 PEM like the one GitHub hands out. */
  createApp(): AppCredentials {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const appId = this.nextAppId++;
    const installationId = appId * 10 + 1;
    this.apps.set(appId, { publicKey: createPublicKey(privateKey), installationId });
    return { appId, installationId, privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString() };
  }

  /** The installation of an App, or undefined. */
  installationOf(appId: number): number | undefined {
    return this.apps.get(appId)?.installationId;
  }

  issueInstallationToken(installationId: number): InstallationToken {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    const expiresAt = Date.now() + this.tokenLifetimeMs;
    this.installationTokens.set(token, { installationId, expiresAt });
    this.tokensIssued++;
    // GitHub gives expires_at to the second.
    return { token, expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }

  /** The identity behind an Authorization header; GitHub's 401 for none or a bad one. */
  authenticate(authorization: string | undefined): Identity {
    if (authorization === undefined || authorization === '') throw new HttpError(401, 'Requires authentication');
    const match = /^(token|bearer)\s+(\S+)$/i.exec(authorization.trim());
    const credential = match?.[2];
    if (credential === undefined) throw new HttpError(401, 'Bad credentials');
    if (this.tokens.has(credential)) return { kind: 'token', token: credential };
    const installation = this.installationTokens.get(credential);
    if (installation !== undefined && installation.expiresAt > Date.now()) {
      return { kind: 'installation', installationId: installation.installationId, token: credential };
    }
    if (credential.split('.').length === 3) return { kind: 'app', appId: this.verifyJwt(credential) };
    throw new HttpError(401, 'Bad credentials');
  }

  private verifyJwt(jwt: string): number {
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    const undecodable = new HttpError(401, 'A JSON web token could not be decoded');
    let claims: { iss?: unknown; exp?: unknown; iat?: unknown };
    try {
      const alg = (JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: unknown }).alg;
      if (alg !== 'RS256') throw undecodable;
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as typeof claims;
    } catch {
      throw undecodable;
    }
    const appId = Number(claims.iss);
    const app = this.apps.get(appId);
    if (app === undefined) throw new HttpError(401, `'Issuer' claim ('iss') must be an Integer`);
    if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), app.publicKey, Buffer.from(signature, 'base64url'))) throw undecodable;
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || claims.exp <= now) {
      throw new HttpError(401, `'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires`);
    }
    if (claims.exp > now + MAX_JWT_LIFETIME_S) throw new HttpError(401, `'Expiration time' claim ('exp') is too far in the future`);
    if (typeof claims.iat === 'number' && claims.iat > now + 60) throw new HttpError(401, `'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued`);
    return appId;
  }
}

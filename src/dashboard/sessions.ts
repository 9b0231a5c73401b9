// Who may see the dashboard: a one-time login secret (printed in the ready line, as Jupyter prints its token
// URL) or the API token typed on the login page buys a session cookie; nothing else does.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'bosun-dashboard';

/** Equal in constant time: hashed first, so neither length nor content leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export class Sessions {
  private readonly loginSecrets = new Set<string>();
  private readonly sessions = new Set<string>();

  /** @param apiToken the token the login page accepts (the cluster credentials the dashboard itself uses). */
  constructor(private readonly apiToken: string | undefined) {}

  /** A new secret for a login URL, good for one use. */
  newLoginSecret(): string {
    const secret = randomBytes(24).toString('base64url');
    this.loginSecrets.add(secret);
    return secret;
  }

  /** A session for a login secret, which is spent; undefined when unknown or already used. */
  redeemLoginSecret(secret: string): string | undefined {
    for (const known of this.loginSecrets) {
      if (sameSecret(secret, known)) {
        this.loginSecrets.delete(known);
        return this.newSession();
      }
    }
    return undefined;
  }

  /** A session for the API token typed on the login page; undefined when it is not that token. */
  loginWithToken(token: string): string | undefined {
    if (this.apiToken === undefined || token === '' || !sameSecret(token, this.apiToken)) return undefined;
    return this.newSession();
  }

  /** Whether the request's Cookie header carries a live session. */
  authenticated(cookieHeader: string | undefined): boolean {
    const session = cookieValue(cookieHeader, SESSION_COOKIE);
    if (!session) return false;
    for (const known of this.sessions) if (sameSecret(session, known)) return true;
    return false;
  }

  private newSession(): string {
    const session = randomBytes(32).toString('base64url');
    this.sessions.add(session);
    return session;
  }
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it), the whole site. */
export function sessionCookie(session: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

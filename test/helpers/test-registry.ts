// A real image registry for tests: Debian's docker-registry (distribution 2.8) on 127.0.0.1, storage in a temp dir.
//
//   const registry = await startTestRegistry();                       // anonymous pull and push
//   const registry = await startTestRegistry({ htpasswd: { alice: 's3cret' } });   // Basic auth for everything
//   const registry = await startTestRegistry({ token: { users: { alice: 's3cret' }, publicRepositories: ['pub/app'] } });
//   registry.host                      // "127.0.0.1:PORT", what image references and skopeo use
//   registry.credentials               // a user that may pull and push (for skopeo and the puller), if auth is on
//   await registry.requests()          // every request served so far (method, path, status), from its access log
//   registry.storageDir                // docker/registry/v2/blobs/sha256/<2>/<hex>/data: where tests corrupt blobs
//   await registry.stop()
//
// Token auth runs a small token server in the test process (registry `auth: token` with a self-signed certificate,
// tokens as RS256 JWTs with the certificate in x5c): users get what they ask for, anonymous clients only pull from
// publicRepositories, and `identityTokens` (token → user) are accepted as OAuth2 refresh tokens.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSign, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface TokenAuthOptions {
  /** user → password; each may pull and push any repository. */
  users: Record<string, string>;
  /** Repositories ("bosun/web") anonymous clients may pull. */
  publicRepositories?: string[];
  /** identity token → user, accepted as refresh_token (a .dockerconfigjson identitytoken). */
  identityTokens?: Record<string, string>;
}

export interface TestRegistryOptions {
  /** user → password for htpasswd Basic auth (bcrypt, `htpasswd -Bbn`). */
  htpasswd?: Record<string, string>;
  token?: TokenAuthOptions;
}

export interface RegistryRequest {
  method: string;
  path: string;
  status: number;
}

export interface TestRegistry {
  /** 127.0.0.1:PORT */
  host: string;
  url: string;
  storageDir: string;
  /** A user allowed to push, when the registry requires auth. */
  credentials?: { username: string; password: string };
  /** The requests served so far; waits until the access log has caught up with this call. */
  requests(): Promise<RegistryRequest[]>;
  /** Token requests the token server answered (token auth only). */
  tokenRequests: { user: string | undefined; scope: string | undefined; grant: 'basic' | 'anonymous' | 'refresh_token' }[];
  stop(): Promise<void>;
}

const ACCESS_LOG_LINE = /"([A-Z]+) (\S+) HTTP\/[\d.]+" (\d{3})/;

export async function startTestRegistry(options: TestRegistryOptions = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-registry-'));
  const storageDir = join(dir, 'storage');
  let auth = '';
  let credentials: TestRegistry['credentials'];
  let tokenServer: TokenServer | undefined;
  if (options.htpasswd !== undefined) {
    const lines = Object.entries(options.htpasswd).map(([user, password]) => {
      const result = spawnSync('htpasswd', ['-Bbn', user, password], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`htpasswd failed: ${result.stderr}`);
      return result.stdout.trim();
    });
    writeFileSync(join(dir, 'htpasswd'), `${lines.join('\n')}\n`);
    auth = `auth:\n  htpasswd:\n    realm: bosun-test-registry\n    path: ${join(dir, 'htpasswd')}\n`;
    credentials = firstUser(options.htpasswd);
  } else if (options.token !== undefined) {
    tokenServer = await startTokenServer(options.token);
    writeFileSync(join(dir, 'token-ca.pem'), tokenServer.certPem);
    auth =
      `auth:\n  token:\n    realm: ${tokenServer.realm}\n    service: ${TOKEN_SERVICE}\n    issuer: ${TOKEN_ISSUER}\n` +
      `    rootcertbundle: ${join(dir, 'token-ca.pem')}\n`;
    credentials = firstUser(options.token.users);
  }
  const config =
    `version: 0.1\nlog:\n  level: info\n  accesslog:\n    disabled: false\n` +
    `storage:\n  filesystem:\n    rootdirectory: ${storageDir}\n  delete:\n    enabled: true\n` +
    `http:\n  addr: 127.0.0.1:0\n  secret: bosun-test\n${auth}`;
  writeFileSync(join(dir, 'config.yml'), config);

  const child = spawn('docker-registry', ['serve', join(dir, 'config.yml')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const served: RegistryRequest[] = [];
  const logWaiters: (() => void)[] = [];
  let stdoutRest = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (stdoutRest + chunk).split('\n');
    stdoutRest = lines.pop() ?? '';
    for (const line of lines) {
      const match = ACCESS_LOG_LINE.exec(line);
      if (match) served.push({ method: match[1] ?? '', path: match[2] ?? '', status: Number(match[3]) });
    }
    for (const wake of logWaiters.splice(0)) wake();
  });
  const port = await listeningPort(child);
  const host = `127.0.0.1:${port}`;
  const url = `http://${host}`;

  const requests = async (): Promise<RegistryRequest[]> => {
    // A marker request: once its line is logged, every request answered before this call is logged too.
    const marker = `/v2/?marker=${randomUUID()}`;
    await fetch(`${url}${marker}`).then((r) => r.arrayBuffer());
    while (!served.some((r) => r.path === marker)) await new Promise<void>((resolve) => logWaiters.push(resolve));
    return served.filter((r) => !r.path.startsWith('/v2/?marker='));
  };

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await tokenServer?.close();
    rmSync(dir, { recursive: true, force: true });
  };

  return { host, url, storageDir, credentials, requests, tokenRequests: tokenServer?.requests ?? [], stop };
}

function firstUser(users: Record<string, string>): { username: string; password: string } | undefined {
  const first = Object.entries(users)[0];
  return first && { username: first[0], password: first[1] };
}

/** The registry logs its address ("listening on 127.0.0.1:PORT") once it has bound port 0. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onData = (chunk: string): void => {
      stderr += chunk;
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (match) {
        child.stderr?.off('data', onData);
        child.off('exit', onExit);
        child.stderr?.resume();
        resolve(Number(match[1]));
      }
    };
    const onExit = (code: number | null): void => reject(new Error(`docker-registry exited with ${code}: ${stderr}`));
    child.stderr?.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
    child.once('error', reject);
  });
}

const TOKEN_SERVICE = 'bosun-test-registry';
const TOKEN_ISSUER = 'bosun-test-token-server';

interface TokenServer {
  realm: string;
  certPem: string;
  requests: TestRegistry['tokenRequests'];
  close(): Promise<void>;
}

/** Docker's token protocol: GET with Basic or anonymous, POST grant_type=refresh_token. */
async function startTokenServer(options: TokenAuthOptions): Promise<TokenServer> {
  const pems = await generate([{ name: 'commonName', value: TOKEN_ISSUER }], { keySize: 2048, algorithm: 'sha256' });
  const certDer = new X509Certificate(pems.cert).raw.toString('base64');
  const requests: TestRegistry['tokenRequests'] = [];

  const grant = (user: string | undefined, scope: string | undefined): { name: string; actions: string[] }[] => {
    // scope: repository:<name>:<actions>; several may be space-separated.
    return (scope ?? '')
      .split(' ')
      .filter((s) => s.startsWith('repository:'))
      .map((s) => {
        const [, name = '', actions = ''] = /^repository:(.+):([^:]*)$/.exec(s) ?? [];
        const wanted = actions.split(',').filter(Boolean);
        const allowed = user !== undefined ? wanted : (options.publicRepositories ?? []).includes(name) ? wanted.filter((a) => a === 'pull') : [];
        return { name, actions: allowed };
      });
  };

  const sign = (user: string | undefined, scope: string | undefined): string => {
    const now = Math.floor(Date.now() / 1000);
    const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    const header = encode({ typ: 'JWT', alg: 'RS256', x5c: [certDer] });
    const claims = encode({
      iss: TOKEN_ISSUER,
      sub: user ?? '',
      aud: TOKEN_SERVICE,
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomUUID(),
      access: grant(user, scope).map((a) => ({ type: 'repository', ...a })),
    });
    const signature = createSign('RSA-SHA256').update(`${header}.${claims}`).sign(pems.private).toString('base64url');
    return `${header}.${claims}.${signature}`;
  };

  const basicUser = (req: IncomingMessage): string | undefined | null => {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    const [user = '', password = ''] = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString().split(':');
    return options.users[user] === password ? user : null;
  };

  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: object): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://token');
    if (req.method === 'POST') {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const user = options.identityTokens?.[form.get('refresh_token') ?? ''];
        if (form.get('grant_type') !== 'refresh_token' || user === undefined) return reply(401, { error: 'invalid_grant' });
        const scope = form.get('scope') ?? undefined;
        requests.push({ user, scope, grant: 'refresh_token' });
        reply(200, { access_token: sign(user, scope), expires_in: 300 });
      });
      return;
    }
    const user = basicUser(req);
    if (user === null) return reply(401, { details: 'incorrect username or password' });
    const scope = url.searchParams.get('scope') ?? undefined;
    requests.push({ user, scope, grant: user === undefined ? 'anonymous' : 'basic' });
    const token = sign(user, scope);
    reply(200, { token, access_token: token, expires_in: 300 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    realm: `http://127.0.0.1:${port}/token`,
    certPem: pems.cert,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// One GitHub client per Secret version, shared by every reconcile of every terrakojo controller. Upstream built a
// new client on each reconcile, and so minted a new App installation token each time; here the client, and with it
// auth-app's token cache, lives as long as the Secret's resourceVersion does.
import { NotFoundError } from '../../client/errors.ts';
import type { Repository } from '../api/types.ts';
import { parseGitHubCredentials, type GitHubSecret } from './credentials.ts';
import { GitHubCredentialsError } from './errors.ts';
import type { GitHubClient } from './github-client.ts';
import { OctokitGitHubClient, type OctokitClientOptions } from './octokit-client.ts';

/** Reads a Secret (an informer cache or the API); undefined, or a NotFoundError, when it does not exist. */
export type SecretReader = (namespace: string, name: string) => Promise<GitHubSecret | undefined>;

interface Entry {
  resourceVersion: string;
  client: GitHubClient;
}

export class GitHubClients {
  /** By Secret "namespace/name": one entry per Secret, so an older resourceVersion is dropped when a newer is seen. */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly readSecret: SecretReader,
    private readonly options: OctokitClientOptions = {},
  ) {}

  /** The client for repo's githubSecretRef (namespace defaulting to the Repository's). Throws GitHubCredentialsError. */
  async forRepository(repo: Repository): Promise<GitHubClient> {
    const ref = repo.spec.githubSecretRef;
    const namespace = ref.namespace || repo.metadata.namespace || '';
    const key = `${namespace}/${ref.name}`;
    const secret = await this.read(namespace, ref.name);
    if (!secret) {
      this.entries.delete(key);
      throw new GitHubCredentialsError(key, 'SecretNotFound', 'not found');
    }
    const resourceVersion = secret.metadata.resourceVersion ?? '';
    const cached = this.entries.get(key);
    if (cached && resourceVersion !== '' && cached.resourceVersion === resourceVersion) return cached.client;

    // The Secret changed: its old client must not outlive it, even when the new version does not parse.
    this.entries.delete(key);
    const client = new OctokitGitHubClient(parseGitHubCredentials(secret), { ...this.options, throttleId: key });
    if (resourceVersion !== '') this.entries.set(key, { resourceVersion, client });
    return client;
  }

  private async read(namespace: string, name: string): Promise<GitHubSecret | undefined> {
    try {
      return await this.readSecret(namespace, name);
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  }
}

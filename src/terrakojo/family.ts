// The terrakojo controller family: the Repository, Branch and Workflow controllers of upstream's manager, sharing
// one GitHub client cache (one client per credentials Secret version). The webhook receiver that pokes
// Repositories is a separate server (webhook-server/), run by `bosun up` or `bosun webhook-server`, as upstream
// runs it as a separate binary.
import { terrakojoDashboardView } from './tree/dashboard-view.ts';
import { secretsResource } from '../apimachinery/builtin-resources.ts';
import { objectKey } from '../apimachinery/object.ts';
import { NotFoundError } from '../client/errors.ts';
import type { Family, Manager, PolicyRule } from '../runtime/index.ts';
import { TerminalError } from '../runtime/index.ts';
import { TERRAKOJO_GROUP } from './api/constants.ts';
import { repositoriesResource } from './api/resources.ts';
import type { Repository } from './api/types.ts';
import { registerBranchController, type BranchControllerOptions } from './branch/index.ts';
import { findRepository } from './branch/repository-lookup.ts';
import { GitHubClients } from './github/client-cache.ts';
import type { GitHubSecret } from './github/credentials.ts';
import type { OctokitClientOptions } from './github/octokit-client.ts';
import { registerRepositoryController, type RepositoryControllerOptions } from './repository/index.ts';
import { registerWorkflowController, type WorkflowControllerOptions } from './workflow/index.ts';

export interface TerrakojoOptions {
  /** How the controllers reach GitHub; default: GITHUB_API_URL and GITHUB_UPLOAD_URL, GitHub's pacing of writes. */
  github?: OctokitClientOptions;
  repository?: Omit<RepositoryControllerOptions, 'github'>;
  branch?: Omit<BranchControllerOptions, 'github'>;
  workflow?: Omit<WorkflowControllerOptions, 'github'>;
}

/**
 * What `bosun up` and `bosun controllers` configure from the environment, as upstream's manager does:
 * GITHUB_API_URL/GITHUB_UPLOAD_URL (read by the client), TERRAKOJO_DETAILS_URL (where a check run's "Details"
 * link points: `<url>/namespaces/NS/workflows/NAME`) and GITHUB_WRITE_INTERVAL_MS (the spacing of POST and PATCH
 * requests per credential: GitHub asks for a second, a test server needs none).
 */
export function terrakojoOptionsFromEnvironment(env: Record<string, string | undefined> = process.env): TerrakojoOptions {
  const writeInterval = env['GITHUB_WRITE_INTERVAL_MS'];
  const details = env['TERRAKOJO_DETAILS_URL']?.trim();
  return {
    ...(writeInterval !== undefined && /^\d+$/.test(writeInterval) ? { github: { writeIntervalMs: Number(writeInterval) } } : {}),
    ...(details ? { workflow: { detailsUrlBase: details.replace(/\/+$/, '') } } : {}),
  };
}

export function registerTerrakojo(mgr: Manager, options: TerrakojoOptions = {}): void {
  const secrets = mgr.informer(secretsResource);
  // The cache first; a Secret created a moment ago may not be there yet, so a miss is confirmed with the API.
  const readSecret = async (namespace: string, name: string): Promise<GitHubSecret | undefined> => {
    const cached = secrets.store.get(objectKey(namespace, name));
    if (cached) return cached;
    try {
      return await mgr.client.get(secretsResource, name, { namespace });
    } catch (err) {
      if (err instanceof NotFoundError) return undefined;
      throw err;
    }
  };
  const clients = new GitHubClients(readSecret, options.github);
  const forRepository = (repository: Repository) => clients.forRepository(repository);
  const repositories = mgr.informer<Repository>(repositoriesResource);
  registerRepositoryController(mgr, { ...options.repository, github: forRepository });
  registerBranchController(mgr, { ...options.branch, github: forRepository });
  registerWorkflowController(mgr, {
    ...options.workflow,
    github: async (branch) => {
      const repository = await findRepository(repositories.store, mgr.client, branch);
      // A Branch without its Repository has no credentials to find: permanent, as a deletion must know.
      if (!repository) throw new TerminalError(`Branch ${objectKey(branch.metadata.namespace, branch.metadata.name ?? '')} belongs to no Repository`);
      return clients.forRepository(repository);
    },
  });
}

/**
 * What the controllers read, watch and write: Repositories (finalizer and labels by patch, status), the Branches and
 * Workflows they make and delete (finalizers by patch, status), WorkflowTemplates read, the Secrets Repositories
 * name (watched, so a fixed Secret ends a credentials error at once), the Jobs Workflows run, the pods of those
 * Jobs and their logs (a completed check run shows the log's tail), and Events. No more: users create and delete
 * Repositories, and the webhook server (a separate binary with rights of its own) is what updates them.
 * test/terrakojo/family-rbac.test.ts checks both ways: every request allowed, every grant used.
 */
const rbac: readonly PolicyRule[] = [
  { apiGroups: [TERRAKOJO_GROUP], resources: ['repositories'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [TERRAKOJO_GROUP], resources: ['branches', 'workflows'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
  { apiGroups: [TERRAKOJO_GROUP], resources: ['repositories/status', 'branches/status', 'workflows/status'], verbs: ['update'] },
  { apiGroups: [TERRAKOJO_GROUP], resources: ['workflowtemplates'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch', 'create'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

export const terrakojoFamily: Family = {
  name: 'terrakojo',
  groups: [TERRAKOJO_GROUP],
  crds: ['branches', 'repositories', 'workflows', 'workflowtemplates'].map((plural) => `${plural}.${TERRAKOJO_GROUP}`),
  rbac,
  views: [terrakojoDashboardView],
  register: (mgr) => registerTerrakojo(mgr, terrakojoOptionsFromEnvironment()),
};

// The Repository reconcile (upstream's RepositoryReconciler.Reconcile), in order: deletion waits for the owned
// Branches to go; the finalizer and the four labels are written first (each write wakes the next pass); then a
// sync pass against GitHub, whose outcome lands in status.
import { isDeepStrictEqual } from 'node:util';
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import type {
  Action,
  CleanupPending,
  EventRecorder,
  ReadYourWrites,
  ReconcileContext,
  StatusWriter,
} from '../../runtime/index.ts';
import { action, cleanupPending, finalizer, TerminalError } from '../../runtime/index.ts';
import { CLEANUP_BRANCHES_FINALIZER, KIND_REPOSITORY, MANAGED_BY_LABEL, MANAGED_BY_VALUE, OWNER_LABEL, REPO_NAME_LABEL, REPO_UID_LABEL } from '../api/constants.ts';
import { branchesResource, repositoriesResource } from '../api/resources.ts';
import type { Branch, Repository } from '../api/types.ts';
import type { GitHubClient } from '../github/github-client.ts';
import { deleteBranch } from './branch-objects.ts';
import { credentialsProblem, type GitHubClientProvider } from './github-access.ts';
import { controllerOf } from './ownership.ts';
import { applyReady, RepositoryReason, type ReadyState } from './status.ts';
import { syncDefaultBranch, syncRefs, type DefaultBranchOutcome, type SyncDeps } from './sync.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export interface RepositoryDeps extends SyncDeps {
  github: GitHubClientProvider;
  recorder: EventRecorder;
  writer: StatusWriter<Repository>;
  /** Our own status writes, so a pass right after one never reads an older cursor from the cache. */
  writes: ReadYourWrites<Repository>;
  resyncIntervalMs: number;
}

export async function reconcileRepository(cached: Repository, ctx: ReconcileContext<RepositoryDeps>): Promise<Action> {
  const d = ctx.data;
  return finalizer(d.client, repositoriesResource, CLEANUP_BRANCHES_FINALIZER, d.writes.resolve(cached), {
    apply: (repo) => syncRepository(d, repo),
    cleanup: (repo) => deleteOwnedBranches(d, repo),
  });
}

async function syncRepository(d: RepositoryDeps, repo: Repository): Promise<Action> {
  if (await ensureLabels(d.client, repo)) return action.awaitChange();

  const github = await clientFor(d, repo);
  let stored = repo;
  try {
    const outcome = await syncDefaultBranch(d, repo, github);
    // The cursor is saved before the refs are synced: a failure there must not make these commits run again.
    stored = await d.writer.write(repo, (draft) => {
      (draft.status ??= {}).lastDefaultBranchHeadSha = outcome.cursor;
    });
    const refs = await syncRefs(d, stored, github);
    await d.writer.write(stored, (draft) => applyReady(draft, syncedState(repo, outcome, refs.refs)));
    const created = outcome.created + refs.created;
    if (created + refs.deleted > 0) void d.recorder.normal(repo, 'BranchesSynced', `${describe(repo)}: made ${created} Branch(es), deleted ${refs.deleted}`);
    // More commits than one compare page: the next page now, not at the next resync.
    return action.requeueAfter(outcome.caughtUp ? d.resyncIntervalMs : 0);
  } catch (err) {
    const message = `${describe(repo)}: sync with GitHub failed: ${messageOf(err)}`;
    await reportNotReady(d, stored, { ready: false, reason: RepositoryReason.SyncFailed, message });
    throw err;
  }
}

function syncedState(repo: Repository, outcome: DefaultBranchOutcome, refs: number): ReadyState {
  const { defaultBranch } = repo.spec;
  return outcome.caughtUp
    ? { ready: true, reason: RepositoryReason.Synced, message: `${describe(repo)}: ${defaultBranch} at ${outcome.head.slice(0, 12)} and ${refs} other ref(s) have their Branches` }
    : { ready: false, reason: RepositoryReason.CatchingUp, message: `${describe(repo)}: made Branches for ${defaultBranch} up to ${outcome.cursor.slice(0, 12)}; more commits remain before ${outcome.head.slice(0, 12)}` };
}

/** The client for the Repository's Secret; a Secret that gives no credentials stops the Repository until it changes. */
async function clientFor(d: RepositoryDeps, repo: Repository): Promise<GitHubClient> {
  try {
    return await d.github(repo);
  } catch (err) {
    const problem = credentialsProblem(err);
    const ref = repo.spec.githubSecretRef;
    const secret = objectKey(ref.namespace || repo.metadata.namespace, ref.name);
    const message = problem
      ? `${describe(repo)}: Secret ${secret} gives no usable GitHub credentials: ${problem.detail}`
      : `${describe(repo)}: no GitHub client for Secret ${secret}: ${messageOf(err)}`;
    await reportNotReady(d, repo, { ready: false, reason: problem?.reason ?? RepositoryReason.SyncFailed, message });
    // The Secret watch and any change of the Repository wake it again; retrying sooner cannot help.
    if (problem) throw new TerminalError(message, { cause: err });
    throw err;
  }
}

async function reportNotReady(d: RepositoryDeps, repo: Repository, state: ReadyState): Promise<void> {
  await d.writer.write(repo, (draft) => applyReady(draft, state));
  void d.recorder.warning(repo, state.reason, state.message);
}

/** Adds the labels upstream sets (the webhook server finds a Repository by owner and name); true when written. */
async function ensureLabels(client: KubeClient, repo: Repository): Promise<boolean> {
  const want: Record<string, string> = {
    [OWNER_LABEL]: repo.spec.owner,
    [REPO_NAME_LABEL]: repo.spec.name,
    [REPO_UID_LABEL]: repo.metadata.uid ?? '',
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
  };
  const labels = repo.metadata.labels ?? {};
  if (isDeepStrictEqual({ ...labels, ...want }, labels)) return false;
  await client.patch(repositoriesResource, repo.metadata.name ?? '', { metadata: { labels: want } }, { type: 'merge', namespace: repo.metadata.namespace ?? '' });
  return true;
}

/**
 * Deletes every owned Branch and keeps the finalizer until they are gone: each Branch deletion wakes the
 * Repository (the Branch watch), so this waits without polling. The last check reads the API, not the cache, so
 * no Branch created just before the deletion is left behind.
 */
/** Deletes the Repository's Branches; the finalizer stays until none is left (their deletion events wake it). */
async function deleteOwnedBranches(d: RepositoryDeps, repo: Repository): Promise<Action | CleanupPending> {
  const uid = repo.metadata.uid ?? '';
  const listed = await d.client.list<Branch>(branchesResource, { namespace: repo.metadata.namespace ?? '', labelSelector: `${REPO_UID_LABEL}=${uid}` });
  const owned = listed.items.filter((b) => controllerOf(b, KIND_REPOSITORY)?.uid === uid);
  for (const branch of owned) await deleteBranch(d.client, branch);
  return owned.length > 0 ? cleanupPending() : action.awaitChange();
}

function describe(repo: Repository): string {
  return `Repository ${objectKey(repo.metadata.namespace, repo.metadata.name ?? '')} (${repo.spec.owner}/${repo.spec.name})`;
}

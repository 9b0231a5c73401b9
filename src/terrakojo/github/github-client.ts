// What the controllers ask of GitHub: upstream's ClientInterface (internal/github/client.go), one method per REST
// call, typed by what the controllers read. The Octokit implementation is in octokit-client.ts; the controllers
// see only this interface, and get one per Repository from the client cache (client-cache.ts).

export interface CompareResult {
  /** The commits after base up to head, oldest first, at most 250 (GitHub's compare page). */
  shas: string[];
  /** GitHub's compare status: "ahead", "behind", "diverged" or "identical". */
  status: string;
  totalCommits: number;
}

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed';
export type CheckRunConclusion = 'success' | 'failure' | 'cancelled' | 'neutral' | 'skipped' | 'timed_out' | 'action_required';

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
}

export interface CheckRunCreate {
  name: string;
  headSha: string;
  detailsUrl?: string;
  externalId?: string;
}

export interface CheckRunUpdate {
  name: string;
  status: CheckRunStatus;
  /** Sent only with status "completed". */
  conclusion?: CheckRunConclusion;
  detailsUrl?: string;
  output?: CheckRunOutput;
}

export interface PullRequestHead {
  number: number;
  /** The head ref's name (for a fork, the fork's branch name). */
  ref: string;
  sha: string;
}

/**
 * Every method takes the reconcile's signal last: once it aborts (hard stop, lost leadership, reconcile timeout)
 * the call rejects with its reason at once and sends nothing more.
 */
export interface GitHubClient {
  /** GET /repos/{o}/{r}/branches/{branch}: the head SHA. */
  getBranchHead(owner: string, repo: string, branch: string, signal?: AbortSignal): Promise<string>;
  /** GET /repos/{o}/{r}/branches, every page: name → head SHA. */
  listBranches(owner: string, repo: string, signal?: AbortSignal): Promise<{ name: string; sha: string }[]>;
  /** GET /repos/{o}/{r}/pulls?state=open, every page. */
  listOpenPullRequests(owner: string, repo: string, signal?: AbortSignal): Promise<PullRequestHead[]>;
  /** GET /repos/{o}/{r}/compare/{base}...{head}?per_page=250. */
  compareCommits(owner: string, repo: string, base: string, head: string, signal?: AbortSignal): Promise<CompareResult>;
  /** GET /repos/{o}/{r}/commits/{sha}: whether it exists (404 and 422 both mean it does not). */
  commitExists(owner: string, repo: string, sha: string, signal?: AbortSignal): Promise<boolean>;
  /** GET /repos/{o}/{r}/commits/{sha}, every page of its files: the changed file names. */
  commitFiles(owner: string, repo: string, sha: string, signal?: AbortSignal): Promise<string[]>;
  /** GET /repos/{o}/{r}/pulls/{n}/files, every page: the changed file names (renames give the new name). */
  pullRequestFiles(owner: string, repo: string, number: number, signal?: AbortSignal): Promise<string[]>;
  /**
   * GET /repos/{o}/{r}/commits/{sha}/check-runs?check_name=NAME&filter=all, every page: the id of the check run
   * with that name and external_id, if one exists (one created before a crash could record its id).
   */
  findCheckRun(owner: string, repo: string, sha: string, name: string, externalId: string, signal?: AbortSignal): Promise<number | undefined>;
  /**
   * POST /repos/{o}/{r}/check-runs with status "queued": the new check run's id. A 5xx or a timeout is not retried
   * (GitHub may have made the check run): retry through findCheckRun with the same externalId.
   */
  createCheckRun(owner: string, repo: string, run: CheckRunCreate, signal?: AbortSignal): Promise<number>;
  /** PATCH /repos/{o}/{r}/check-runs/{id}. */
  updateCheckRun(owner: string, repo: string, id: number, update: CheckRunUpdate, signal?: AbortSignal): Promise<void>;
}

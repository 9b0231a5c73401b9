// Check runs, each with the full history of its (status, conclusion) so tests can assert on every transition,
// not only the last one.
import type { Repository } from './model.ts';

export type CheckRunStatus = 'queued' | 'in_progress' | 'completed';
export const CHECK_RUN_STATUSES: readonly string[] = ['queued', 'in_progress', 'completed'];
export const CHECK_RUN_CONCLUSIONS: readonly string[] = ['action_required', 'cancelled', 'failure', 'neutral', 'success', 'skipped', 'stale', 'timed_out'];

export interface CheckRunOutput {
  title: string;
  summary: string;
  text?: string;
}

export interface CheckRunHistoryEntry {
  status: CheckRunStatus;
  conclusion: string | null;
  at: string;
}

export interface CheckRun {
  id: number;
  repositoryId: number;
  name: string;
  head_sha: string;
  status: CheckRunStatus;
  conclusion: string | null;
  details_url: string | null;
  external_id: string | null;
  output: CheckRunOutput | null;
  started_at: string;
  completed_at: string | null;
  history: CheckRunHistoryEntry[];
}

export type CheckRunFields = Partial<Pick<CheckRun, 'name' | 'status' | 'conclusion' | 'details_url' | 'external_id' | 'output'>>;

export class CheckRunStore {
  private readonly runs = new Map<number, CheckRun>();
  private nextId = 1;

  create(repository: Repository, name: string, headSha: string, fields: CheckRunFields): CheckRun {
    const now = new Date().toISOString();
    const run: CheckRun = {
      id: this.nextId++,
      repositoryId: repository.id,
      name,
      head_sha: headSha,
      status: 'queued',
      conclusion: null,
      details_url: null,
      external_id: null,
      output: null,
      started_at: now,
      completed_at: null,
      history: [],
    };
    this.runs.set(run.id, run);
    return this.update(run, fields);
  }

  /** Applies the fields; a conclusion completes the run, as on GitHub. Every update is one history entry. */
  update(run: CheckRun, fields: CheckRunFields): CheckRun {
    const now = new Date().toISOString();
    Object.assign(run, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
    if (fields.conclusion !== undefined && fields.conclusion !== null) run.status = 'completed';
    if (run.status === 'completed') run.completed_at ??= now;
    else {
      run.conclusion = null;
      run.completed_at = null;
    }
    run.history.push({ status: run.status, conclusion: run.conclusion, at: now });
    return run;
  }

  get(repository: Repository, id: number): CheckRun | undefined {
    const run = this.runs.get(id);
    return run?.repositoryId === repository.id ? run : undefined;
  }

  list(repository: Repository): CheckRun[] {
    return [...this.runs.values()].filter((run) => run.repositoryId === repository.id);
  }
}

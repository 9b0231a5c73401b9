// Check runs: create, update, get, and list for a ref. Validation follows GitHub's: name and head_sha required,
// a known head_sha, statuses and conclusions from GitHub's sets, a conclusion whenever the status is completed,
// an output with a title and a summary.
import { CHECK_RUN_CONCLUSIONS, CHECK_RUN_STATUSES, type CheckRun, type CheckRunFields, type CheckRunOutput, type CheckRunStatus } from '../check-runs.ts';
import { resolveRef } from '../history.ts';
import { HttpError, notFound, objectBody, ok, validationFailed } from '../http.ts';
import type { Repository } from '../model.ts';
import { LIST_LIMITS, paginate } from '../pagination.ts';
import type { Router } from '../router.ts';
import { commitForRef } from './commits.ts';
import { repositoryOf, type RouteContext } from './context.ts';

export function checkRunRoutes(router: Router, context: RouteContext): void {
  router.on('POST', 'repos/:owner/:repo/check-runs', (request, params) => {
    const repository = repositoryOf(context, params);
    const body = objectBody(request);
    const name = requiredString(body, 'name');
    const headSha = requiredString(body, 'head_sha');
    if (resolveRef(repository, headSha)?.sha !== headSha.toLowerCase()) throw new HttpError(422, `No commit found for SHA: ${headSha}`);
    const run = context.checkRuns.create(repository, name, headSha.toLowerCase(), checkRunFields(body));
    return { status: 201, body: checkRunJson(repository, run, request.apiBase) };
  });

  router.on('PATCH', 'repos/:owner/:repo/check-runs/:id', (request, params) => {
    const repository = repositoryOf(context, params);
    const run = context.checkRuns.get(repository, Number(params.id));
    if (run === undefined) throw notFound();
    const body = objectBody(request);
    if (body.name !== undefined) requiredString(body, 'name');
    return ok(checkRunJson(repository, context.checkRuns.update(run, checkRunFields(body)), request.apiBase));
  });

  router.on('GET', 'repos/:owner/:repo/check-runs/:id', (request, params) => {
    const repository = repositoryOf(context, params);
    const run = context.checkRuns.get(repository, Number(params.id));
    if (run === undefined) throw notFound();
    return ok(checkRunJson(repository, run, request.apiBase));
  });

  router.on('GET', 'repos/:owner/:repo/commits/*ref/check-runs', (request, params) => {
    const repository = repositoryOf(context, params);
    const commit = commitForRef(repository, params.ref ?? '');
    const query = request.url.searchParams;
    const all = context.checkRuns.list(repository).filter((run) => run.head_sha === commit.sha);
    // filter=latest (the default) keeps the newest run of each name.
    const newestByName = new Map<string, CheckRun>();
    for (const run of all) newestByName.set(run.name, run);
    const runs = (query.get('filter') === 'all' ? all : [...newestByName.values()])
      .filter((run) => query.get('check_name') === null || run.name === query.get('check_name'))
      .filter((run) => query.get('status') === null || run.status === query.get('status'))
      .sort((a, b) => b.id - a.id);
    const page = paginate(runs, request.url, LIST_LIMITS);
    return ok(
      { total_count: runs.length, check_runs: page.items.map((run) => checkRunJson(repository, run, request.apiBase)) },
      page.link === undefined ? {} : { link: page.link },
    );
  });
}

export function checkRunJson(repository: Repository, run: CheckRun, apiBase: string) {
  const fullName = `${repository.owner}/${repository.name}`;
  return {
    id: run.id,
    node_id: `CR_${run.id}`,
    name: run.name,
    head_sha: run.head_sha,
    external_id: run.external_id ?? '',
    url: `${apiBase}/repos/${fullName}/check-runs/${run.id}`,
    html_url: `https://github.test/${fullName}/runs/${run.id}`,
    details_url: run.details_url,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.started_at,
    completed_at: run.completed_at,
    output: {
      title: run.output?.title ?? null,
      summary: run.output?.summary ?? null,
      text: run.output?.text ?? null,
      annotations_count: 0,
      annotations_url: `${apiBase}/repos/${fullName}/check-runs/${run.id}/annotations`,
    },
    check_suite: { id: run.id },
    app: null,
    pull_requests: [],
  };
}

function checkRunFields(body: Record<string, unknown>): CheckRunFields {
  const status = optionalEnum(body, 'status', CHECK_RUN_STATUSES) as CheckRunStatus | undefined;
  const conclusion = optionalEnum(body, 'conclusion', CHECK_RUN_CONCLUSIONS);
  if (status === 'completed' && conclusion === undefined) throw validationFailed('Invalid request.\n\n"conclusion" wasn\'t supplied.', 'conclusion');
  return {
    name: typeof body.name === 'string' ? body.name : undefined,
    status,
    conclusion,
    details_url: optionalString(body, 'details_url'),
    external_id: optionalString(body, 'external_id'),
    output: body.output === undefined ? undefined : output(body.output),
  };
}

function output(value: unknown): CheckRunOutput {
  if (typeof value !== 'object' || value === null) throw validationFailed('Invalid request.\n\nFor \'properties/output\', is not an object.', 'output');
  const fields = value as Record<string, unknown>;
  const text = optionalString(fields, 'text');
  return { title: requiredString(fields, 'title'), summary: requiredString(fields, 'summary'), ...(text === undefined ? {} : { text }) };
}

function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw validationFailed(`Invalid request.\n\n"${field}" wasn't supplied.`, field);
  if (typeof value !== 'string' || value === '') throw validationFailed(`Invalid request.\n\nFor '${field}', ${JSON.stringify(value)} is not a non-empty string.`, field);
  return value;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  return body[field] === undefined || body[field] === null ? undefined : requiredString(body, field);
}

function optionalEnum(body: Record<string, unknown>, field: string, allowed: readonly string[]): string | undefined {
  const value = optionalString(body, field);
  if (value !== undefined && !allowed.includes(value)) throw validationFailed(`Invalid request.\n\nFor '${field}', "${value}" is not one of ${allowed.join(', ')}.`, field);
  return value;
}

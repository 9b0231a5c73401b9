// Landscaper's metrics on the manager's /metrics, scraped over HTTP as Prometheus would: installations,
// executions and deploy items by phase, and job durations per kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T, blueprint, createInst, deployExecution, installation, mockDeployTemplate, until, untilFinished, type Env, withEnv } from './support.ts';

let env: Env;
withEnv((e) => {
  env = e;
});

async function scrape(): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${env.mgr.metricsAddress!.port}/metrics`);
  assert.equal(res.status, 200);
  return res.text();
}

/** The value of one sample ("name{labels}"), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('/metrics exports installations, executions and deploy items by phase and job durations per kind', T, async () => {
  const ns = await env.namespace('metrics');
  const bp = blueprint({ deployExecutions: [deployExecution(mockDeployTemplate([{ name: 'a' }, { name: 'b' }]))] });
  await createInst(env, installation('ok', ns, bp));
  const inst = await untilFinished(env, ns, 'ok');
  assert.equal(inst.status?.phase, 'Succeeded', inst.status?.lastError?.message);

  const text = await until(
    'the finished jobs in /metrics',
    scrape,
    (t) => ['Installation', 'Execution', 'DeployItem'].every((k) => (sample(t, `landscaper_job_duration_seconds_count{kind="${k}",phase="Succeeded"}`) ?? 0) >= 1),
  );
  assert.match(text, /# TYPE landscaper_installations gauge/);
  assert.equal(sample(text, 'landscaper_installations{phase="Succeeded"}'), 1);
  assert.equal(sample(text, 'landscaper_installations{phase="Failed"}'), 0, 'known phases show at 0');
  assert.equal(sample(text, 'landscaper_executions{phase="Succeeded"}'), 1);
  assert.equal(sample(text, 'landscaper_deployitems{phase="Succeeded"}'), 2);
  assert.match(text, /# TYPE landscaper_job_duration_seconds histogram/);
  assert.equal(sample(text, 'landscaper_job_duration_seconds_count{kind="DeployItem",phase="Succeeded"}'), 2);
  assert.equal(sample(text, 'landscaper_job_duration_seconds_count{kind="Installation",phase="Succeeded"}'), 1);
  assert.equal(sample(text, 'landscaper_job_duration_seconds_bucket{le="+Inf",kind="Installation",phase="Succeeded"}'), 1);
  assert.match(text, /controller_runtime_reconcile_total\{controller="landscaper-installation"/, 'the generic metrics stay');
});

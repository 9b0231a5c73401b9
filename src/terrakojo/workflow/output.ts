// What a check run shows on completion (output.title, summary and text): the outcome in words, and the tail
// of the Job's log as a code block. GitHub caps summary and text at 65535 characters each.
import type { CheckRunOutput } from '../github/github-client.ts';
import type { LogTail } from './pod-log.ts';

const GITHUB_OUTPUT_LIMIT = 65_535;

const outcome: Record<string, string> = { Succeeded: 'succeeded', Failed: 'failed', Cancelled: 'was cancelled' };

/** The output of a check run whose Job finished (Succeeded or Failed). */
export function jobOutput(checkRunName: string, phase: string, job: string, log: LogTail): CheckRunOutput {
  const result = outcome[phase] ?? phase;
  const title = `${checkRunName} ${result}`;
  if (!log.readable) return { title, summary: `Job ${job} ${result}. Its log could not be read: ${log.reason}` };
  if (log.text.trim() === '') return { title, summary: `Job ${job} ${result}. Container ${log.container} of pod ${log.pod} logged nothing.` };
  const summary = `Job ${job} ${result}. The last lines of container ${log.container} of pod ${log.pod} are below.`;
  return { title, summary, text: codeBlock(log.text) };
}

/** The output of a check run that ended without a Job: the reason in words. */
export function noJobOutput(checkRunName: string, summary: string): CheckRunOutput {
  return { title: `${checkRunName} failed`, summary: cut(summary) };
}

export function cancelledOutput(checkRunName: string, workflow: string): CheckRunOutput {
  return { title: `${checkRunName} was cancelled`, summary: `Workflow ${workflow} was deleted before its Job finished.` };
}

function codeBlock(log: string): string {
  // A fence longer than any backtick run in the log, so the log cannot end the block.
  const longest = Math.max(2, ...[...log.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const room = GITHUB_OUTPUT_LIMIT - 2 * fence.length - 2;
  // Keep the end: the last lines say why a run failed.
  const body = log.length > room ? log.slice(log.length - room) : log;
  return `${fence}\n${body.replace(/\n$/, '')}\n${fence}`;
}

function cut(text: string): string {
  return text.length > GITHUB_OUTPUT_LIMIT ? `${text.slice(0, GITHUB_OUTPUT_LIMIT - 3)}...` : text;
}

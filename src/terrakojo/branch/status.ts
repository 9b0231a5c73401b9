// What a Branch's status says (written for real: upstream sets it in memory, then its Update decodes the stored
// status back over it before Status().Update, so it is lost): the Workflows made for its
// SHA, the changed files they were planned from, and WorkflowReady with the reason.
import { setObjectCondition } from '../../runtime/index.ts';
import type { Branch } from '../api/types.ts';

export const WORKFLOW_READY_CONDITION = 'WorkflowReady';

export const BranchReason = {
  /** Upstream's reason: the Workflows for the SHA exist. */
  WorkflowCreated: 'WorkflowCreated',
  NoChangedFiles: 'NoChangedFiles',
  /** No template matched, or the matches gave no target (root-level files in folder units). */
  NoMatchingTemplates: 'NoMatchingTemplates',
  /** Upstream's reason for a failed WorkflowTemplate list. */
  TemplateListFailed: 'TemplateListFailed',
  /** No GitHub client for the Repository; a credentials problem reports its own reason ("NoCredentials"…). */
  GitHubClientFailed: 'GitHubClientFailed',
  ChangedFilesFailed: 'ChangedFilesFailed',
  WorkflowCreateFailed: 'WorkflowCreateFailed',
} as const;

export interface BranchOutcome {
  ready: boolean;
  reason: string;
  message: string;
  /** Set when the pass planned Workflows (or found none to plan); absent on failures, which keep the last list. */
  workflows?: string[];
  changedFiles?: string[];
}

export function applyOutcome(draft: Branch, outcome: BranchOutcome, now?: Date): void {
  const status = (draft.status ??= {});
  if (outcome.workflows) status.workflows = outcome.workflows;
  if (outcome.changedFiles) status.changedFiles = outcome.changedFiles;
  setObjectCondition(draft, { type: WORKFLOW_READY_CONDITION, status: outcome.ready ? 'True' : 'False', reason: outcome.reason, message: outcome.message }, now);
}

// Deterministic Workflow names (Bosun's fix of upstream's generateName, which makes duplicates when a retry follows
// a partial creation without last-sha set): the same Branch, template,
// unit and path always give the same name, so a retry after a partial failure finds what it made instead of
// making it twice. `<template, cut to 52>-<10 hex of sha256(branch|template|unit|path)>` stays within the 63
// characters the Workflow CRD allows (its Job is named after it); the Branch name already carries ref and SHA.
import { createHash } from 'node:crypto';

const TEMPLATE_PART_MAX = 52;
const HASH_LENGTH = 10;

export function workflowName(branch: string, template: string, executionUnit: string, path: string): string {
  const hash = createHash('sha256').update(`${branch}|${template}|${executionUnit}|${path}`).digest('hex').slice(0, HASH_LENGTH);
  // A cut may end on "-" or "."; "x.-hash" is no valid name, so the cut ends on a letter or digit.
  const prefix = template.slice(0, TEMPLATE_PART_MAX).replace(/[-.]+$/, '');
  return `${prefix}-${hash}`;
}

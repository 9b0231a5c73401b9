// Landscaper's one error classification (src/landscaper/ls-error.ts), as installations, executions and deploy
// items all use it: the codes decide fatal, configuration errors are one class, conflicts are retried quietly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '../../src/apimachinery/object.ts';
import { ConflictError, ForbiddenError } from '../../src/client/errors.ts';
import { BlueprintError, ImportValidationError } from '../../src/landscaper/blueprint/errors.ts';
import { TemplateExecutionError } from '../../src/landscaper/templating/errors.ts';
import { YamlError } from '../../src/landscaper/yaml.ts';
import { classify, ConfigurationError, JobFailedError, LandscaperError } from '../../src/landscaper/ls-error.ts';

const status = (message: string, code: number): Status => ({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message, code });

test('classify: the codes decide fatal, for every Landscaper controller', () => {
  const cases: [string, unknown, string][] = [
    ['a configuration error', new ConfigurationError('Init', 'ImportNotFound', 'import "a" not found'), 'fatal'],
    ['a timeout code', new LandscaperError('Reconcile', 'ProgressingTimeout', 'timed out', ['ERR_TIMEOUT']), 'fatal'],
    ['a cyclic dependency', new ConfigurationError('Progressing', 'CyclicDependencies', 'a → b → a', ['ERR_CYCLIC_DEPENDENCIES']), 'fatal'],
    ['no code', new LandscaperError('Init', 'ExecutionBeingDeleted', 'still being deleted'), 'normal'],
    ['an informational code', new LandscaperError('Init', 'Waiting', 'later', ['ERR_FOR_INFO_ONLY']), 'normal'],
    ['a failed child', new JobFailedError('Progressing', 'SubObjectsFailed', 'execution x is Failed'), 'fatal'],
    ['a configuration error as the cause', new LandscaperError('ApplyObjects', 'ApplyNewObject', 'wrapped', [], { cause: new ConfigurationError('ApplyObjects', 'UnknownResourceType', 'no such kind') }), 'fatal'],
    ['a blueprint error', new BlueprintError('blueprint.yaml: not YAML'), 'fatal'],
    ['a YAML error', new YamlError('bad indentation', 3), 'fatal'],
    ['a stale read', new ConflictError(status('the object has been modified', 409)), 'conflict'],
    ['a webhook rejection', new ForbiddenError(status('admission webhook "x" denied the request', 403)), 'normal'],
    ['anything else', new Error('socket hang up'), 'normal'],
  ];
  for (const [what, err, expected] of cases) assert.equal(classify(err, 'Init').class, expected, what);
});

test('classify: the words lastError records', () => {
  const own = classify(new LandscaperError('Reconcile', 'CreateExports', 'unable to write'), 'Progressing');
  assert.deepEqual([own.operation, own.reason, own.message, own.codes], ['Reconcile', 'CreateExports', 'unable to write', []]);
  // The pure layer does not know the step: the phase names it; the reason is the error's own.
  const imp = classify(new ImportValidationError('ImportNotFound', 'a', 'import "a" not found'), 'Init');
  assert.deepEqual([imp.operation, imp.reason, imp.codes], ['Init', 'ImportNotFound', ['ERR_CONFIGURATION_PROBLEM']]);
  const tpl = classify(new TemplateExecutionError('deploy', 'main', 'long message with the input dump', 1, undefined, 'short message'), 'Init');
  assert.deepEqual([tpl.reason, tpl.message], ['TemplateExecutionError', 'short message']);
  const webhook = classify(new ForbiddenError(status('admission webhook "x" denied the request', 403)), 'Init');
  assert.deepEqual([webhook.reason, webhook.codes], ['ForbiddenError', ['ERR_WEBHOOK']]);
  const plain = classify('a string', 'Deleting');
  assert.deepEqual([plain.operation, plain.reason, plain.message], ['Deleting', 'Error', 'a string']);
});

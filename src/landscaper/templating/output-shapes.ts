// The Go types upstream decodes each execution's rendered output into (template.go: DeployExecutorOutput,
// ImportExecutorOutput; the export and subinstallation outputs hold interface{} values or decode themselves),
// so that parseYaml turns YAML 1.1 booleans and numbers into text wherever those types have a string.
import type { GoShape } from '../yaml.ts';
import type { ExecutionKind } from './errors.ts';

/** DeployItemSpecification: config (RawExtension) and timeout (Duration) decode themselves, without conversion. */
const deployItemSpecification: GoShape = {
  fields: {
    name: 'string',
    type: 'string',
    target: { fields: { name: 'string', import: 'string', key: 'string' } },
    labels: { values: 'string' },
    dependsOn: { items: 'string' },
  },
};

export const EXECUTION_OUTPUT_SHAPES: Readonly<Record<ExecutionKind, GoShape | undefined>> = {
  deploy: { fields: { deployItems: { items: deployItemSpecification } } },
  import: { fields: { errors: { items: 'string' } } },
  export: undefined,
  subinstallation: undefined,
};

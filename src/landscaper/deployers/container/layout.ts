// The /data/ls layout and environment upstream's container deployer gives the program (docs/deployer/container.md).
export const BASE_PATH = '/data/ls';
export const SHARED_PATH = `${BASE_PATH}/shared`;
/** The deployer's input Secret, mounted read-only for the init program. */
export const INTERNAL_PATH = `${BASE_PATH}/internal`;
export const IMPORTS_PATH = `${SHARED_PATH}/imports/import.json`;
export const EXPORTS_PATH = `${SHARED_PATH}/exports/values`;
export const STATE_PATH = `${SHARED_PATH}/state`;
export const CONTENT_PATH = `${SHARED_PATH}/content`;
export const COMPONENT_DESCRIPTOR_PATH = `${SHARED_PATH}/component_descriptor.json`;
export const TARGET_PATH = `${BASE_PATH}/targets/target.json`;

/** Keys of the input Secret, as files under INTERNAL_PATH. */
export const INPUT_KEYS = {
  imports: 'import.json',
  state: 'state',
  componentDescriptor: 'component_descriptor.json',
  blueprint: 'blueprint.yaml',
  target: 'target.json',
} as const;

export const OPERATION_RECONCILE = 'RECONCILE';
export const OPERATION_DELETE = 'DELETE';
export type Operation = typeof OPERATION_RECONCILE | typeof OPERATION_DELETE;

export function programEnv(operation: Operation): { name: string; value: string }[] {
  return [
    { name: 'OPERATION', value: operation },
    { name: 'IMPORTS_PATH', value: IMPORTS_PATH },
    { name: 'EXPORTS_PATH', value: EXPORTS_PATH },
    { name: 'STATE_PATH', value: STATE_PATH },
    { name: 'CONTENT_PATH', value: CONTENT_PATH },
    { name: 'COMPONENT_DESCRIPTOR_PATH', value: COMPONENT_DESCRIPTOR_PATH },
    { name: 'TARGET_PATH', value: TARGET_PATH },
  ];
}

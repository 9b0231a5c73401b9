// The built-in API types, one definition each, for the API server, the node agent and every family.
export type * from './core-v1.ts';
export type * from './batch-v1.ts';
export type * from './apps-v1.ts';
export type * from './coordination-v1.ts';
export type * from './discovery-v1.ts';
export type * from './autoscaling-v2.ts';
export type * from './storage-v1.ts';
export type * from './policy-v1.ts';
export type * from './networking-v1.ts';

// landscaper.gardener.cloud/v1alpha1 types and constants.
export * from './constants.ts';
export type * from './shared.ts';
export type * from './installation.ts';
export type * from './execution.ts';
export type * from './deploy-item.ts';
export type * from './target.ts';
export type * from './data-object.ts';
export type * from './context.ts';
export type * from './blueprint.ts';
export type * from './mock-deployer.ts';
export type * from './manifest-deployer.ts';

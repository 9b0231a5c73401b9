// The default Context of every namespace: the defaulter controller and the one function that creates it.
export { ensureDefaultContext } from './default-context.ts';
export { registerContextDefaulter } from './defaulter.ts';

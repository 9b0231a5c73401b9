// The runtime's public surface: families and the example family import the runtime through this file only
// (lint-enforced), so what they may rely on is listed here and the runtime's inner layout can change freely.
export * from './controller/action.ts';
export * from './controller/controller.ts';
export * from './controller/predicate.ts';
export * from './controller/reconciler.ts';
export * from './controller/terminal-error.ts';
export * from './informer/informer.ts';
export * from './informer/indexers.ts';
export * from './informer/read-your-writes.ts';
export * from './informer/store.ts';
export * from './informer/backoff.ts';
export * from './workqueue/clock.ts';
export * from './workqueue/rate-limiter.ts';
export * from './phases/phase-error.ts';
export * from './phases/phase-machine.ts';
export * from './phases/phase-result.ts';
export * from './view/dashboard-view.ts';
export * from './view/snapshot.ts';
export * from './view/text-tree.ts';
export * from './webhook/index.ts';
export * from './webhook/certificates.ts';
export * from './concurrency.ts';
export * from './conditions.ts';
export * from './conflict-retry.ts';
export * from './dependency-cycle.ts';
export * from './event-recorder.ts';
export * from './family.ts';
export * from './finalizer.ts';
export * from './logger.ts';
export * from './manager.ts';
export * from './status.ts';
// Error helpers every controller needs, defined below the runtime and offered here with the rest.
export { messageOf } from '../apimachinery/error-message.ts';

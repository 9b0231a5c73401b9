// `bosun tree`: model, builder, pure renderer, the one-shot and live loaders and the redraw coalescer.
export type { ForestModel, TreeModel, TreeNode, TreeNodeKind } from './model.ts';
export { buildDeployItemTree, buildExecutionTree, buildForest, buildTree, type TreeObjects } from './build.ts';
export { renderForest, renderTree, type RenderOptions } from './render.ts';
export { loadObjects, loadTree } from './load.ts';
export { Redraw } from './redraw.ts';
export { TreeWatcher, type TreeUpdate } from './watch.ts';

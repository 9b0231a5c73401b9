// `bosun tree`: model, builder, pure renderer and the one-shot and live loaders.
export type { TreeModel, TreeNode, TreeNodeKind } from './model.ts';
export { buildTree, type TreeObjects } from './build.ts';
export { renderTree, type RenderOptions } from './render.ts';
export { loadObjects, loadTree } from './load.ts';
export { TreeWatcher, type TreeUpdate } from './watch.ts';

export { createWorkspace, openWorkspace } from './create-workspace.js';
export type { CreateWorkspaceOptions } from './create-workspace.js';
export { WorkspaceError, errorMessage } from './errors.js';
export { resolveInside } from './path-guard.js';
export { unifiedDiff, diffStatistics } from './unified-diff.js';
export { diffFiles, diffVersions } from './workspace-diff.js';
export type { FileVersion, ResolvedPath, Workspace, WorkspaceEntry } from './workspace.js';

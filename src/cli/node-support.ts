/**
 * The Node versions codify runs on: package.json's `engines.node`, which every dependency
 * admits too (test/package/engines.test.ts checks both).
 */
export const supportedNode = '^20.19.0 || ^22.13.0 || >=24';

/** Whether `version` (e.g. `20.20.2`) is one of supportedNode's versions. */
export function isSupportedNode(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major === 20) return minor >= 19;
  if (major === 22) return minor >= 13;
  return major >= 24;
}

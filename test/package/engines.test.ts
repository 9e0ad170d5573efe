import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { isSupportedNode, supportedNode } from '../../src/cli/node-support.js';

/**
 * `engines.node` is a promise to users: every Node version it admits must be one that every
 * installed package admits too, or npm warns (EBADENGINE) and the package may not run.
 * The trees are walked as Node resolves them, through the installed node_modules.
 */
const root = resolve(import.meta.dirname, '../..');

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readManifest(folder: string): Manifest {
  return JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
}

/** The folder Node would load `name` from when required inside `from`. */
function installedFolder(name: string, from: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (folder === root || dirname(folder) === folder) return undefined;
  }
}

/** Every installed package reachable from `names`, by folder. */
function installedTree(names: string[]): Map<string, Manifest> {
  const found = new Map<string, Manifest>();
  const pending = names.map((name) => ({ name, from: root, optional: false }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const folder = installedFolder(next.name, next.from);
    if (folder === undefined) {
      // optional dependencies for other platforms are not installed here
      if (next.optional) continue;
      throw new Error(`${next.name} (needed from ${next.from}) is not installed`);
    }
    if (found.has(folder)) continue;
    const manifest = readManifest(folder);
    found.set(folder, manifest);
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      pending.push({ name, from: folder, optional: false });
    }
    for (const name of Object.keys(manifest.optionalDependencies ?? {})) {
      pending.push({ name, from: folder, optional: true });
    }
  }
  return found;
}

function refusals(tree: Map<string, Manifest>, ours: string): string[] {
  return [...tree.values()]
    .filter(({ engines }) => engines?.node !== undefined)
    .filter(({ engines }) => !semver.subset(ours, engines?.node ?? '*'))
    .map(({ name, version, engines }) => `${name}@${version} wants node ${engines?.node ?? ''}`)
    .sort();
}

const own = readManifest(root);
const ours = own.engines?.node ?? '';

describe('engines.node', () => {
  it('is a valid range that admits the Node running the tests', () => {
    expect(semver.validRange(ours)).not.toBeNull();
    expect(semver.satisfies(process.versions.node, ours)).toBe(true);
  });

  it('is what `codify doctor` checks Node against', () => {
    expect(supportedNode).toBe(ours);
    for (const major of [18, 19, 20, 21, 22, 23, 24, 25, 26]) {
      for (const minor of [0, 12, 13, 18, 19, 20]) {
        const version = `${major}.${minor}.1`;
        expect(isSupportedNode(version), version).toBe(semver.satisfies(version, ours));
      }
    }
  });

  it('is admitted by every installed runtime dependency', () => {
    const tree = installedTree(Object.keys(own.dependencies ?? {}));
    // the walk reaches the whole runtime tree, not only the direct dependencies
    expect(tree.size).toBeGreaterThan(Object.keys(own.dependencies ?? {}).length * 3);
    expect(refusals(tree, ours)).toEqual([]);
  });

  it('is admitted by every installed development dependency (the build and tests run on it)', () => {
    const tree = installedTree(Object.keys(own.devDependencies ?? {}));
    expect(refusals(tree, ours)).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Lists every distribution the environment inherits (not its own pip and setuptools from
 * ensurepip; its own too with the argument "own"), the first on sys.path winning as an
 * import would; prints JSON name → version.
 */
const listInstalled = `
import importlib.metadata as metadata, json, os, re, sys
inherited_only = sys.prefix != sys.base_prefix and "own" not in sys.argv[1:]
own = os.path.realpath(sys.prefix) + os.sep if inherited_only else None
found = {}
for dist in metadata.distributions():
    try:
        name, version = dist.metadata["Name"], dist.version
        place = os.path.realpath(str(dist.locate_file(""))) + os.sep
    except Exception:
        continue  # a broken install's metadata: pip would not see it either
    if not name or not version or (own is not None and place.startswith(own)):
        continue
    found.setdefault(re.sub(r"[-_.]+", "-", name).lower(), version)
print(json.dumps(found))
`;

/** The site-packages folders of an interpreter that is itself a virtual environment; [] otherwise. */
const baseVenvSites = `
import json, site, sys
print(json.dumps(site.getsitepackages() if sys.prefix != sys.base_prefix else []))
`;

/** Installers, not what the code imports: a requirement may need newer ones, and the venv has its own. */
const tooling = new Set(['pip', 'setuptools', 'wheel', 'distribute']);

// PEP 440's public and local version forms (packaging's VERSION_PATTERN); pip refuses a
// constraint whose version is not one, and Debian ships a few such versions.
const pep440 =
  /^v?(?:(?:[0-9]+!)?[0-9]+(?:\.[0-9]+)*(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?(?:[-_.]?dev[-_.]?[0-9]*)?)(?:\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?$/i;

export const normalizePackageName = (name: string): string =>
  name
    .trim()
    .toLowerCase()
    .replace(/[-_.]+/g, '-');

/**
 * Name → version of what `python` has installed: what its environment inherits, and with
 * `own` what was installed into it as well.
 */
export async function installedPackages(
  python: string,
  options: { own?: boolean } = {},
): Promise<Map<string, string>> {
  const args = ['-c', listInstalled, ...(options.own === true ? ['own'] : [])];
  const { stdout } = await run(python, args, { timeout: 60_000 });
  const parsed = JSON.parse(stdout) as Record<string, string>;
  return new Map(Object.entries(parsed));
}

/** `name==version` for each package a pip install must keep as it is. */
export function constraintLines(packages: ReadonlyMap<string, string>): string[] {
  return [...packages]
    .filter(([name, version]) => !tooling.has(name) && pep440.test(version))
    .sort(([first], [second]) => first.localeCompare(second))
    .map(([name, version]) => `${name}==${version}`);
}

/** Writes the constraints file pip gets with `--constraint`; returns how many packages it pins. */
export function writeConstraints(path: string, packages: ReadonlyMap<string, string>): number {
  const lines = constraintLines(packages);
  writeFileSync(
    path,
    [
      '# What the interpreter already provides: pip may add packages, never replace these.',
      ...lines,
      '',
    ].join('\n'),
  );
  return lines.length;
}

/**
 * `--system-site-packages` shows a new environment the packages of the Python it was made
 * from; when the chosen interpreter is itself a virtual environment, those are its base's,
 * not its own (torch in the user's venv would be missing and pip would fetch another). A
 * `.pth` file puts the interpreter's own site-packages on the new environment's path, after
 * the environment's own and before the base's, as in the interpreter itself.
 */
export async function inheritBaseEnvironment(base: string, venvPython: string): Promise<void> {
  const sites = JSON.parse((await run(base, ['-c', baseVenvSites], { timeout: 60_000 })).stdout) as
    string[] | undefined;
  if (sites === undefined || sites.length === 0) return;
  const own = JSON.parse(
    (
      await run(
        venvPython,
        ['-c', 'import json, site; print(json.dumps(site.getsitepackages()))'],
        {
          timeout: 60_000,
        },
      )
    ).stdout,
  ) as string[];
  const target = own[0];
  if (target === undefined) return;
  writeFileSync(join(target, 'codify-base-environment.pth'), `${sites.join('\n')}\n`);
}

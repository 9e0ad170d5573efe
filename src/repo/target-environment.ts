import { execFile } from 'node:child_process';
import type { RequiredPackage } from './requirements.js';

/** The interpreter the repository will run on and the versions of what it uses there. */
export interface TargetEnvironment {
  interpreter: string;
  python: string;
  /** Each required package with its installed version; null when the interpreter lacks it. */
  packages: { name: string; version: string | null }[];
}

// Distribution metadata first (no import, so torch is not loaded just to be named); the
// module's __version__ for packages installed without metadata.
const versionScript = `
import importlib, importlib.metadata, json, sys
found = {}
for name, module in json.loads(sys.argv[1]):
    version = None
    try:
        version = importlib.metadata.version(name)
    except Exception:
        try:
            version = str(getattr(importlib.import_module(module), "__version__", "")) or None
        except Exception:
            version = None
    found[name] = version
print(json.dumps({"python": sys.version.split()[0], "packages": found}))
`;

/** Asks the interpreter for its Python version and each package's installed version. */
export function probeTargetEnvironment(
  interpreter: string,
  packages: readonly RequiredPackage[],
  timeoutMs = 60_000,
): Promise<TargetEnvironment> {
  const pairs = packages.map((pkg) => [pkg.name, pkg.importName]);
  return new Promise((resolve, reject) => {
    execFile(
      interpreter,
      ['-c', versionScript, JSON.stringify(pairs)],
      { timeout: timeoutMs, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
      (error, stdout) => {
        if (error) {
          reject(new Error(`${interpreter} could not be probed: ${error.message.split('\n')[0]}`));
          return;
        }
        try {
          const parsed = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
            python: string;
            packages: Record<string, string | null>;
          };
          resolve({
            interpreter,
            python: parsed.python,
            packages: packages.map((pkg) => ({
              name: pkg.name,
              version: parsed.packages[pkg.name] ?? null,
            })),
          });
        } catch {
          reject(new Error(`${interpreter} printed something unexpected when probed`));
        }
      },
    );
  });
}

/**
 * The environment as the generation prompt states it. The interpreter's path is left out:
 * it differs between machines and says nothing the code needs.
 */
export function describeTargetEnvironment(environment: TargetEnvironment): string {
  const installed = environment.packages.filter((pkg) => pkg.version !== null);
  const missing = environment.packages.filter((pkg) => pkg.version === null);
  const lines = [`- Python ${environment.python}`];
  if (installed.length > 0)
    lines.push(
      `- installed: ${installed.map((pkg) => `${pkg.name} ${pkg.version ?? ''}`).join(', ')}`,
    );
  if (missing.length > 0)
    lines.push(
      `- not installed, so pip installs them beside the installed ones (a version that fits those): ${missing.map((pkg) => pkg.name).join(', ')}`,
    );
  if (environment.packages.length === 0) lines.push('- the standard library only');
  return lines.join('\n');
}

/** The packages a paper's code most often uses, probed before planning. */
export const usualPackages: readonly RequiredPackage[] = [
  { name: 'torch', importName: 'torch' },
  { name: 'torchvision', importName: 'torchvision' },
  { name: 'numpy', importName: 'numpy' },
  { name: 'scipy', importName: 'scipy' },
  { name: 'scikit-learn', importName: 'sklearn' },
  { name: 'pandas', importName: 'pandas' },
  { name: 'PyYAML', importName: 'yaml' },
  { name: 'matplotlib', importName: 'matplotlib' },
];

/**
 * The machine as planning is told it: the interpreter that has the most of the usual
 * packages (the one verify would choose for code that uses them) and the versions it has,
 * so the design asks for versions that are there. Packages it lacks are not named: which
 * of them the code needs is for the design to say.
 */
export function describePlanningEnvironment(environment: TargetEnvironment): string {
  const installed = environment.packages.filter((pkg) => pkg.version !== null);
  return [
    `- Python ${environment.python}`,
    installed.length === 0
      ? '- none of the usual packages (torch, numpy, scikit-learn…) is installed'
      : `- installed: ${installed.map((pkg) => `${pkg.name} ${pkg.version ?? ''}`).join(', ')}`,
  ].join('\n');
}

/**
 * Of `candidates`, the interpreter with the most of the usual packages installed (the first
 * on ties) and their versions there, read from package metadata (nothing is imported);
 * undefined when none can be probed. Planning is told this one, and the run prefers it
 * whenever it imports what the code needs, so the environment planning names is the one the
 * files are written for and verify runs.
 */
export async function richestInterpreter(
  candidates: readonly string[],
): Promise<TargetEnvironment | undefined> {
  let best: TargetEnvironment | undefined;
  const installed = (found: TargetEnvironment) =>
    found.packages.filter((pkg) => pkg.version !== null).length;
  for (const path of candidates) {
    const found = await probeTargetEnvironment(path, usualPackages).catch(() => undefined);
    if (found !== undefined && (best === undefined || installed(found) > installed(best)))
      best = found;
  }
  return best;
}

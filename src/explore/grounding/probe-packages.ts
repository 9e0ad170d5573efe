import { execFile } from 'node:child_process';

/** The interpreter the experiments use, and the prototype's third-party imports as it has them. */
export interface PackageProbe {
  python: string;
  /** Modules that are not part of Python's standard library, each with its version or why not. */
  packages: { name: string; version?: string; missing?: boolean }[];
}

const script = `
import importlib, json, sys
names = json.loads(sys.argv[1])
stdlib = set(getattr(sys, "stdlib_module_names", ()))
found = []
for name in names:
    if name in stdlib or name in sys.builtin_module_names:
        continue
    try:
        module = importlib.import_module(name)
        version = getattr(module, "__version__", None)
        found.append({"name": name, "version": str(version)} if version else {"name": name})
    except BaseException:
        found.append({"name": name, "missing": True})
print(json.dumps({"python": sys.version.split()[0], "packages": found}))
`;

/**
 * Asks the interpreter once which of the modules are third-party packages and their versions.
 * An interpreter that cannot answer leaves the modules listed without versions.
 */
export function probePackages(
  interpreter: string,
  modules: readonly string[],
  timeoutMs = 60_000,
): Promise<PackageProbe> {
  return new Promise((resolve) => {
    execFile(
      interpreter,
      ['-c', script, JSON.stringify(modules)],
      { timeout: timeoutMs, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } },
      (error, stdout) => {
        const unknown = { python: 'unknown', packages: modules.map((name) => ({ name })) };
        if (error !== null) {
          resolve(unknown);
          return;
        }
        try {
          const lines = stdout.trim().split('\n');
          resolve(JSON.parse(lines[lines.length - 1] ?? '') as PackageProbe);
        } catch {
          resolve(unknown);
        }
      },
    );
  });
}

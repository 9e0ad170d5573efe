import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const starterCode = `import random

def train():
    return 0.5

if __name__ == "__main__":
    print(f"accuracy: {train()}")
`;

export const betterCode = `import random

def subpart_one():
    return 0.4

def train():
    return 0.5 + subpart_one()

if __name__ == "__main__":
    print(f"accuracy: {train()}")
`;

/** A small real task folder in a fresh temporary directory; returns it and a runs root. */
export function makeTask(options: { performance?: boolean } = {}): {
  taskDir: string;
  runsRoot: string;
} {
  const base = mkdtempSync(join(tmpdir(), 'codify-agent-'));
  const taskDir = join(base, 'task');
  const runsRoot = join(base, 'runs');
  mkdirSync(taskDir, { recursive: true });
  writeFileSync(join(taskDir, 'methodology_description.txt'), 'Add subpart_one to the accuracy.\n');
  writeFileSync(join(taskDir, 'starter_code.py'), starterCode);
  if (options.performance !== false) {
    writeFileSync(join(taskDir, 'starter_code_performance.txt'), 'accuracy: 0.5\n');
  }
  writeFileSync(
    join(taskDir, 'task.json'),
    JSON.stringify({
      name: 'toy',
      timeout_s: 60,
      metric: { name: 'accuracy', pattern: 'accuracy: ([0-9.]+)', goal: 'max' },
    }),
  );
  return { taskDir, runsRoot };
}

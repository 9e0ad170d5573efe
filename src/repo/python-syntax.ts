import { spawn } from 'node:child_process';

/**
 * Compiles Python source without running it (`ast.parse` in the given interpreter) and
 * returns the syntax error as the interpreter words it, or undefined when it compiles.
 */
export function pythonSyntaxError(
  interpreter: string,
  source: string,
): Promise<string | undefined> {
  const program =
    'import ast,sys\ntry:\n ast.parse(sys.stdin.read())\nexcept SyntaxError as e:\n' +
    ' print(f"line {e.lineno}: {e.msg}: {(e.text or \'\').strip()}"); sys.exit(1)';
  return new Promise((resolve) => {
    const child = spawn(interpreter, ['-I', '-c', program], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve(`could not start ${interpreter}: ${error.message}`));
    child.on('close', (code) => resolve(code === 0 ? undefined : output.trim() || 'syntax error'));
    child.stdin.end(source);
  });
}

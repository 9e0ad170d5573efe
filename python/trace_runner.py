"""Run a script as __main__ while counting how often each of its lines runs.

Usage: python trace_runner.py COVER_PATH SCRIPT [ARGS...]

The script behaves as if run directly (`python SCRIPT ARGS...`): same __name__, sys.argv,
sys.path[0], exit code and traceback. When it ends, COVER_PATH is written in the style of
the standard `trace` module's .cover files: each source line prefixed by its count, with
`>>>>>> ` for executable lines that never ran.
"""

import ast
import dis
import os
import sys
import threading
import types


def executable_lines(code):
    """Line numbers that hold code, from the code object and every nested one."""
    lines = set()
    stack = [code]
    while stack:
        current = stack.pop()
        for _, line in dis.findlinestarts(current):
            if line is not None and line > 0:
                lines.add(line)
        for constant in current.co_consts:
            if isinstance(constant, types.CodeType):
                stack.append(constant)
    return lines


def docstring_lines(tree):
    """Lines of docstrings, which the trace module does not count as executable either."""
    lines = set()
    for node in ast.walk(tree):
        if not isinstance(
            node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        ):
            continue
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def write_cover(cover_path, source_lines, counts, executable):
    parts = []
    for number, text in enumerate(source_lines, start=1):
        if not text.endswith("\n"):
            text += "\n"
        if number in counts:
            parts.append("%5d: %s" % (counts[number], text))
        elif number in executable:
            parts.append(">>>>>> " + text)
        else:
            parts.append("       " + text)
    with open(cover_path, "w", encoding="utf-8") as handle:
        handle.write("".join(parts))


def main():
    if len(sys.argv) < 3:
        sys.stderr.write("usage: trace_runner.py COVER_PATH SCRIPT [ARGS...]\n")
        return 2
    cover_path = sys.argv[1]
    script = sys.argv[2]
    script_path = os.path.abspath(script)
    with open(script_path, "rb") as handle:
        source = handle.read()
    code = compile(source, script_path, "exec")
    source_lines = source.decode("utf-8", errors="replace").splitlines(keepends=True)
    executable = executable_lines(code) - docstring_lines(ast.parse(source, script_path))

    counts = {}

    def local_trace(frame, event, _argument):
        if event == "line":
            line = frame.f_lineno
            counts[line] = counts.get(line, 0) + 1
        return local_trace

    def global_trace(frame, _event, _argument):
        # only frames running the script's own code get a local tracer: library code
        # pays one call per function entry and nothing per line
        if frame.f_code.co_filename == script_path:
            return local_trace
        return None

    sys.argv = [script] + sys.argv[3:]
    sys.path[0] = os.path.dirname(script_path)
    main_module = types.ModuleType("__main__")
    main_module.__file__ = script_path
    main_module.__builtins__ = __builtins__
    main_module.__cached__ = None
    sys.modules["__main__"] = main_module

    exit_code = 0
    threading.settrace(global_trace)
    sys.settrace(global_trace)
    try:
        exec(code, main_module.__dict__)
    except SystemExit as stop:
        exit_code = stop.code
    except BaseException:
        sys.settrace(None)
        kind, value, traceback = sys.exc_info()
        # drop this runner's own frame so the traceback reads as if run directly
        inner = traceback.tb_next if traceback else None
        if value is not None:
            value.__traceback__ = inner
        sys.excepthook(kind, value, inner)
        exit_code = 1
    finally:
        sys.settrace(None)
        threading.settrace(None)
        try:
            write_cover(cover_path, source_lines, counts, executable)
        except OSError as error:
            sys.stderr.write("codify tracer: could not write %s: %s\n" % (cover_path, error))
    return exit_code


if __name__ == "__main__":
    sys.exit(main())

/** A place where generated code keeps a setting's value of its own beside config.yaml. */
export interface CodeDefault {
  path: string;
  line: number;
  text: string;
}

// `cfg.get("lr", 0.1)`, `config["train"].get('epochs', 10)`: a config read with a fallback.
const configGetWithDefault =
  /\b(?:cfg|conf|config|configuration|settings|params|hparams|hyperparameters|args)\w*(?:\[[^\]]+\])*\.get\(\s*(['"])[^'"]+\1\s*,\s*(?!None\s*\))[^)\s]/i;
// `DEFAULTS = {`, `DEFAULT_CONFIG: dict = {`: a module-level table of defaults.
const defaultsTable = /^[A-Z_]*DEFAULT[A-Z_]*\s*(?::[^=]+)?=\s*[{[(]/;

/**
 * Settings the code gives a value of its own (a defaults table, a config read with a
 * fallback), which config.yaml should hold instead: the code reads every setting from the
 * YAML, with values the paper leaves open written there as implementation choices. A
 * check of the text, not of the program: it names the lines for the report.
 */
export function findCodeDefaults(
  files: readonly { path: string; content: string }[],
): CodeDefault[] {
  return files
    .filter((file) => file.path.endsWith('.py') && !/(^|\/)tests?\//.test(file.path))
    .flatMap((file) =>
      file.content
        .split('\n')
        .flatMap((text, index) =>
          configGetWithDefault.test(text) || defaultsTable.test(text)
            ? [{ path: file.path, line: index + 1, text: text.trim() }]
            : [],
        ),
    );
}

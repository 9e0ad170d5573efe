import { useState, type FormEvent } from 'react';
import type { FormField } from '../../../src/modes/form-fields.js';
import type { RunLaunchRequest } from '../../../src/server/run-launch-request.js';
import { apiPaths } from '../model/api-paths.js';
import modeFieldsJson from '../model/mode-fields.json';
import { postJson } from '../post-json.js';
import { runHref } from '../use-route.js';

type Mode = RunLaunchRequest['mode'];
/** The fields and limits of each mode's form, generated from the modes' settings schemas. */
const modeFields = modeFieldsJson as Record<Mode, FormField[]>;

type Values = Record<string, string | boolean>;

/** One field of the form; number boxes keep their text as typed until the form is sent. */
function Field(props: {
  field: FormField;
  value: string | boolean | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const { field, value } = props;
  if (field.kind === 'boolean') {
    return (
      <label className="wide checkbox">
        <input
          aria-label={field.aria}
          type="checkbox"
          checked={value === true}
          onChange={(event) => props.onChange(event.target.checked)}
        />
        {field.label}
      </label>
    );
  }
  const text = typeof value === 'string' ? value : '';
  if (field.kind === 'choice') {
    return (
      <label>
        {field.label}
        <select
          aria-label={field.aria}
          value={text === '' ? String(field.default ?? '') : text}
          onChange={(event) => props.onChange(event.target.value)}
        >
          {(field.choices ?? []).map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const numeric = field.kind === 'integer' || field.kind === 'number';
  return (
    <label className={numeric ? undefined : 'wide'}>
      {field.label}
      <input
        aria-label={field.aria}
        required={field.required}
        {...(numeric
          ? {
              type: 'number',
              min: field.min,
              max: field.max,
              step: field.kind === 'integer' ? 1 : 'any',
            }
          : {})}
        placeholder={
          field.placeholder ?? (field.default === undefined ? undefined : String(field.default))
        }
        value={text}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </label>
  );
}

/** The request for the form's values: only what was filled in, numbers as numbers. */
function launchRequest(mode: Mode, values: Values): RunLaunchRequest {
  const settings: Record<string, unknown> = {};
  for (const field of modeFields[mode]) {
    const value = values[field.key];
    if (value === undefined || value === '' || value === false) continue;
    if (field.kind === 'integer' || field.kind === 'number') settings[field.key] = Number(value);
    else if (field.kind === 'paths') settings[field.key] = [value];
    else settings[field.key] = value;
  }
  // The server checks it against the mode's settings schema and answers 400 naming a bad one.
  return { mode, ...settings } as RunLaunchRequest;
}

/**
 * Starts `codify implement`, `codify paper` or `codify explore` on this machine, as if typed in a terminal where
 * `codify ui` runs; the page then follows the new run.
 */
export function StartRunForm({ onClose }: { onClose: () => void }) {
  const [mode, setMode] = useState<Mode>('implement');
  const [values, setValues] = useState<Values>({});
  const [error, setError] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setStarting(true);
    setError(undefined);
    postJson(apiPaths.runs(), launchRequest(mode, values))
      .then(({ runId }) => {
        window.location.hash = runHref(runId);
      })
      .catch((reason: unknown) =>
        setError(reason instanceof Error ? reason.message : String(reason)),
      )
      .finally(() => setStarting(false));
  };
  return (
    <form className="start-run" onSubmit={submit} aria-label="start a run">
      <h2>Start a run</h2>
      <label>
        mode
        <select
          aria-label="start mode"
          value={mode}
          onChange={(event) => setMode(event.target.value as Mode)}
        >
          <option value="implement">implement (task folder)</option>
          <option value="paper">paper (paper file)</option>
          <option value="explore">explore (ideas from a paper)</option>
        </select>
      </label>
      {modeFields[mode].map((field) => (
        <Field
          key={`${mode}-${field.key}`}
          field={field}
          value={values[field.key]}
          onChange={(value) => setValues((before) => ({ ...before, [field.key]: value }))}
        />
      ))}
      <div className="form-buttons">
        <button type="submit" disabled={starting}>
          {starting ? 'starting…' : 'Start'}
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
      {error !== undefined ? <p className="error start-error">{error}</p> : null}
      <p className="muted">
        Paths are on the machine where codify ui runs, relative to the folder it was started in.
      </p>
    </form>
  );
}

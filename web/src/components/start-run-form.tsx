import { useState, type FormEvent } from 'react';
import type { RunLaunchRequest } from '../../../src/server/run-launch-request.js';
import { apiPaths } from '../model/api-paths.js';
import { postJson } from '../post-json.js';
import { runHref } from '../use-route.js';

/** A labelled number box; its text is kept as typed and converted when the form is sent. */
function NumberField(props: {
  label: string;
  aria: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
  step?: string;
  placeholder?: string;
}) {
  return (
    <label>
      {props.label}
      <input
        aria-label={props.aria}
        type="number"
        min={props.min}
        max={props.max}
        step={props.step}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </label>
  );
}

/** The interactive switch; what it pauses for depends on the mode. */
function InteractiveBox(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  text: string;
}) {
  return (
    <label className="wide checkbox">
      <input
        aria-label="interactive"
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange(event.target.checked)}
      />
      {props.text}
    </label>
  );
}

/**
 * Starts `codify implement`, `codify paper` or `codify explore` on this machine, as if typed in a terminal where
 * `codify ui` runs; the page then follows the new run.
 */
export function StartRunForm({ onClose }: { onClose: () => void }) {
  const [mode, setMode] = useState<RunLaunchRequest['mode']>('implement');
  const [path, setPath] = useState('');
  const [model, setModel] = useState('');
  const [strategy, setStrategy] = useState<NonNullable<RunLaunchRequest['strategy']>>('agent');
  const [maxSteps, setMaxSteps] = useState('');
  const [maxMinutes, setMaxMinutes] = useState('');
  const [maxCostUsd, setMaxCostUsd] = useState('');
  const [interactive, setInteractive] = useState(false);
  const [related, setRelated] = useState('');
  const [ideas, setIdeas] = useState('');
  const [refineRounds, setRefineRounds] = useState('');
  const [runIdeas, setRunIdeas] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [starting, setStarting] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request: RunLaunchRequest = {
      mode,
      path,
      ...(model !== '' ? { model } : {}),
      ...(mode === 'implement'
        ? {
            strategy,
            ...(maxSteps !== '' ? { maxSteps: Number(maxSteps) } : {}),
            ...(maxMinutes !== '' ? { maxMinutes: Number(maxMinutes) } : {}),
            ...(maxCostUsd !== '' ? { maxCostUsd: Number(maxCostUsd) } : {}),
            ...(interactive ? { interactive } : {}),
          }
        : {}),
      ...(mode === 'explore'
        ? {
            ...(related !== '' ? { related } : {}),
            ...(ideas !== '' ? { ideas: Number(ideas) } : {}),
            ...(refineRounds !== '' ? { refineRounds: Number(refineRounds) } : {}),
            ...(runIdeas !== '' ? { run: runIdeas } : {}),
            ...(code !== '' ? { code } : {}),
            ...(runIdeas !== '' && maxSteps !== '' ? { maxSteps: Number(maxSteps) } : {}),
            ...(interactive ? { interactive } : {}),
          }
        : {}),
    };
    setStarting(true);
    setError(undefined);
    postJson(apiPaths.runs(), request)
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
          onChange={(event) => setMode(event.target.value as RunLaunchRequest['mode'])}
        >
          <option value="implement">implement (task folder)</option>
          <option value="paper">paper (paper file)</option>
          <option value="explore">explore (ideas from a paper)</option>
        </select>
      </label>
      <label className="wide">
        {mode === 'implement' ? 'task folder' : 'paper'}
        <input
          aria-label="path"
          required
          value={path}
          placeholder={
            mode === 'implement'
              ? 'examples/yona-digits'
              : mode === 'explore'
                ? 'examples/explore/paper.md'
                : 'examples/papers/mixup-tabular/paper.md'
          }
          onChange={(event) => setPath(event.target.value)}
        />
      </label>
      <label className="wide">
        model
        <input
          aria-label="model"
          value={model}
          placeholder="openai:gpt-4o-mini (default: the configuration's)"
          onChange={(event) => setModel(event.target.value)}
        />
      </label>
      {mode === 'implement' ? (
        <>
          <label>
            strategy
            <select
              aria-label="strategy"
              value={strategy}
              onChange={(event) =>
                setStrategy(event.target.value as NonNullable<RunLaunchRequest['strategy']>)
              }
            >
              <option value="agent">agent</option>
              <option value="prescribed-plan">prescribed-plan</option>
              <option value="single-call">single-call</option>
            </select>
          </label>
          <NumberField
            label="max steps"
            aria="max steps"
            min="1"
            step="1"
            value={maxSteps}
            onChange={setMaxSteps}
          />
          <NumberField
            label="max minutes"
            aria="max minutes"
            min="0"
            step="any"
            value={maxMinutes}
            onChange={setMaxMinutes}
          />
          <NumberField
            label="max cost (USD)"
            aria="max cost"
            min="0"
            step="any"
            value={maxCostUsd}
            onChange={setMaxCostUsd}
          />
          <InteractiveBox
            checked={interactive}
            onChange={setInteractive}
            text="interactive: pause after every step for me to approve, comment, answer or stop"
          />
        </>
      ) : null}
      {mode === 'explore' ? (
        <>
          <label className="wide">
            related work (optional)
            <input
              aria-label="related work"
              value={related}
              placeholder="examples/explore/related.txt (a folder of papers, BibTeX, or a text list)"
              onChange={(event) => setRelated(event.target.value)}
            />
          </label>
          <NumberField
            label="ideas"
            aria="ideas"
            min="1"
            max="20"
            step="1"
            placeholder="5"
            value={ideas}
            onChange={setIdeas}
          />
          <NumberField
            label="refine rounds"
            aria="refine rounds"
            min="0"
            step="1"
            placeholder="1"
            value={refineRounds}
            onChange={setRefineRounds}
          />
          <label>
            run experiments
            <input
              aria-label="run experiments"
              value={runIdeas}
              placeholder="top:1, 2 or I1,I3 (none)"
              onChange={(event) => setRunIdeas(event.target.value)}
            />
          </label>
          <label className="wide">
            prototype code (for experiments)
            <input
              aria-label="prototype code"
              value={code}
              placeholder="examples/explore/prototype"
              onChange={(event) => setCode(event.target.value)}
            />
          </label>
          <NumberField
            label="max steps per experiment"
            aria="max steps"
            min="1"
            step="1"
            value={maxSteps}
            onChange={setMaxSteps}
          />
          <InteractiveBox
            checked={interactive}
            onChange={setInteractive}
            text="interactive: pause for me to approve the analysis and pick the ideas to run"
          />
        </>
      ) : null}
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

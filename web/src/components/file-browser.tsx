import { useState } from 'react';
import { withToken } from '../access-token.js';
import type { RunFileList } from '../../../src/server/api-types.js';
import { apiPaths } from '../model/api-paths.js';
import { useFetched } from '../use-json.js';
import { CodeView } from './code-view.js';

const imageExtensions = /\.(png|jpe?g|gif)$/i;
/** Larger files are offered as a link instead of being drawn line by line. */
const shownBytes = 512 * 1024;

/** The files of a run (or of one folder of it), and the one picked, highlighted. */
export function FileBrowser({
  runId,
  reloadKey,
  under,
  initial,
}: {
  runId: string;
  reloadKey: unknown;
  /** Only files under this folder, e.g. `repo/`. */
  under?: string;
  initial?: string;
}) {
  const { data, error } = useFetched<RunFileList>(apiPaths.files(runId), reloadKey);
  const files = (data?.files ?? []).filter(
    (file) => under === undefined || file.path.startsWith(under),
  );
  const [picked, setPicked] = useState<string | undefined>(initial);
  const current = picked ?? files[0]?.path;
  return (
    <div className="file-browser">
      <ul className="file-list">
        {files.map((file) => (
          <li key={file.path}>
            <button
              type="button"
              className={file.path === current ? 'file active' : 'file'}
              onClick={() => setPicked(file.path)}
            >
              {under !== undefined ? file.path.slice(under.length) : file.path}
            </button>
          </li>
        ))}
        {data?.truncated === true ? <li className="muted">(more files not listed)</li> : null}
      </ul>
      <div className="file-content">
        {error !== undefined ? <p className="error">{error}</p> : null}
        {current !== undefined ? (
          <FileContent
            runId={runId}
            path={current}
            bytes={files.find((file) => file.path === current)?.bytes ?? 0}
            reloadKey={reloadKey}
          />
        ) : (
          <p className="muted">No files.</p>
        )}
      </div>
    </div>
  );
}

export function FileContent({
  runId,
  path,
  bytes,
  reloadKey,
}: {
  runId: string;
  path: string;
  bytes: number;
  reloadKey: unknown;
}) {
  const url = apiPaths.file(runId, path);
  const tooBig = bytes > shownBytes || imageExtensions.test(path);
  const { data, error } = useFetched<string>(tooBig ? undefined : url, reloadKey, 'text');
  return (
    <div className="file-view">
      <h3>
        {path}{' '}
        <a href={withToken(url)} target="_blank" rel="noreferrer" className="muted">
          raw
        </a>
      </h3>
      {imageExtensions.test(path) ? (
        <img src={withToken(url)} alt={path} className="file-image" />
      ) : tooBig ? (
        <p className="muted">{Math.round(bytes / 1024)} KB: open it raw.</p>
      ) : error !== undefined ? (
        <p className="error">{error}</p>
      ) : data !== undefined ? (
        <CodeView text={data} path={path} />
      ) : null}
    </div>
  );
}

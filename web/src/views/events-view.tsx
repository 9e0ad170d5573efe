import { useMemo } from 'react';
import type { CodifyEvent } from '../../../src/runs/events.js';
import { describeEvent } from '../../../src/cli/render/format-event.js';
import { formatOffset } from '../../../src/cli/render/format-values.js';
import { FileBrowser } from '../components/file-browser.js';
import { WindowedList } from '../components/windowed-list.js';
import { ModelCalls } from '../components/model-calls.js';
import { Tabs } from '../components/tabs.js';
import { modelCallsOf } from '../model/model-calls.js';
import type { RunViewProps } from './run-view-props.js';

/** Any run, whatever its mode: the timeline the terminal prints, model calls and files. */
export function EventsView({ runId, events, tab, filesRevision }: RunViewProps) {
  const active = tab ?? 'events';
  const calls = modelCallsOf(events);
  return (
    <>
      <Tabs
        runId={runId}
        active={active}
        tabs={[
          { id: 'events', label: 'Timeline', note: String(events.length) },
          { id: 'calls', label: 'Model calls', note: String(calls.length) },
          { id: 'files', label: 'Files' },
        ]}
      />
      {active === 'calls' ? <ModelCalls runId={runId} calls={calls} /> : null}
      {active === 'files' ? <FileBrowser runId={runId} reloadKey={filesRevision} /> : null}
      {active === 'events' ? <EventTimeline events={events} /> : null}
    </>
  );
}

interface TimelineRow {
  event: CodifyEvent;
  text: string;
}

const rowKey = (row: TimelineRow) => row.event.seq;
const rowAttributes = (row: TimelineRow) => ({ className: `event event-${row.event.type}` });

/** The lines the terminal prints, one per event; only those near the screen are drawn. */
export function EventTimeline({ events }: { events: RunViewProps['events'] }) {
  const start = Date.parse(events[0]?.time ?? '');
  const rows = useMemo(
    () =>
      events.flatMap((event) => {
        const text = describeEvent(event);
        return text === undefined ? [] : [{ event, text }];
      }),
    [events],
  );
  return (
    <WindowedList
      className="event-timeline"
      items={rows}
      keyOf={rowKey}
      itemAttributes={rowAttributes}
      estimatedHeight={22}
      drawAllUpTo={200}
      render={(row) => (
        <>
          <span className="event-time">{formatOffset(Date.parse(row.event.time) - start)}</span>
          <span className="event-text">{row.text}</span>
        </>
      )}
    />
  );
}
